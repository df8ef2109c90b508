"""BERT's encoder (the architecture of Hugging Face's BertModel, config.json's names and defaults),
written with onegrad.nn. Submodules carry BertModel's names (embeddings.word_embeddings,
encoder.layer.N.attention.self.query, ...) so a checkpoint's state dict loads by name; the pooler
is left out (sentence encoders pool the token states themselves). docs/models.md."""

import json
import math
import os
from dataclasses import dataclass, fields

from .. import nn
from ..errors import ArgumentError, StateDictError
from ..nn import functional as F
from ..safetensors import load_file
from ..tensor import Tensor


@dataclass
class BertConfig:
    vocab_size: int = 30522
    hidden_size: int = 768
    num_hidden_layers: int = 12
    num_attention_heads: int = 12
    intermediate_size: int = 3072
    hidden_act: str = "gelu"
    max_position_embeddings: int = 512
    type_vocab_size: int = 2
    layer_norm_eps: float = 1e-12

    @classmethod
    def from_json(cls, path):
        """config.json as written by transformers; keys BertModel's inference does not read are ignored."""
        with open(path) as f:
            raw = json.load(f)
        known = {f.name for f in fields(cls)}
        config = cls(**{k: v for k, v in raw.items() if k in known})
        if raw.get("position_embedding_type", "absolute") != "absolute":
            raise ArgumentError(f"BertConfig: {path}: position_embedding_type "
                                f"{raw['position_embedding_type']!r} is not supported (only 'absolute')")
        if config.hidden_act != "gelu":
            raise ArgumentError(f"BertConfig: {path}: hidden_act {config.hidden_act!r} is not supported (only 'gelu')")
        if config.hidden_size % config.num_attention_heads:
            raise ArgumentError(f"BertConfig: {path}: hidden_size {config.hidden_size} is not a multiple of "
                                f"num_attention_heads {config.num_attention_heads}")
        return config


class BertEmbeddings(nn.Module):
    """Word + absolute position + token type embeddings, then LayerNorm (dropout is a no-op at inference)."""

    def __init__(self, c):
        super().__init__()
        self.word_embeddings = nn.Embedding(c.vocab_size, c.hidden_size)
        self.position_embeddings = nn.Embedding(c.max_position_embeddings, c.hidden_size)
        self.token_type_embeddings = nn.Embedding(c.type_vocab_size, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)

    def forward(self, input_ids, token_type_ids):
        seq = input_ids.shape[1]
        limit = self.position_embeddings.num_embeddings
        if seq > limit:
            raise ArgumentError(f"BertEmbeddings: sequence of {seq} tokens is longer than max_position_embeddings {limit}")
        positions = Tensor.arange(seq).reshape(1, seq)
        x = self.word_embeddings(input_ids) + self.position_embeddings(positions) + \
            self.token_type_embeddings(token_type_ids)
        return self.LayerNorm(x)


class BertSelfAttention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.heads = c.num_attention_heads
        self.head_dim = c.hidden_size // c.num_attention_heads
        self.query = nn.Linear(c.hidden_size, c.hidden_size)
        self.key = nn.Linear(c.hidden_size, c.hidden_size)
        self.value = nn.Linear(c.hidden_size, c.hidden_size)

    def _split(self, x):
        b, s, _ = x.shape
        return x.reshape(b, s, self.heads, self.head_dim).permute(0, 2, 1, 3)

    def forward(self, x, mask_bias):
        """x [batch, seq, hidden]; mask_bias [batch, 1, 1, seq]: 0 where a key may be attended, -inf at padding."""
        q, k, v = self._split(self.query(x)), self._split(self.key(x)), self._split(self.value(x))
        scores = q.matmul(k.transpose(-1, -2)) * (1.0 / math.sqrt(self.head_dim)) + mask_bias
        context = scores.softmax(-1).matmul(v)
        b, _, s, _ = context.shape
        return context.permute(0, 2, 1, 3).reshape(b, s, self.heads * self.head_dim)


