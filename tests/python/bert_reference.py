"""The oracle for onegrad.models' BERT: the same encoder built from torch's own
TransformerEncoderLayer (post-norm, exact GELU: BERT's layer), with its weights read from the
safetensors file by a few lines of numpy here rather than by onegrad's loader, and a numpy
safetensors writer for the small random checkpoints of test_bert.py."""

import json
import struct

import numpy as np
import torch
import torch.nn.functional as TF

_DTYPES = {"F32": np.float32, "I64": np.int64}


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        start, end = entry["data_offsets"]
        out[name] = np.frombuffer(data[start:end], _DTYPES[entry["dtype"]]).reshape(entry["shape"])
    return out


def write_safetensors(path, tensors):
    names = {np.dtype(v): k for k, v in _DTYPES.items()}
    header, offset, blobs = {}, 0, []
    for name, a in tensors.items():
        a = np.ascontiguousarray(a)
        header[name] = {"dtype": names[a.dtype], "shape": list(a.shape), "data_offsets": [offset, offset + a.nbytes]}
        offset += a.nbytes
        blobs.append(a.tobytes())
    text = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def random_checkpoint(rng, vocab, hidden, layers, intermediate, positions=64, types=2):
    """A BertModel state dict (numpy, transformers' names, the pooler included) of random weights."""
    w = lambda *shape: rng.standard_normal(shape).astype(np.float32) * 0.2  # noqa: E731
    state = {"embeddings.word_embeddings.weight": w(vocab, hidden),
             "embeddings.position_embeddings.weight": w(positions, hidden),
             "embeddings.token_type_embeddings.weight": w(types, hidden),
             "embeddings.LayerNorm.weight": 1 + w(hidden), "embeddings.LayerNorm.bias": w(hidden),
             "embeddings.position_ids": np.arange(positions, dtype=np.int64).reshape(1, positions),
             "pooler.dense.weight": w(hidden, hidden), "pooler.dense.bias": w(hidden)}
    for i in range(layers):
        p = f"encoder.layer.{i}."
        for name, out_f, in_f in (("attention.self.query", hidden, hidden), ("attention.self.key", hidden, hidden),
                                  ("attention.self.value", hidden, hidden), ("attention.output.dense", hidden, hidden),
                                  ("intermediate.dense", intermediate, hidden), ("output.dense", hidden, intermediate)):
            state[p + name + ".weight"], state[p + name + ".bias"] = w(out_f, in_f), w(out_f)
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            state[p + norm + ".weight"], state[p + norm + ".bias"] = 1 + w(hidden), w(hidden)
    return state


class TorchBert(torch.nn.Module):
    def __init__(self, state, heads, eps=1e-12):
        super().__init__()
        t = lambda k: torch.from_numpy(np.array(state[k]))  # noqa: E731
        self.word, self.pos, self.type = t("embeddings.word_embeddings.weight"), \
            t("embeddings.position_embeddings.weight"), t("embeddings.token_type_embeddings.weight")
        self.ln = (t("embeddings.LayerNorm.weight"), t("embeddings.LayerNorm.bias"))
        self.eps = eps
        hidden = self.word.shape[1]
        self.layers = torch.nn.ModuleList()
        i = 0
        while f"encoder.layer.{i}.attention.self.query.weight" in state:
            p = f"encoder.layer.{i}."
            inter = state[p + "intermediate.dense.weight"].shape[0]
            layer = torch.nn.TransformerEncoderLayer(hidden, heads, inter, dropout=0.0, activation="gelu",
                                                     layer_norm_eps=eps, batch_first=True)
            qkv = [p + f"attention.self.{n}" for n in ("query", "key", "value")]
            with torch.no_grad():
                layer.self_attn.in_proj_weight.copy_(torch.cat([t(k + ".weight") for k in qkv]))
                layer.self_attn.in_proj_bias.copy_(torch.cat([t(k + ".bias") for k in qkv]))
                for mod, key in ((layer.self_attn.out_proj, "attention.output.dense"),
                                 (layer.norm1, "attention.output.LayerNorm"), (layer.linear1, "intermediate.dense"),
                                 (layer.linear2, "output.dense"), (layer.norm2, "output.LayerNorm")):
                    mod.weight.copy_(t(p + key + ".weight"))
                    mod.bias.copy_(t(p + key + ".bias"))
            self.layers.append(layer)
            i += 1
        self.eval()

    @torch.no_grad()
    def forward(self, ids, mask, types=None):
        ids, mask = torch.from_numpy(ids), torch.from_numpy(mask)
        types = torch.zeros_like(ids) if types is None else torch.from_numpy(types)
        seq = ids.shape[1]
        x = TF.embedding(ids, self.word) + self.pos[:seq] + TF.embedding(types, self.type)
        x = TF.layer_norm(x, (x.shape[-1],), *self.ln, eps=self.eps)
        for layer in self.layers:
            x = layer(x, src_key_padding_mask=mask == 0)
        return x

    @torch.no_grad()
    def sentence_embeddings(self, ids, mask, types=None):
        hidden = self.forward(ids, mask, types)
        # torch's fast path leaves padded rows undefined (zeros or not): only the mask decides
        hidden = torch.where(torch.from_numpy(mask).bool().unsqueeze(-1), hidden, torch.zeros(()))
        m = torch.from_numpy(mask).to(hidden.dtype).unsqueeze(-1)
        pooled = (hidden * m).sum(1) / m.sum(1).clamp(min=1e-9)
        return TF.normalize(pooled, p=2, dim=1).numpy()


def assert_close_relative(actual, expected, rel=1e-4, what=""):
    """|actual - expected| within rel of expected's largest magnitude, everywhere."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} vs {expected.shape}"
    scale = float(np.abs(expected).max())
    err = float(np.abs(actual - expected).max())
    assert err <= rel * scale, f"{what}: max |diff| {err:.3g} > {rel:g} * max |expected| {scale:.3g}"
