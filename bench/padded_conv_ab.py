#!/usr/bin/env python3
"""A padded conv reading its unpadded input through gated loads (PAD_FREE_CONV=1: split into edges
and a middle by split_padded_loops) against the default path: the padded copy (`E_...`) plus the conv
over it.

  PYTHONPATH=build/python /usr/bin/python3 bench/padded_conv_ab.py [--repeat 20] [--rounds 3]

Each kernel's C (default opts) is compiled with the CPU backend's flags (bench/kernel_opts_ab.py) and
called for every THREAD part in turn on one core; the time is the calling thread's CPU time (a shared
machine's preemption does not count), best of --repeat calls, best of --rounds rounds that alternate
the paths. Outputs are checked against torch before they are timed.
"""
import argparse
import tempfile
import time

import numpy as np
import torch

import onegrad
from onegrad import Tensor
from kernel_opts_ab import best_ms as best_wall_ms, compiled

# (name, batch, cin, cout, h, w, k, stride, pad, groups): shapes like those of PaddleOCR det/rec/cls convs that read a padded copy
CASES = [
    ("det 96->24 3x3 80x80", 1, 96, 24, 80, 80, 3, 1, 1, 1),
    ("det 3->16 3x3 s2 on 320x320", 1, 3, 16, 320, 320, 3, 2, 1, 1),
    ("dw 3x3 32 ch 160x160", 1, 32, 32, 160, 160, 3, 1, 1, 32),
    ("det 96->24 3x3 40x40", 1, 96, 24, 40, 40, 3, 1, 1, 1),
    ("dw 5x5 192 ch 22x22", 1, 192, 192, 22, 22, 5, 1, 2, 192),
    ("dw 3x3 240 ch 14x80", 1, 240, 240, 14, 80, 3, 1, 1, 240),
    ("dw 5x5 b16 200 ch 2x96", 16, 200, 200, 2, 96, 5, 1, 2, 200),
]


def best_ms(fn, bufs, parts, repeat):
    """The least CPU time of the calling thread over `repeat` calls of every THREAD part, in ms."""
    return best_wall_ms(fn, bufs, parts, repeat, clock=time.thread_time)


def parts(kernel):
    """The THREAD parts of its default opts (each is called in turn)."""
    return int(np.prod([o.arg for o in kernel.default_opts() if o.target == "THREAD"] or [1]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        for name, b, cin, cout, h, w, k, s, p, g in CASES:
            x = rng.standard_normal((b, cin, h, w), dtype=np.float32)
            wt = rng.standard_normal((cout, cin // g, k, k), dtype=np.float32)
            want = torch.nn.functional.conv2d(torch.tensor(x), torch.tensor(wt), stride=s, padding=p, groups=g).numpy()
            xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))
            with onegrad.settings.override(PAD_FREE_CONV=1):
                new, = onegrad.kernels(Tensor(x).conv2d(Tensor(wt), stride=s, padding=p, groups=g))
            old, = onegrad.kernels(Tensor(xp).conv2d(Tensor(wt), stride=s, groups=g))
            copy, = onegrad.kernels(Tensor(x).pad((p, p, p, p)).contiguous())
            got_new, got_old, got_copy = np.zeros_like(want), np.zeros_like(want), np.zeros_like(xp)
            fn_new, fn_old, fn_copy = (compiled(kk, kk.default_opts(), tmp) for kk in (new, old, copy))
            bn, bo, bc = [got_new, x, wt], [got_old, xp, wt], [got_copy, x]
            best_ms(fn_new, bn, parts(new), 1), best_ms(fn_old, bo, parts(old), 1), best_ms(fn_copy, bc, parts(copy), 1)
            assert np.allclose(got_new, want, atol=1e-3, rtol=1e-3), name
            assert np.allclose(got_old, want, atol=1e-3, rtol=1e-3), name
            assert np.array_equal(got_copy, xp), name
            tn = to = tc = float("inf")
            for _ in range(a.rounds):
                to = min(to, best_ms(fn_old, bo, parts(old), a.repeat))
                tc = min(tc, best_ms(fn_copy, bc, parts(copy), a.repeat))
                tn = min(tn, best_ms(fn_new, bn, parts(new), a.repeat))
            print(f"{name:52s} {new.name:22s} copy {tc:7.3f} + conv {to:7.3f} = {tc + to:7.3f} ms   unpadded {tn:7.3f} ms   ({tn / (tc + to):.2f}x)")


if __name__ == "__main__":
    main()
