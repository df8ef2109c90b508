#!/usr/bin/env python3
"""One kernel of a real ONNX model (PaddleOCR det, rec or cls, as bench/onnx_latency.py loads them) timed
alone under its default opts and under opt lists given as Python expressions, on one core:

  PYTHONPATH=build/python build/venv-test/bin/python bench/onnx_kernel_ab.py det r_192_20_20_5_5 \\
      "[Opt.split(2, 4, U), Opt.split(1, 4, U), Opt.swap(1, 3)]"

NAME:i picks the i-th kernel of that name. The model's kernels are listed with its batch dimension
fixed (onegrad.kernels of run_lazy's outputs); each variant's `Kernel.source(opts)` is compiled and
called as bench/kernel_opts_ab.py does (THREAD opts dropped: the whole kernel on one core), on
random buffers, its output checked against the default's, then timed in --rounds rounds that
alternate the variants, best of --repeat calls each. U and R stand for "UPCAST" and "UNROLL".
"""
import argparse
import ctypes
import os
import sys
import tempfile

import numpy as np

import onegrad
import onegrad.onnx
from onegrad import Opt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_opts_ab import best_ms, compiled  # noqa: E402

U, R = "UPCAST", "UNROLL"
SITE = "build/venv-test/lib/python3.11/site-packages/rapidocr_onnxruntime/models/"
MODELS = {"det": ("ch_PP-OCRv4_det_infer.onnx", (1, 3, 320, 320)), "rec": ("ch_PP-OCRv4_rec_infer.onnx", (1, 3, 48, 320)),
          "cls": ("ch_ppocr_mobile_v2.0_cls_infer.onnx", (16, 3, 48, 192))}


def model_kernels(model):
    path, shape = MODELS[model]
    m = onegrad.onnx.load(SITE + path)
    m.symbolic_dims = False
    x = np.random.default_rng(0).random(shape, dtype=np.float32)
    outs = m.run_lazy({m.input_names[0]: x})
    return [k for k in onegrad.kernels(*outs.values()) if isinstance(k, onegrad.Kernel)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model", choices=sorted(MODELS))
    ap.add_argument("kernel")
    ap.add_argument("variants", nargs="*")
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    name, _, index = args.kernel.partition(":")
    k = [k for k in model_kernels(args.model) if k.name == name][int(index or 0)]
    variants = [("default", k.default_opts())] + [(v, eval(v)) for v in args.variants]
    rng = np.random.default_rng(1)
    bufs, fns = None, []
    with tempfile.TemporaryDirectory() as tmp:
        for label, opts in variants:
            opts = [o for o in opts if o.target != "THREAD"]
            fn = compiled(k, opts, tmp)
            if bufs is None:  # 4M floats each: larger than any buffer of these models
                nb = k.source(opts).split("_kernel(")[1].split(")")[0].count("restrict")
                bufs = [np.zeros(4 << 20, np.float32)] + [rng.standard_normal(4 << 20, dtype=np.float32) for _ in range(nb - 1)]
            bufs[0][:] = 0
            best_ms(fn, bufs, 1, 1)
            if fns:
                np.testing.assert_allclose(bufs[0], fns[0][2], rtol=1e-3, atol=1e-3, err_msg=label)
            fns.append((label, fn, bufs[0].copy(), k.optimize(opts)))
        best = [float("inf")] * len(fns)
        for _ in range(args.rounds):
            for i, (_, fn, _, _) in enumerate(fns):
                best[i] = min(best[i], best_ms(fn, bufs, 1, args.repeat))
    for (label, _, _, shape), ms in zip(fns, best):
        print(f"{name:24s} {ms:8.3f} ms  {shape:36s} {label}")


if __name__ == "__main__":
    main()
