"""torch.nn's recurrent and transformer layers against torch 1.13 (docs/nn.md "Modules"): RNN, LSTM
and GRU over their constructor options, with and without initial states, batched and unbatched;
TransformerEncoderLayer / DecoderLayer (post- and pre-norm, relu/gelu/callable activations,
masks) and the stacks. torch's weights are loaded by name; outputs, final states and the
gradients of inputs, states and every parameter are compared."""

import numpy as np
import pytest
import torch
import torch.nn as tnn
import torch.nn.functional as TF
from test_torch_modules import copy_weights, rand, run_both

from onegrad import Tensor, nn
from onegrad.autograd import no_grad
from onegrad.errors import ShapeError
from onegrad.nn import functional as F


def _flatten(out):
    """(output, h) or (output, (h, c)) as a flat tuple, for run_both."""
    y, state = out
    return (y,) + (tuple(state) if isinstance(state, tuple) else (state,))


RNNS = [
    ("lstm", "LSTM", dict()),
    ("lstm-2layer", "LSTM", dict(num_layers=2)),
    ("lstm-bi", "LSTM", dict(bidirectional=True)),
    ("lstm-2layer-bi-batchfirst", "LSTM", dict(num_layers=2, bidirectional=True, batch_first=True)),
    ("lstm-nobias", "LSTM", dict(bias=False)),
    ("lstm-proj", "LSTM", dict(proj_size=3, num_layers=2)),
    ("gru", "GRU", dict()),
    ("gru-2layer-bi", "GRU", dict(num_layers=2, bidirectional=True)),
    ("gru-batchfirst-nobias", "GRU", dict(batch_first=True, bias=False)),
    ("rnn-tanh", "RNN", dict()),
    ("rnn-relu-bi", "RNN", dict(nonlinearity="relu", bidirectional=True)),
]


@pytest.mark.parametrize("with_state", [False, True], ids=["zero-state", "given-state"])
@pytest.mark.parametrize("name,kind,kw", RNNS, ids=[r[0] for r in RNNS])
def test_recurrent_layers_match_torch(rng, name, kind, kw, with_state):
    theirs = getattr(tnn, kind)(4, 5, **kw)
    ours = getattr(nn, kind)(4, 5, **kw)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    copy_weights(ours, theirs)
    steps, batch = 6, 3
    x = rand(rng, *((batch, steps, 4) if kw.get("batch_first") else (steps, batch, 4)))
    inputs = [x]
    n = kw.get("num_layers", 1) * (2 if kw.get("bidirectional") else 1)
    if with_state:
        inputs.append(rand(rng, n, batch, kw.get("proj_size") or 5))
        if kind == "LSTM":
            inputs.append(rand(rng, n, batch, 5))

    def call(m, x, *state):
        if not state:
            return _flatten(m(x))
        return _flatten(m(x, tuple(state) if len(state) == 2 else state[0]))

    run_both(ours, theirs, inputs, rng, call=call)


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_unbatched_input_and_state(rng, kind):
    theirs, ours = getattr(tnn, kind)(3, 4, num_layers=2), getattr(nn, kind)(3, 4, num_layers=2)
    copy_weights(ours, theirs)
    inputs = [rand(rng, 5, 3), rand(rng, 2, 4)] + ([rand(rng, 2, 4)] if kind == "LSTM" else [])
    run_both(ours, theirs, inputs, rng,
             call=lambda m, x, *s: _flatten(m(x, tuple(s) if len(s) == 2 else s[0])))


def test_dropout_between_layers_only_in_training(rng):
    ours = nn.LSTM(3, 4, num_layers=2, dropout=0.5)
    x = Tensor(rand(rng, 5, 2, 3))
    ours.eval()
    a, b = ours(x)[0].numpy(), ours(x)[0].numpy()
    np.testing.assert_array_equal(a, b)
    theirs = tnn.LSTM(3, 4, num_layers=2, dropout=0.5).eval()
    copy_weights(ours, theirs)
    np.testing.assert_allclose(ours(x)[0].numpy(), theirs(torch.tensor(x.numpy()))[0].detach().numpy(),
                               rtol=1e-5, atol=1e-5)
    ours.train()
    assert not np.allclose(ours(x)[0].numpy(), ours.eval()(x)[0].numpy())


def test_initialisation_range_and_names():
    m = nn.GRU(3, 16, bidirectional=True)
    names = [k for k, _ in m.named_parameters()]
    assert names == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_ih_l0_reverse",
                     "weight_hh_l0_reverse", "bias_ih_l0_reverse", "bias_hh_l0_reverse"]
    assert m.weight_ih_l0.shape == (48, 3) and m.weight_hh_l0_reverse.shape == (48, 16)
    for p in m.parameters():
        assert np.abs(p.numpy()).max() <= 0.25 and p.numpy().std() > 0.05  # U(±1/√16)


