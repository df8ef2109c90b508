"""torch.nn.RNN, LSTM and GRU (torch 1.13's arguments, parameter names and gate order). The
modules keep the parameters; the computation is src/nn/recurrent.h's recurrent_forward (through
_C.nn), the one the C++ layers run: each layer and direction projects the whole sequence through
weight_ih in one matmul, then steps through time with weight_hh (the scheduler's fusion cost model
decides where a step's values get buffers). The loop builds one lazy graph over the sequence (realized when the
output is used), and autograd differentiates it like any other.

Parameters per layer k and direction (suffix "_reverse" for the backward one), as torch names
them, so a torch state dict loads by name: weight_ih_lk (G·H, in), weight_hh_lk (G·H, H),
bias_ih_lk, bias_hh_lk (G·H,); LSTM with proj_size adds weight_hr_lk (P, H). G is 4 for LSTM
(gates i, f, g, o), 3 for GRU (r, z, n), 1 for RNN. All start U(±1/√H), as torch's."""

import math
import numbers
import warnings

from .. import _C
from ..tensor import Tensor
from . import init
from .module import Module, Parameter

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}
_KINDS = ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")


class _RNNBase(Module):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        name = "RNN" if mode.startswith("RNN") else mode
        for what, v in (("input_size", input_size), ("hidden_size", hidden_size), ("num_layers", num_layers)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise ValueError(f"{name}: {what} must be a positive integer, got {v!r}")
        if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool):
            raise ValueError(f"{name}: dropout should be a number in range [0, 1] representing the probability of "
                             f"an element being zeroed, got {dropout!r}")
        _C.nn.RecurrentOptions(mode, input_size, hidden_size, num_layers, bool(bias), bool(batch_first),
                               float(dropout), bool(bidirectional), proj_size)  # the value checks, in torch's words
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}")
        self.mode, self._name = mode, name
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        gate_size = _GATES[mode] * hidden_size
        out_size = proj_size or hidden_size
        self._layer_names = []
        for layer in range(num_layers):
            for direction in range(self._directions):
                in_size = input_size if layer == 0 else out_size * self._directions
                suffix = f"_l{layer}" + ("_reverse" if direction else "")
                shapes = [("weight_ih", (gate_size, in_size)), ("weight_hh", (gate_size, out_size))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size:
                    shapes += [("weight_hr", (proj_size, hidden_size))]
                names = {}
                for kind, shape in shapes:
                    setattr(self, kind + suffix, Parameter(Tensor.empty(*shape, dtype=dtype, device=device)))
                    names[kind] = kind + suffix
                self._layer_names.append(names)
        self.reset_parameters()

    @property
    def _directions(self):
        return 2 if self.bidirectional else 1

    def reset_parameters(self):
        bound = 1.0 / math.sqrt(self.hidden_size)
        for p in self.parameters():
            init.uniform_(p, -bound, bound)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if not self.bias:
            s += ", bias=False"
        if self.batch_first:
            s += ", batch_first=True"
        if self.dropout:
            s += f", dropout={self.dropout}"
        if self.bidirectional:
            s += ", bidirectional=True"
        if self.proj_size:
            s += f", proj_size={self.proj_size}"
        return s

    def _options(self):
        return _C.nn.RecurrentOptions(self.mode, self.input_size, self.hidden_size, self.num_layers, bool(self.bias),
                                      bool(self.batch_first), self.dropout, bool(self.bidirectional), self.proj_size)

    def forward(self, input, hx=None):
        if not isinstance(input, Tensor):
            raise TypeError(f"{self._name}: expected a Tensor input, got {type(input).__name__}")
        if self.mode == "LSTM" and hx is not None and (not isinstance(hx, (tuple, list)) or len(hx) != 2):
            raise TypeError(f"LSTM: hx must be a pair (h_0, c_0), got {type(hx).__name__}")
        states = (hx if self.mode == "LSTM" else (hx, None)) if hx is not None else (None, None)
        for what, t in zip(("hx", "cx"), states):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(f"{self._name}: {what} must be a Tensor, got {type(t).__name__}")
        weights = [tuple(None if names.get(k) is None else getattr(self, names[k])._t for k in _KINDS)
                   for names in self._layer_names]
        out, h_n, c_n = _C.nn.recurrent_forward(self._options(), weights, input._t,
                                                None if states[0] is None else states[0]._t,
                                                None if states[1] is None else states[1]._t, self.training)
        if c_n is None:
            return Tensor._wrap(out), Tensor._wrap(h_n)
        return Tensor._wrap(out), (Tensor._wrap(h_n), Tensor._wrap(c_n))


class RNN(_RNNBase):
    """h_t = tanh(x_t·W_ihᵀ + b_ih + h_{t−1}·W_hhᵀ + b_hh) (nonlinearity "relu": relu)."""

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None, proj_size=0):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"RNN: Unknown nonlinearity '{nonlinearity}' (tanh or relu)")
        self.nonlinearity = nonlinearity
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, num_layers,
                         bias, batch_first, dropout, bidirectional, proj_size, device, dtype)


class LSTM(_RNNBase):
    """forward(input, (h_0, c_0)=None) -> output, (h_n, c_n); input (L, N, H_in), (N, L, H_in)
    with batch_first, or unbatched (L, H_in); output (L, N, D·H_out), states (D·layers, N, H)."""

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size, device, dtype)


class GRU(_RNNBase):
    """forward(input, h_0=None) -> output, h_n; shapes as LSTM's."""

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, device=None, dtype=None, proj_size=0):
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size, device, dtype)
