"""Inputs generated from nothing, for the real-model examples and tests: a waveform with
speech-like bursts, and text drawn into an image with a small bitmap font."""
from __future__ import annotations

import numpy as np


def speech_like_waveform(bursts=((0.6, 1.7), (2.4, 3.3)), total_s: float = 4.2, sample_rate: int = 16000, seed: int = 0):
    """Float32 audio: a voiced sound in each (start_s, end_s) burst and low noise elsewhere. Each
    burst is a glottal-like pulse train (pitch gliding around 120-180 Hz, harmonics falling off)
    shaped by three formant resonances that move every syllable (~0.2 s), with a syllable-rate
    amplitude envelope: the features a VAD keys on."""
    rng = np.random.default_rng(seed)
    n = int(total_s * sample_rate)
    t = np.arange(n) / sample_rate
    audio = rng.standard_normal(n).astype(np.float64) * 0.002
    vowels = [(700, 1200, 2500), (300, 2300, 3000), (500, 900, 2400), (400, 1900, 2600), (600, 1000, 2500)]
    for start, end in bursts:
        i0, i1 = int(start * sample_rate), int(end * sample_rate)
        tb = t[i0:i1] - start
        f0 = 150 + 30 * np.sin(2 * np.pi * 0.7 * tb + rng.uniform(0, 6)) + 10 * rng.standard_normal() * tb
        phase = 2 * np.pi * np.cumsum(f0) / sample_rate
        syllable = (tb / 0.2).astype(int)
        voiced = np.zeros_like(tb)
        for k in range(1, 30):
            fk = k * f0
            # formant gain of harmonic k: the vowel of its syllable
            gain = np.zeros_like(tb)
            for s in np.unique(syllable):
                sel = syllable == s
                for j, fm in enumerate(vowels[(s + int(start * 10)) % len(vowels)]):
                    gain[sel] += (0.8 ** j) / (1 + ((fk[sel] - fm) / 120.0) ** 2)
            voiced += gain * np.sin(k * phase) / k ** 0.5
        envelope = 0.55 + 0.45 * np.sin(2 * np.pi * 2.5 * tb - np.pi / 2) ** 2
        ramp = np.minimum(1, np.minimum(tb, end - start - tb) / 0.03)
        voiced *= envelope * ramp
        audio[i0:i1] += 0.25 * voiced / np.abs(voiced).max()
    return audio.astype(np.float32)


# 5x7 glyphs, one string of 7 rows per character ('#' ink).
_FONT = {
    "A": ".###.|#...#|#...#|#####|#...#|#...#|#...#", "B": "####.|#...#|#...#|####.|#...#|#...#|####.",
    "C": ".###.|#...#|#....|#....|#....|#...#|.###.", "D": "####.|#...#|#...#|#...#|#...#|#...#|####.",
    "E": "#####|#....|#....|####.|#....|#....|#####", "F": "#####|#....|#....|####.|#....|#....|#....",
    "G": ".###.|#...#|#....|#.###|#...#|#...#|.####", "H": "#...#|#...#|#...#|#####|#...#|#...#|#...#",
    "I": ".###.|..#..|..#..|..#..|..#..|..#..|.###.", "J": "..###|...#.|...#.|...#.|...#.|#..#.|.##..",
    "K": "#...#|#..#.|#.#..|##...|#.#..|#..#.|#...#", "L": "#....|#....|#....|#....|#....|#....|#####",
    "M": "#...#|##.##|#.#.#|#.#.#|#...#|#...#|#...#", "N": "#...#|#...#|##..#|#.#.#|#..##|#...#|#...#",
    "O": ".###.|#...#|#...#|#...#|#...#|#...#|.###.", "P": "####.|#...#|#...#|####.|#....|#....|#....",
    "Q": ".###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#", "R": "####.|#...#|#...#|####.|#.#..|#..#.|#...#",
    "S": ".####|#....|#....|.###.|....#|....#|####.", "T": "#####|..#..|..#..|..#..|..#..|..#..|..#..",
    "U": "#...#|#...#|#...#|#...#|#...#|#...#|.###.", "V": "#...#|#...#|#...#|#...#|#...#|.#.#.|..#..",
    "W": "#...#|#...#|#...#|#.#.#|#.#.#|#.#.#|.#.#.", "X": "#...#|#...#|.#.#.|..#..|.#.#.|#...#|#...#",
    "Y": "#...#|#...#|.#.#.|..#..|..#..|..#..|..#..", "Z": "#####|....#|...#.|..#..|.#...|#....|#####",
    "0": ".###.|#...#|#..##|#.#.#|##..#|#...#|.###.", "1": "..#..|.##..|..#..|..#..|..#..|..#..|.###.",
    "2": ".###.|#...#|....#|...#.|..#..|.#...|#####", "3": "####.|....#|....#|.###.|....#|....#|####.",
    "4": "...#.|..##.|.#.#.|#..#.|#####|...#.|...#.", "5": "#####|#....|####.|....#|....#|#...#|.###.",
    "6": "..##.|.#...|#....|####.|#...#|#...#|.###.", "7": "#####|....#|...#.|..#..|.#...|.#...|.#...",
    "8": ".###.|#...#|#...#|.###.|#...#|#...#|.###.", "9": ".###.|#...#|#...#|.####|....#|...#.|.##..",
    " ": ".....|.....|.....|.....|.....|.....|.....", ".": ".....|.....|.....|.....|.....|.##..|.##..",
    "-": ".....|.....|.....|#####|.....|.....|.....",
}


def render_text(lines, scale: int = 4, margin: int = 32, size=None):
    """An RGB uint8 image (H, W, 3) of dark text on white: each line of `lines` (str or list of str;
    A-Z, 0-9, space, '.' and '-') in a 5x7 bitmap font, each font pixel scale x scale, softened
    by a 3x3 box blur. `size` (H, W) pads the image to that size (it must fit); returns
    (image, boxes) with boxes [(x0, y0, x1, y1)] of each line's ink."""
    from ..errors import ArgumentError
    lines = [lines] if isinstance(lines, str) else list(lines)
    bad = sorted({c for line in lines for c in line.upper() if c not in _FONT})
    if bad:
        raise ArgumentError(f"render_text: no glyph for {bad}")
    cell_w, line_h = 6 * scale, 12 * scale
    width = max(len(line) for line in lines) * cell_w + 2 * margin
    height = len(lines) * line_h + 2 * margin
    if size is not None:
        if size[0] < height or size[1] < width:
            raise ArgumentError(f"render_text: the text needs {height}x{width} pixels, size is {size[0]}x{size[1]}")
        height, width = size
    ink = np.zeros((height, width), np.float32)
    boxes = []
    for row, line in enumerate(lines):
        y0 = margin + row * line_h
        for col, ch in enumerate(line.upper()):
            glyph = np.array([[c == "#" for c in r] for r in _FONT[ch].split("|")], np.float32)
            x0 = margin + col * cell_w
            ink[y0:y0 + 7 * scale, x0:x0 + 5 * scale] = np.kron(glyph, np.ones((scale, scale), np.float32))
        boxes.append((margin, y0, margin + len(line) * cell_w - scale, y0 + 7 * scale))
    padded = np.pad(ink, 1)
    soft = sum(padded[dy:dy + height, dx:dx + width] for dy in range(3) for dx in range(3)) / 9
    gray = (245 - 225 * soft).astype(np.uint8)
    return np.repeat(gray[:, :, None], 3, axis=2), boxes
