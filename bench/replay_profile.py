#!/usr/bin/env python3
"""Where a jitted ONNX model's replay spends its time, per kernel: DEBUG=2 runs each replayed launch
alone and prints its milliseconds (CommandBuffer::run); this takes the minimum of each launch over
N replays and sums them by kernel name. The kernels are the ones the replays run (named dims as
Variables where the model keeps them), which a plain DEBUG=2 call of the model need not be.

  CPU_THREADS=1 PYTHONPATH=build/python build/venv-test/bin/python bench/replay_profile.py det 1 [--replays 8] [--top 25]

Models: det (320x320), cls (48x192), rec (48x320) from rapidocr-onnxruntime, vad (Silero, 512 samples).
"""
import argparse
import collections
import os
import sys
import tempfile

import numpy as np

import onegrad
import onegrad.onnx
from onegrad import settings

parser = argparse.ArgumentParser()
parser.add_argument("model", choices=["det", "cls", "rec", "vad"])
parser.add_argument("batch", type=int)
parser.add_argument("--replays", type=int, default=8)
parser.add_argument("--top", type=int, default=25)
args = parser.parse_args()

SITE = next(p for p in sys.path if p.endswith("site-packages") and os.path.isdir(os.path.join(p, "onnxruntime")))
rng = np.random.default_rng(0)
if args.model == "vad":
    model = onegrad.onnx.load(os.path.join(SITE, "silero_vad/data/silero_vad.onnx"))
    inputs = {"input": rng.standard_normal((args.batch, 512)).astype(np.float32) * 0.1,
              "state": np.zeros((2, args.batch, 128), np.float32), "sr": np.array(16000, np.int64)}
else:
    name = {"det": "ch_PP-OCRv4_det_infer.onnx", "cls": "ch_ppocr_mobile_v2.0_cls_infer.onnx",
            "rec": "ch_PP-OCRv4_rec_infer.onnx"}[args.model]
    hw = {"det": (320, 320), "cls": (48, 192), "rec": (48, 320)}[args.model]
    model = onegrad.onnx.load(os.path.join(SITE, "rapidocr_onnxruntime/models", name))
    inputs = {"x": rng.random((args.batch, 3, *hw), dtype=np.float32)}
for _ in range(3):  # the plain call, the capture, one replay
    model(**inputs)

# DEBUG's lines go to a file, not a pipe: a pipe's buffer (64 KiB) fills before the replays end and
# the writer would wait on a reader that only reads after them.
log = tempfile.TemporaryFile()
saved = os.dup(2)
os.dup2(log.fileno(), 2)
try:
    with settings.override(DEBUG=2):
        for _ in range(args.replays):
            model(**inputs)
finally:
    os.dup2(saved, 2)
log.seek(0)
text = log.read()
lines = [line.split() for line in text.decode().splitlines() if line.startswith("  replay ")]
launches = len(lines) // args.replays
best = [min(float(lines[i + launches * j][2]) for j in range(args.replays)) for i in range(launches)]
by_name = collections.defaultdict(lambda: [0.0, 0])
for i in range(launches):
    by_name[lines[i][1]][0] += best[i]
    by_name[lines[i][1]][1] += 1
print(f"{sum(best):8.3f} ms: the sum of each launch's minimum over {args.replays} replays, {launches} launches")
for name, (ms, count) in sorted(by_name.items(), key=lambda kv: -kv[1][0])[:args.top]:
    print(f"{ms:8.3f} {count:3d} {name}")