def test_recurrent_errors(rng):
    m = nn.LSTM(4, 5, num_layers=2)
    with pytest.raises(ShapeError, match=r"LSTM: input.size\(-1\) must be equal to input_size. Expected 4, got 3"):
        m(Tensor(rand(rng, 2, 1, 3)))
    with pytest.raises(ShapeError, match=r"LSTM: Expected input to be 2-D or 3-D but received 4-D tensor"):
        m(Tensor(rand(rng, 2, 1, 1, 4)))
    with pytest.raises(ShapeError, match=r"LSTM: Expected hx size \(2, 3, 5\), got \[1, 3, 5\]"):
        m(Tensor(rand(rng, 2, 3, 4)), (Tensor(rand(rng, 1, 3, 5)), Tensor(rand(rng, 2, 3, 5))))
    with pytest.raises(ShapeError, match=r"LSTM: For unbatched 2-D input, hx should also be 2-D but got 3-D"):
        m(Tensor(rand(rng, 2, 4)), (Tensor(rand(rng, 2, 1, 5)), Tensor(rand(rng, 2, 1, 5))))
    with pytest.raises(TypeError, match=r"LSTM: hx must be a pair \(h_0, c_0\), got Tensor"):
        m(Tensor(rand(rng, 2, 3, 4)), Tensor(rand(rng, 2, 3, 5)))
    with pytest.raises(ShapeError, match=r"GRU: Expected hx size \(1, 3, 5\), got \[1, 2, 5\]"):
        nn.GRU(4, 5)(Tensor(rand(rng, 2, 3, 4)), Tensor(rand(rng, 1, 2, 5)))
    with pytest.raises(ValueError, match=r"GRU: dropout should be a number in range \[0, 1\]"):
        nn.GRU(4, 5, dropout=1.5)
    with pytest.raises(ValueError, match="LSTM: hidden_size must be a positive integer, got 0"):
        nn.LSTM(4, 0)
    with pytest.raises(ValueError, match=r"LSTM: proj_size \(5\) has to be smaller than hidden_size \(5\)"):
        nn.LSTM(4, 5, proj_size=5)
    with pytest.raises(ValueError, match="GRU: proj_size argument is only supported for LSTM, not RNN or GRU"):
        nn.GRU(4, 5, proj_size=2)
    with pytest.raises(ValueError, match="RNN: Unknown nonlinearity 'gelu'"):
        nn.RNN(4, 5, nonlinearity="gelu")
    with pytest.warns(UserWarning, match="dropout option adds dropout after all but last recurrent layer"):
        nn.LSTM(4, 5, dropout=0.2)


# ---- transformers

def _eval_pair(tf, of):
    theirs, ours = tf().eval(), of().eval()  # dropout off: the outputs are deterministic
    assert list(ours.state_dict()) == list(theirs.state_dict())
    copy_weights(ours, theirs)
    return ours, theirs


ENCODERS = [
    ("post-relu", dict()),
    ("pre-gelu", dict(norm_first=True, activation="gelu")),
    ("batch-first-eps", dict(batch_first=True, layer_norm_eps=1e-3)),
    ("callable-activation", dict(activation="callable")),
    ("module-activation", dict(activation="module")),
]


def _activation_kw(kw, torch_side):
    if kw.get("activation") == "callable":
        return dict(kw, activation=TF.silu if torch_side else F.silu)
    if kw.get("activation") == "module":  # a child module, called back from C++
        return dict(kw, activation=tnn.GELU(approximate="tanh") if torch_side else nn.GELU(approximate="tanh"))
    return kw


@pytest.mark.parametrize("mask", ["none", "bool", "float", "padding"])
@pytest.mark.parametrize("name,kw", ENCODERS, ids=[e[0] for e in ENCODERS])
def test_encoder_layer_matches_torch(rng, name, kw, mask):
    ours, theirs = _eval_pair(lambda: tnn.TransformerEncoderLayer(8, 2, 16, **_activation_kw(kw, True)),
                              lambda: nn.TransformerEncoderLayer(8, 2, 16, **_activation_kw(kw, False)))
    seq, batch = 5, 3
    x = rand(rng, *((batch, seq, 8) if kw.get("batch_first") else (seq, batch, 8)))
    causal = np.triu(np.ones((seq, seq), bool), 1)
    pad = np.zeros((batch, seq), bool)
    pad[1, -2:] = True

    def call(m, x):
        T = Tensor if isinstance(m, nn.Module) else torch.tensor
        if mask == "bool":
            return m(x, src_mask=T(causal))
        if mask == "float":
            return m(x, src_mask=T(np.where(causal, -1e9, 0.0).astype(np.float32)))
        if mask == "padding":
            return m(x, src_key_padding_mask=T(pad))
        return m(x)

    run_both(ours, theirs, [x], rng, call=call)


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("batch_first", [False, True])
def test_decoder_layer_matches_torch(rng, norm_first, batch_first):
    kw = dict(norm_first=norm_first, batch_first=batch_first, activation="gelu")
    ours, theirs = _eval_pair(lambda: tnn.TransformerDecoderLayer(8, 4, 12, **kw),
                              lambda: nn.TransformerDecoderLayer(8, 4, 12, **kw))
    t_len, s_len, batch = 4, 6, 2
    tgt = rand(rng, *((batch, t_len, 8) if batch_first else (t_len, batch, 8)))
    mem = rand(rng, *((batch, s_len, 8) if batch_first else (s_len, batch, 8)))
    causal = np.triu(np.ones((t_len, t_len), bool), 1)
    mem_pad = np.zeros((batch, s_len), bool)
    mem_pad[0, -1] = True

    def call(m, tgt, mem):
        T = Tensor if isinstance(m, nn.Module) else torch.tensor
        return m(tgt, mem, tgt_mask=T(causal), memory_key_padding_mask=T(mem_pad))

    run_both(ours, theirs, [tgt, mem], rng, call=call)


