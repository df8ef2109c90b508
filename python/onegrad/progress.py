"""A progress bar for loops over batches: count, bar, items/s, ETA and named figures (loss, acc).

On a terminal it redraws one line in place; into a file or a pipe (CI logs) it writes a line at
every tenth of the way, so logs stay short and readable.
"""
import sys
import time


class ProgressBar:
    def __init__(self, total_steps: int, label: str = "", width: int = 24, stream=None, unit: str = "images"):
        self.total, self.label, self.width, self.unit = total_steps, label, width, unit
        self.stream = stream if stream is not None else sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.steps = self.items = 0
        self.start = time.perf_counter()
        self.last_draw = 0.0
        self.next_log = 1
        self.figures = {}

    def update(self, items: int = 1, **figures) -> None:
        """One step done, covering `items` items; figures (loss=..., acc=...) replace the shown ones."""
        self.steps += 1
        self.items += items
        self.figures.update(figures)
        now = time.perf_counter()
        if self.tty:
            if now - self.last_draw >= 0.1 or self.steps == self.total:
                self.last_draw = now
                self.stream.write("\r" + self.line(now))
                self.stream.flush()
        elif self.total and self.steps * 10 >= self.next_log * self.total:
            while self.steps * 10 >= self.next_log * self.total:
                self.next_log += 1
            self.stream.write(self.line(now) + "\n")
            self.stream.flush()

    def line(self, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        frac = self.steps / self.total if self.total else 0.0
        filled = int(frac * self.width)
        bar = "#" * filled + "." * (self.width - filled)
        rate = self.items / elapsed
        eta = (self.total - self.steps) * elapsed / self.steps if self.steps else 0.0
        shown = "  ".join(f"{k} {_fmt(k, v)}" for k, v in self.figures.items())
        return (f"{self.label} [{bar}] {self.steps}/{self.total}  {shown}  {rate:.0f} {self.unit}/s"
                f"  {_clock(elapsed)}<{_clock(eta)}")

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _fmt(name: str, v) -> str:
    if isinstance(v, float):
        return f"{v:.2%}" if name.startswith("acc") else f"{v:.4f}"
    return str(v)


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m}:{s:02d}"
