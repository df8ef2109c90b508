"""torch.nn.RNN, LSTM and GRU (torch 1.13's arguments, parameter names and gate order), composed
of Tensor ops: each layer and direction projects the whole sequence through weight_ih in one
matmul, then steps through time with weight_hh. The step loop builds one lazy graph over the
sequence (realized when the output is used), and autograd differentiates it like any other.

Parameters per layer k and direction (suffix "_reverse" for the backward one), as torch names
them, so a torch state dict loads by name: weight_ih_lk (G·H, in), weight_hh_lk (G·H, H),
bias_ih_lk, bias_hh_lk (G·H,); LSTM with proj_size adds weight_hr_lk (P, H). G is 4 for LSTM
(gates i, f, g, o), 3 for GRU (r, z, n), 1 for RNN. All start U(±1/√H), as torch's."""

import math
import numbers
import warnings

from ..errors import ShapeError
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module, Parameter

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


class _RNNBase(Module):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        name = "RNN" if mode.startswith("RNN") else mode
        for what, v in (("input_size", input_size), ("hidden_size", hidden_size), ("num_layers", num_layers)):
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"{name}: {what} must be a positive integer, got {v!r}")
        if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or not 0 <= dropout <= 1:
            raise ValueError(f"{name}: dropout should be a number in range [0, 1] representing the probability of "
                             f"an element being zeroed, got {dropout!r}")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}")
        if proj_size < 0:
            raise ValueError(f"{name}: proj_size should be a positive integer or zero to disable projections")
        if proj_size and mode != "LSTM":
            raise ValueError(f"{name}: proj_size argument is only supported for LSTM, not RNN or GRU")
        if proj_size >= hidden_size:
            raise ValueError(f"{name}: proj_size ({proj_size}) has to be smaller than hidden_size ({hidden_size})")
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

    # ---- checks, with torch's wording

    def _check_input(self, input):
        if not isinstance(input, Tensor):
            raise TypeError(f"{self._name}: expected a Tensor input, got {type(input).__name__}")
        if input.ndim not in (2, 3):
            raise ShapeError(f"{self._name}: Expected input to be 2-D or 3-D but received {input.ndim}-D tensor "
                             f"(shape {input.shape})")
        if input.shape[-1] != self.input_size:
            raise ShapeError(f"{self._name}: input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                             f"got {input.shape[-1]}")

    def _check_state(self, what, t, batched, expected):
        """A given initial state: 3-D for a batched input, 2-D for an unbatched one, then
        (layers·directions, N, size)."""
        if not isinstance(t, Tensor):
            raise TypeError(f"{self._name}: {what} must be a Tensor, got {type(t).__name__}")
        want = 3 if batched else 2
        if t.ndim != want:
            kind = "batched 3-D" if batched else "unbatched 2-D"
            raise ShapeError(f"{self._name}: For {kind} input, {what} should also be {want}-D but got {t.ndim}-D "
                             f"tensor (shape {t.shape})")
        t = t if batched else t.unsqueeze(1)
        if tuple(t.shape) != expected:
            raise ShapeError(f"{self._name}: Expected {what} size {expected}, got {list(t.shape)}")
        return t

    # ---- the recurrence

    def _cell(self, names, x_proj, state):
        """One time step: x_proj = x·W_ihᵀ + b_ih for this step; state = h, or (h, c) for LSTM."""
        w_hh = getattr(self, names["weight_hh"])
        b_hh = getattr(self, names["bias_hh"]) if self.bias else None
        h = state[0] if self.mode == "LSTM" else state
        h_proj = F.linear(h, w_hh, b_hh)
        if self.mode == "LSTM":
            i, f, g, o = (x_proj + h_proj).chunk(4, dim=-1)
            c = f.sigmoid() * state[1] + i.sigmoid() * g.tanh()
            h = o.sigmoid() * c.tanh()
            if self.proj_size:
                h = F.linear(h, getattr(self, names["weight_hr"]))
            return h, (h, c)
        if self.mode == "GRU":
            xr, xz, xn = x_proj.chunk(3, dim=-1)
            hr, hz, hn = h_proj.chunk(3, dim=-1)
            r, z = (xr + hr).sigmoid(), (xz + hz).sigmoid()
            n = (xn + r * hn).tanh()
            h = (1 - z) * n + z * h
            return h, h
        pre = x_proj + h_proj
        h = pre.tanh() if self.mode == "RNN_TANH" else pre.relu()
        return h, h

    def _run(self, input, hx):
        self._check_input(input)
        batched = input.ndim == 3
        x = input if batched else input.unsqueeze(1 if not self.batch_first else 0)
        if self.batch_first:
            x = x.transpose(0, 1)  # time first inside
        steps, batch = x.shape[0], x.shape[1]
        n_states = self.num_layers * self._directions
        out_size = self.proj_size or self.hidden_size
        h_shape = (n_states, batch, out_size)
        c_shape = (n_states, batch, self.hidden_size)
        if self.mode == "LSTM":
            if hx is None:
                h0 = Tensor.zeros(*h_shape, dtype=x.dtype, device=x.device)
                c0 = Tensor.zeros(*c_shape, dtype=x.dtype, device=x.device)
            else:
                if not isinstance(hx, (tuple, list)) or len(hx) != 2:
                    raise TypeError(f"LSTM: hx must be a pair (h_0, c_0), got {type(hx).__name__}")
                h0 = self._check_state("hx", hx[0], batched, h_shape)
                c0 = self._check_state("cx", hx[1], batched, c_shape)
        else:
            h0 = Tensor.zeros(*h_shape, dtype=x.dtype, device=x.device) if hx is None else \
                self._check_state("hx", hx, batched, h_shape)
        h_out, c_out = [], []
        layer_input = x
        for layer in range(self.num_layers):
            outs = []
            for direction in range(self._directions):
                k = layer * self._directions + direction
                names = self._layer_names[k]
                b_ih = getattr(self, names["bias_ih"]) if self.bias else None
                x_proj = F.linear(layer_input, getattr(self, names["weight_ih"]), b_ih)  # all steps at once
                state = (h0[k], c0[k]) if self.mode == "LSTM" else h0[k]
                order = range(steps - 1, -1, -1) if direction else range(steps)
                ys = [None] * steps
                for t in order:
                    ys[t], state = self._cell(names, x_proj[t], state)
                outs.append(Tensor.stack(ys, dim=0) if steps else Tensor.zeros(0, batch, out_size, dtype=x.dtype))
                if self.mode == "LSTM":
                    h_out.append(state[0])
                    c_out.append(state[1])
                else:
                    h_out.append(state)
            layer_input = outs[0] if len(outs) == 1 else Tensor.cat(outs, dim=-1)
            if self.dropout and self.training and layer + 1 < self.num_layers:
                layer_input = F.dropout(layer_input, self.dropout, True)
        output = layer_input.transpose(0, 1) if self.batch_first else layer_input
        h_n = Tensor.stack(h_out, dim=0)
        c_n = Tensor.stack(c_out, dim=0) if self.mode == "LSTM" else None
        if not batched:
            output = output.squeeze(0 if self.batch_first else 1)
            h_n = h_n.squeeze(1)
            c_n = None if c_n is None else c_n.squeeze(1)
        return output, (h_n if c_n is None else (h_n, c_n))

    def forward(self, input, hx=None):
        return self._run(input, hx)


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
