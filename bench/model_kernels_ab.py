#!/usr/bin/env python3
"""The reduce kernels of PaddleOCR det (1x3x320x320) and rec (1x3x48x320) as two builds generate them,
timed alone on one core: dump each tree's C, then time the kernels whose C differs, side by side.

  PYTHONPATH=build/python build/venv-test/bin/python bench/model_kernels_ab.py dump /tmp/new
  PYTHONPATH=/path/to/other/build/python build/venv-test/bin/python bench/model_kernels_ab.py dump /tmp/old
  PYTHONPATH=build/python build/venv-test/bin/python bench/model_kernels_ab.py ab /tmp/old /tmp/new [--rounds 5] [--repeat 20] [--only REGEX]

`dump` writes `Kernel.source(opts)` (the default opts without the THREAD split, the precision rule's
levels included) of every kernel named r_* of the models, keyed by model, position in the schedule and
its dims with the output axes between the first and the reduce axis multiplied together (a 1x1 conv's
20x20 pixels and its flat 400 are one key). `ab` compiles both files of each key whose C differs (the
CPU backend's flags, bench/kernel_opts_ab.py), runs them on the same random inputs (the outputs are
compared: a difference is flagged, as the parameter order may differ), and times each as the best of
--repeat calls, the best of --rounds rounds alternating the two; then sums per key over its instances.
"""
import argparse
import collections
import ctypes
import json
import os
import re
import subprocess
import tempfile
import time

import numpy as np

FLAGS = "-O2 -funswitch-loops -march=native -fno-trapping-math -fPIC -shared -std=c11 -ffp-contract=off".split()
SITE = "build/venv-test/lib/python3.11/site-packages/rapidocr_onnxruntime/models/"
MODELS = {"det": ("ch_PP-OCRv4_det_infer.onnx", (1, 3, 320, 320)), "rec": ("ch_PP-OCRv4_rec_infer.onnx", (1, 3, 48, 320))}


def dump(out):
    import onegrad
    import onegrad.onnx
    os.makedirs(out, exist_ok=True)
    meta = []
    for model, (path, shape) in MODELS.items():
        m = onegrad.onnx.load(SITE + path)
        m.symbolic_dims = False  # constant bounds: kernels whose shapes are the call's
        outs = m.run_lazy({m.input_names[0]: np.zeros(shape, np.float32)})
        for i, k in enumerate(onegrad.kernels(*outs.values())):
            if not hasattr(k, "shape") or not k.name.startswith("r_") or k.name.count("_") < 3:
                continue
            d = [int(x) for x in k.name.split("_")[1:]]
            opts = [o for o in k.default_opts() if o.target != "THREAD"]
            src = k.source(opts)
            key = f"{model}_{d[0]}_{int(np.prod(d[1:-1]))}_{d[-1]}_{i}"
            with open(f"{out}/{key}.c", "w") as f:
                f.write(src)
            nbufs = max(int(b) for b in re.findall(r"bufs\[(\d+)\]", src.split(f"void {k.name}(")[1])) + 1
            meta.append({"key": key, "name": k.name, "shape": k.optimize(opts), "nbufs": nbufs})
    with open(f"{out}/meta.json", "w") as f:
        json.dump(meta, f, indent=0)
    print(f"{len(meta)} kernels in {out}")


def compiled(src, name, tmp):
    path = os.path.join(tmp, f"k{len(os.listdir(tmp))}")
    with open(path + ".c", "w") as f:
        f.write(src)
    subprocess.run(["gcc", *FLAGS, path + ".c", "-o", path + ".so", "-lm"], check=True)
    fn = getattr(ctypes.CDLL(path + ".so"), name)
    fn.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
    return fn


def best_ms(fn, bufs, repeat):
    ptrs = (ctypes.c_void_p * len(bufs))(*[b.ctypes.data for b in bufs])
    variables = ctypes.cast((ctypes.c_int64 * 4)(), ctypes.c_void_p)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(ptrs, variables)
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def ab(a_dir, b_dir, rounds, repeat, only):
    load = lambda d: {m["key"]: m for m in json.load(open(f"{d}/meta.json"))}
    ma, mb = load(a_dir), load(b_dir)
    text = lambda d, m: open(f"{d}/{m['key']}.c").read().replace(m["name"], "K")
    keys = [k for k in ma if k in mb and text(a_dir, ma[k]) != text(b_dir, mb[k]) and re.search(only, k)]
    print(f"{len(keys)} of {len(ma)} kernels differ; one core, best of {repeat} calls x {rounds} rounds")
    print(f"{'key':24s} {'A opts':28s} {'A ms':>7s} {'GF/s':>5s}   {'B opts':26s} {'B ms':>7s} {'GF/s':>5s} {'B/A':>5s}")
    rng = np.random.default_rng(0)
    total = collections.defaultdict(lambda: [0.0, 0.0, 0])
    with tempfile.TemporaryDirectory() as tmp:
        for key in keys:
            fa = compiled(open(f"{a_dir}/{key}.c").read(), ma[key]["name"], tmp)
            fb = compiled(open(f"{b_dir}/{key}.c").read(), mb[key]["name"], tmp)
            n = max(ma[key]["nbufs"], mb[key]["nbufs"])
            bufs = [np.zeros(1 << 20, np.float32)] + [rng.standard_normal(1 << 20, dtype=np.float32) for _ in range(n - 1)]
            co, pixels, ci = (int(x) for x in key.split("_")[1:4])
            best_ms(fa, bufs, 1)
            want = bufs[0][:co * pixels].copy()
            bufs[0][:] = 0
            best_ms(fb, bufs, 1)
            same = np.allclose(bufs[0][:co * pixels], want, rtol=2e-3, atol=2e-3)
            ta = tb = float("inf")
            for _ in range(rounds):
                ta, tb = min(ta, best_ms(fa, bufs, repeat)), min(tb, best_ms(fb, bufs, repeat))
            flops = 2 * co * pixels * ci / 1e6
            print(f"{key:24s} {ma[key]['shape']:28s} {ta:7.3f} {flops / ta:5.1f}   {mb[key]['shape']:26s} {tb:7.3f} "
                  f"{flops / tb:5.1f} {tb / ta:5.2f}{'' if same else '  (outputs differ: parameter order?)'}", flush=True)
            group = "_".join(key.split("_")[:4])
            total[group][0] += ta
            total[group][1] += tb
            total[group][2] += 1
    print("per key, summed over its instances: A ms, B ms, B/A")
    for group, (ta, tb, count) in total.items():
        print(f"  {group:22s} x{count}  {ta:7.3f} {tb:7.3f} {tb / ta:5.2f}")
    print(f"  all {sum(v[0] for v in total.values()):.3f} {sum(v[1] for v in total.values()):.3f}")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("dump").add_argument("dir")
    p = sub.add_parser("ab")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--only", default="", help="a regex the keys must match (det_, rec_240)")
    args = ap.parse_args()
    if args.cmd == "dump":
        os.environ.setdefault("CPU_THREADS", "1")
        dump(args.dir)
    else:
        ab(args.a, args.b, args.rounds, args.repeat, args.only)


if __name__ == "__main__":
    main()