def test_encoder_and_decoder_stacks_match_torch(rng):
    enc_t = tnn.TransformerEncoder(tnn.TransformerEncoderLayer(8, 2, 16), 2, norm=tnn.LayerNorm(8)).eval()
    enc_o = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2, norm=nn.LayerNorm(8)).eval()
    assert list(enc_o.state_dict()) == list(enc_t.state_dict())
    copy_weights(enc_o, enc_t)
    x = rand(rng, 5, 2, 8)
    run_both(enc_o, enc_t, [x], rng)
    dec_t = tnn.TransformerDecoder(tnn.TransformerDecoderLayer(8, 2, 16), 2).eval()
    dec_o = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 2).eval()
    assert list(dec_o.state_dict()) == list(dec_t.state_dict())
    copy_weights(dec_o, dec_t)
    run_both(dec_o, dec_t, [rand(rng, 3, 2, 8), x], rng)


def test_stack_layers_are_independent_copies():
    layer = nn.TransformerEncoderLayer(4, 2, 8)
    enc = nn.TransformerEncoder(layer, 2)
    w0, w1 = enc.layers[0].linear1.weight, enc.layers[1].linear1.weight
    np.testing.assert_array_equal(w0.numpy(), layer.linear1.weight.numpy())  # equal at the start (torch)
    assert len(list(enc.parameters())) == 2 * len(list(layer.parameters()))
    with no_grad():
        w0.assign(w0 * 0)  # written in place: the other copy and the original keep their values
    assert np.abs(w1.numpy()).sum() > 0 and np.abs(layer.linear1.weight.numpy()).sum() > 0


def test_transformer_errors():
    with pytest.raises(ValueError, match="TransformerEncoderLayer: activation should be relu/gelu, not tanh"):
        nn.TransformerEncoderLayer(8, 2, activation="tanh")
    with pytest.raises(ValueError, match=r"MultiheadAttention: embed_dim \(8\) must be divisible by num_heads \(3\)"):
        nn.TransformerDecoderLayer(8, 3)
    with pytest.raises(ValueError, match="TransformerEncoder: num_layers must be a positive integer, got 0"):
        nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2), 0)


def test_transformer_input_errors(rng):
    enc = nn.TransformerEncoderLayer(8, 2, 16)
    with pytest.raises(ShapeError, match=r"TransformerEncoderLayer: src must be 3-D \(batched\) or 2-D \(unbatched\) "
                                         r"with d_model = 8 features last, got shape \(5, 3, 7\)"):
        enc(Tensor(rand(rng, 5, 3, 7)))
    dec = nn.TransformerDecoderLayer(8, 2, 16)
    with pytest.raises(ShapeError, match=r"TransformerDecoderLayer: memory must be 3-D .* got shape \(6, 2, 4\)"):
        dec(Tensor(rand(rng, 4, 2, 8)), Tensor(rand(rng, 6, 2, 4)))
    with pytest.raises(ShapeError, match=r"MultiheadAttention: attn_mask must have shape \(5, 5\) or \(6, 5, 5\), "
                                         r"got \(4, 4\)"):
        enc(Tensor(rand(rng, 5, 3, 8)), src_mask=Tensor(np.zeros((4, 4), bool)))
    with pytest.raises(TypeError, match="TransformerEncoderLayer: activation must be 'relu', 'gelu' or a callable"):
        nn.TransformerEncoderLayer(8, 2, activation=3)


def test_recurrent_state_errors(rng):
    m = nn.LSTM(4, 5)
    x = Tensor(rand(rng, 2, 3, 4))
    with pytest.raises(ShapeError, match=r"LSTM: Expected cx size \(1, 3, 5\), got \[1, 3, 4\]"):
        m(x, (Tensor(rand(rng, 1, 3, 5)), Tensor(rand(rng, 1, 3, 4))))
    with pytest.raises(ShapeError, match=r"GRU: For batched 3-D input, hx should also be 3-D but got 2-D tensor "
                                         r"\(shape \(3, 5\)\)"):
        nn.GRU(4, 5)(x, Tensor(rand(rng, 3, 5)))
    with pytest.raises(TypeError, match="RNN: hx must be a Tensor, got list"):
        nn.RNN(4, 5)(x, [[0.0]])
    with pytest.raises(TypeError, match="LSTM: expected a Tensor input, got ndarray"):
        m(rand(rng, 2, 3, 4))

