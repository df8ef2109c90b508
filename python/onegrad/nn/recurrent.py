"""torch.nn.RNN, LSTM and GRU (torch 1.13's arguments, parameter names and gate order): the C++
layers of src/nn/recurrent_layers.h (cpp_layer.py), which own the parameters and run
src/nn/recurrent.h's recurrent_forward: each layer and direction projects the whole sequence through
weight_ih in one matmul, then steps through time with weight_hh (the scheduler's fusion cost model
decides where a step's values get buffers). The loop builds one lazy graph over the sequence (realized when the
output is used), and autograd differentiates it like any other.

Parameters per layer k and direction (suffix "_reverse" for the backward one), as torch names
them, so a torch state dict loads by name: weight_ih_lk (G·H, in), weight_hh_lk (G·H, H),
bias_ih_lk, bias_hh_lk (G·H,); LSTM with proj_size adds weight_hr_lk (P, H). G is 4 for LSTM
(gates i, f, g, o), 3 for GRU (r, z, n), 1 for RNN. All start U(±1/√H), as torch's."""

import numbers
import warnings

from .. import _C
from ..tensor import Tensor
from .cpp_layer import CppLayer


class _RNNBase(CppLayer):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None, **extra):
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
        if mode == "LSTM":
            extra["proj_size"] = proj_size
        super().__init__(input_size, hidden_size, num_layers, bias=bool(bias), batch_first=bool(batch_first),
                         dropout=float(dropout), bidirectional=bool(bidirectional), device=device, dtype=dtype,
                         **extra)
        self.mode, self._name = mode, name
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size

    @property
    def _directions(self):
        return 2 if self.bidirectional else 1

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

    def forward(self, input, hx=None):
        if not isinstance(input, Tensor):
            raise TypeError(f"{self._name}: expected a Tensor input, got {type(input).__name__}")
        if self.mode == "LSTM" and hx is not None and (not isinstance(hx, (tuple, list)) or len(hx) != 2):
            raise TypeError(f"LSTM: hx must be a pair (h_0, c_0), got {type(hx).__name__}")
        states = (hx if self.mode == "LSTM" else (hx, None)) if hx is not None else (None, None)
        for what, t in zip(("hx", "cx"), states):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(f"{self._name}: {what} must be a Tensor, got {type(t).__name__}")
        out, h_n, c_n = self._cpp.recurrent_forward(input._t, None if states[0] is None else states[0]._t,
                                                    None if states[1] is None else states[1]._t)
        if c_n is None:
            return Tensor._wrap(out), Tensor._wrap(h_n)
        return Tensor._wrap(out), (Tensor._wrap(h_n), Tensor._wrap(c_n))


class RNN(_RNNBase):
    """h_t = tanh(x_t·W_ihᵀ + b_ih + h_{t−1}·W_hhᵀ + b_hh) (nonlinearity "relu": relu)."""

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None, proj_size=0):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"RNN: Unknown nonlinearity '{nonlinearity}' (tanh or relu)")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, num_layers,
                         bias, batch_first, dropout, bidirectional, proj_size, device, dtype,
                         nonlinearity=nonlinearity)
        self.nonlinearity = nonlinearity


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
