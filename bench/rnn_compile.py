#!/usr/bin/env python3
"""Cold compile time and warm step time of a recurrent layer's forward + backward, for one or two
builds side by side.

  /usr/bin/python3 bench/rnn_compile.py BUILD/python [OTHER_BUILD/python] [--rounds 5] [--repeat 7]
      [--mode LSTM GRU RNN] [--seq 16] [--batch 8] [--input 32] [--hidden 64] [--layers 2]

Each round runs, per mode, a fresh process of each build in turn (alternating, so both see the same
load) with an empty kernel cache (a new ONEGRAD_CACHE_DIR): the first step (forward, loss, backward,
realized) is the cold time, nearly all of it compiling; the median of --repeat further steps is the
warm time. The table gives the median over the rounds per build and, with two builds, the median of
the per-round ratios second/first (below 1: the second is faster).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import json, statistics, sys, time
import numpy as np
import onegrad
from onegrad import Tensor, nn
mode, seq, batch, inp, hidden, layers, repeat = sys.argv[1], *map(int, sys.argv[2:8])
onegrad.manual_seed(0)
layer = {"LSTM": nn.LSTM, "GRU": nn.GRU, "RNN": nn.RNN}[mode](inp, hidden, num_layers=layers)
x = Tensor(np.random.default_rng(0).standard_normal((seq, batch, inp), dtype=np.float32))
def step():
    for p in layer.parameters():
        p.grad = None
    out, _ = layer(x)
    loss = (out * out).mean()
    loss.backward()
    loss.item()
    for p in layer.parameters():
        p.grad.realize()
t0 = time.perf_counter(); step(); cold = time.perf_counter() - t0
warm = []
for _ in range(repeat):
    t0 = time.perf_counter(); step(); warm.append(time.perf_counter() - t0)
print(json.dumps({"cold": cold, "warm": statistics.median(warm)}))
"""


def run(pythonpath, mode, a):
    cache = tempfile.mkdtemp(prefix="onegrad-rnn-compile-")
    try:
        env = dict(os.environ, PYTHONPATH=pythonpath, ONEGRAD_CACHE_DIR=cache)
        args = [mode, a.seq, a.batch, a.input, a.hidden, a.layers, a.repeat]
        out = subprocess.run([sys.executable, "-c", CHILD, *map(str, args)], env=env, capture_output=True, text=True,
                             check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("builds", nargs="+")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--mode", nargs="*", default=["LSTM", "GRU", "RNN"])
    ap.add_argument("--seq", type=int, default=16)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--input", type=int, default=32)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--layers", type=int, default=2)
    a = ap.parse_args()
    res = {(m, b, k): [] for m in a.mode for b in range(len(a.builds)) for k in ("cold", "warm")}
    for _ in range(a.rounds):
        for m in a.mode:
            for b, path in enumerate(a.builds):
                r = run(path, m, a)
                for k in ("cold", "warm"):
                    res[(m, b, k)].append(r[k])
    head = ["layer"] + [f"{k} {b}" for k in ("cold (s)", "warm (ms)") for b in ("A", "B")[:len(a.builds)]]
    if len(a.builds) == 2:
        head += ["cold B/A", "warm B/A"]
    print("builds: " + ", ".join(f"{'AB'[i]} = {p}" for i, p in enumerate(a.builds)))
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for m in a.mode:
        row = [m]
        row += [f"{statistics.median(res[(m, b, 'cold')]):.2f}" for b in range(len(a.builds))]
        row += [f"{statistics.median(res[(m, b, 'warm')]) * 1e3:.1f}" for b in range(len(a.builds))]
        if len(a.builds) == 2:
            for k in ("cold", "warm"):
                row.append(f"{statistics.median(n / o for o, n in zip(res[(m, 0, k)], res[(m, 1, k)])):.2f}")
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