class _DenseNorm(nn.Module):
    """dense -> residual add -> LayerNorm: BertSelfOutput and BertOutput."""

    def __init__(self, c, in_features):
        super().__init__()
        self.dense = nn.Linear(in_features, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)

    def forward(self, x, residual):
        # realized: fused into the next matmul, LayerNorm's mean and variance were recomputed for
        # each of its output columns (docs/models.md "Speed")
        return self.LayerNorm(self.dense(x) + residual).realize()


class BertAttention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.self = BertSelfAttention(c)  # the checkpoint's name (attention.self.query, ...)
        self.output = _DenseNorm(c, c.hidden_size)

    def forward(self, x, mask_bias):
        return self.output(self.self(x, mask_bias), x)


class BertIntermediate(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.intermediate_size)

    def forward(self, x):
        # Both realizes are for speed (docs/models.md "Speed"): GELU fused as the matmul's epilogue
        # ran 5x slower than the matmul alone, and fused into the next matmul's loads it was
        # recomputed for each of that matmul's output columns.
        return F.gelu(self.dense(x).realize()).realize()


class BertLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.attention = BertAttention(c)
        self.intermediate = BertIntermediate(c)
        self.output = _DenseNorm(c, c.intermediate_size)

    def forward(self, x, mask_bias):
        a = self.attention(x, mask_bias)
        return self.output(self.intermediate(a), a)


class BertEncoder(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.layer = nn.ModuleList([BertLayer(c) for _ in range(c.num_hidden_layers)])

    def forward(self, x, mask_bias):
        # Each layer's output is realized (by its last LayerNorm): the scheduler's work on one graph
        # grows faster than its depth, and per layer it schedules N graphs of one shape.
        for layer in self.layer:
            x = layer(x, mask_bias)
        return x


# Entries of a BertModel checkpoint that inference does not read: the pooler (a tanh layer over
# [CLS] for next-sentence prediction) and the position-id buffer (always arange).
UNUSED_CHECKPOINT_KEYS = ("embeddings.position_ids", "pooler.dense.weight", "pooler.dense.bias")


class BertModel(nn.Module):
    """forward(input_ids, attention_mask=None, token_type_ids=None) -> last hidden states
    [batch, seq, hidden]. input_ids int [batch, seq]; attention_mask 1 for tokens, 0 for padding."""

    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embeddings = BertEmbeddings(config)
        self.encoder = BertEncoder(config)

    def forward(self, input_ids, attention_mask=None, token_type_ids=None):
        input_ids = _int_tensor(input_ids)
        if input_ids.ndim != 2:
            raise ArgumentError(f"BertModel: input_ids must be [batch, seq], got shape {tuple(input_ids.shape)}")
        mask = Tensor.ones(*input_ids.shape) if attention_mask is None else _int_tensor(attention_mask)
        token_type_ids = Tensor.zeros_like(input_ids) if token_type_ids is None else _int_tensor(token_type_ids)
        for name, t in (("attention_mask", mask), ("token_type_ids", token_type_ids)):
            if tuple(t.shape) != tuple(input_ids.shape):
                raise ArgumentError(f"BertModel: {name} has shape {tuple(t.shape)}, input_ids {tuple(input_ids.shape)}")
        b, s = input_ids.shape
        mask_bias = (mask.reshape(b, 1, 1, s) != 0).where(0.0, float("-inf"))
        return self.encoder(self.embeddings(input_ids, token_type_ids), mask_bias)

    def load_safetensors(self, path):
        """Loads the weights by name from a BertModel safetensors file (as transformers saves it, with or
        without a leading "bert." prefix). A missing or misshapen weight raises StateDictError naming it;
        an entry that is neither a weight here nor in UNUSED_CHECKPOINT_KEYS raises too."""
        state = load_file(path)
        if state and all(k.startswith("bert.") for k in state):
            state = {k[len("bert."):]: v for k, v in state.items()}
        state = {k: v for k, v in state.items() if k not in UNUSED_CHECKPOINT_KEYS}
        try:
            self.load_state_dict(state)
        except StateDictError as e:
            raise StateDictError(f"{os.fspath(path)}: {e}") from None
        return self


def _int_tensor(x):
    return x if isinstance(x, Tensor) else Tensor(x)
