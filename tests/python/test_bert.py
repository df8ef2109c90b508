"""onegrad.models.BertModel on small random checkpoints (written by numpy, read by onegrad's
safetensors loader) against the same encoder built from torch's TransformerEncoderLayer, and its
load and input errors. The real MiniLM weights are test_minilm.py's."""

import json

import numpy as np
import pytest

from bert_reference import TorchBert, assert_close_relative, random_checkpoint, write_safetensors
from onegrad import Tensor
from onegrad.errors import ArgumentError, DTypeError, IndexError, StateDictError
from onegrad.models import BertConfig, BertModel, mean_pool
from onegrad.nn import functional as F

SMALL = dict(vocab_size=40, hidden_size=16, num_hidden_layers=2, num_attention_heads=4, intermediate_size=24,
             max_position_embeddings=12)


def _small(rng, tmp_path, edit=None):
    state = random_checkpoint(rng, 40, 16, 2, 24, positions=12)
    if edit:
        edit(state)
    path = tmp_path / "model.safetensors"
    write_safetensors(path, state)
    return state, path


def _batch(rng):
    lengths = [9, 5, 1]
    ids = rng.integers(1, 40, size=(3, 9)).astype(np.int64)
    mask = (np.arange(9)[None, :] < np.array(lengths)[:, None]).astype(np.int64)
    ids[mask == 0] = 0
    types = (rng.random((3, 9)) < 0.5).astype(np.int64) * mask
    return ids, mask, types


def test_hidden_states_and_pooled_embeddings_match_torch_on_a_padded_batch(rng, tmp_path):
    state, path = _small(rng, tmp_path)
    model = BertModel(BertConfig(**SMALL)).load_safetensors(path)
    ref = TorchBert(state, heads=4)
    ids, mask, types = _batch(rng)
    ours = model(Tensor(ids), Tensor(mask), Tensor(types)).numpy()
    theirs = ref(ids, mask, types).numpy()
    valid = mask.astype(bool)
    assert_close_relative(ours[valid], theirs[valid], what="hidden states at unpadded tokens")
    pooled = F.normalize(mean_pool(Tensor(ours), Tensor(mask)), p=2, dim=1).numpy()
    assert_close_relative(pooled, ref.sentence_embeddings(ids, mask, types), what="pooled and normalized")


def test_a_sentence_alone_embeds_as_it_does_padded_in_a_batch(rng, tmp_path):
    _, path = _small(rng, tmp_path)
    model = BertModel(BertConfig(**SMALL)).load_safetensors(path)
    ids, mask, _ = _batch(rng)
    batched = model(Tensor(ids), Tensor(mask)).numpy()
    alone = model(Tensor(ids[1:2, :5]), Tensor(mask[1:2, :5])).numpy()
    assert_close_relative(alone[0], batched[1, :5], what="row 1 alone vs in the batch")


def test_a_checkpoint_saved_under_a_bert_prefix_loads(rng, tmp_path):
    state, _ = _small(rng, tmp_path)
    path = tmp_path / "prefixed.safetensors"
    write_safetensors(path, {"bert." + k: v for k, v in state.items()})
    model = BertModel(BertConfig(**SMALL)).load_safetensors(path)
    np.testing.assert_array_equal(model.encoder.layer[1].output.dense.bias.numpy(),
                                  state["encoder.layer.1.output.dense.bias"])


def test_a_missing_weight_is_a_state_dict_error_naming_it_and_the_file(rng, tmp_path):
    _, path = _small(rng, tmp_path, lambda s: s.pop("encoder.layer.1.attention.self.key.weight"))
    with pytest.raises(StateDictError) as e:
        BertModel(BertConfig(**SMALL)).load_safetensors(path)
    assert 'Missing key(s) in state_dict: "encoder.layer.1.attention.self.key.weight"' in str(e.value)
    assert str(path) in str(e.value)


def test_a_weight_of_the_wrong_shape_is_a_state_dict_error_naming_it_and_both_shapes(rng, tmp_path):
    def shrink(s):
        s["encoder.layer.0.intermediate.dense.weight"] = s["encoder.layer.0.intermediate.dense.weight"][:20]
    _, path = _small(rng, tmp_path, shrink)
    model = BertModel(BertConfig(**SMALL))
    before = model.encoder.layer[0].intermediate.dense.weight.numpy()
    with pytest.raises(StateDictError) as e:
        model.load_safetensors(path)
    assert ("size mismatch for encoder.layer.0.intermediate.dense.weight: copying a param with shape "
            "(20, 16) from checkpoint, the shape in current model is (24, 16)") in str(e.value)
    # checked before anything is written
    np.testing.assert_array_equal(model.encoder.layer[0].intermediate.dense.weight.numpy(), before)


def test_an_entry_the_model_does_not_have_is_a_state_dict_error_naming_it(rng, tmp_path):
    _, path = _small(rng, tmp_path, lambda s: s.update({"encoder.layer.2.output.dense.bias": np.zeros(16, np.float32)}))
    with pytest.raises(StateDictError, match=r'Unexpected key\(s\) in state_dict: "encoder.layer.2.output.dense.bias"'):
        BertModel(BertConfig(**SMALL)).load_safetensors(path)


def test_bad_inputs_are_typed_errors_naming_the_shapes_and_values():
    model = BertModel(BertConfig(**SMALL))
    with pytest.raises(ArgumentError, match=r"BertModel: input_ids must be \[batch, seq\], got shape \(5,\)"):
        model(np.arange(5))
    with pytest.raises(ArgumentError, match=r"BertModel: attention_mask has shape \(2, 4\), input_ids \(2, 5\)"):
        model(np.ones((2, 5), np.int64), np.ones((2, 4), np.int64))
    with pytest.raises(ArgumentError, match="BertEmbeddings: sequence of 13 tokens is longer than "
                                            "max_position_embeddings 12"):
        model(np.ones((1, 13), np.int64))
    with pytest.raises(IndexError, match="embedding: index 40 is out of bounds for dimension 0 with size 40"):
        model(np.array([[1, 40]])).numpy()
    with pytest.raises(IndexError, match="embedding: index 2 is out of bounds for dimension 0 with size 2"):
        model(np.array([[1, 4]]), token_type_ids=np.array([[0, 2]])).numpy()
    with pytest.raises(DTypeError, match="Embedding: indices must be integers, got float64"):
        model(np.array([[1.5, 4.0]]))


def test_config_from_json_reads_transformers_names_and_refuses_what_it_cannot_run(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**SMALL, "model_type": "bert", "hidden_dropout_prob": 0.1}))
    assert BertConfig.from_json(path) == BertConfig(**SMALL)
    path.write_text(json.dumps({**SMALL, "position_embedding_type": "relative_key"}))
    with pytest.raises(ArgumentError, match="position_embedding_type 'relative_key' is not supported"):
        BertConfig.from_json(path)
    path.write_text(json.dumps({**SMALL, "hidden_act": "relu"}))
    with pytest.raises(ArgumentError, match="hidden_act 'relu' is not supported"):
        BertConfig.from_json(path)
