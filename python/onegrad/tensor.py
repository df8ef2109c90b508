"""onegrad.Tensor: the Python face of the lazy C++ Tensor (src/tensor/tensor.h).

Every method builds graph; nothing runs until realize(), numpy(), tolist() or item(). The C++
object is held in `_t` (an onegrad._C.Tensor); this class adds what is Pythonic: operators with
Python numbers on either side, dtype inference, numpy in and out, flexible argument forms
(`reshape(2, 3)` or `reshape((2, 3))`). Shape and dtype checks happen in C++, so error messages
are the same from both languages.
"""

import collections  # reductions/losses
import math
import operator  # reductions/losses

import numpy as np

from . import _C
from . import symbolic as _symbolic  # Variable dims: shape and reshape
from . import tensor_copy as _tensor_copy
from ._convert import (_NO_DIM, axis_arg, c_contiguous, data_dtype, index_items, infer_dtype, int_list, is_scalar, py_scalar,
                       shape_args, to_numpy)
from .dtype import DType, dtypes, from_name, to_dtype
from .errors import DeviceError, IndexShapeError, ShapeError, ValueRangeError


def _device(device) -> str:
    """The named device, or the default one (onegrad.Device.DEFAULT; DEV=CL in the environment)."""
    return _C.default_device() if device is None else str(device)


def _axes(axis) -> list:
    """A reduction's axis argument as C++ takes it: None -> [] (all axes), int -> [int]."""
    if axis is None:
        return []
    if isinstance(axis, (tuple, list)):
        return int_list(axis, "axis")
    return int_list((axis,), "axis")


class Tensor:
    __slots__ = ("_t",)
    # __eq__ builds a Tensor instead of answering, so hashing is by identity (as in tinygrad):
    # tensors can still be dict keys and set members.
    __hash__ = object.__hash__
    # numpy defers to our reflected operators (np_array + tensor -> Tensor.__radd__).
    __array_ufunc__ = None

    def __init__(self, data, dtype=None, device=None, requires_grad=False):
        """Tensor(numpy_array), Tensor([[1, 2], [3, 4]]), Tensor(3.5), Tensor(other_tensor).

        Python data infers its dtype like torch but with tinygrad's defaults: floats -> float32,
        ints -> int32 (dtypes.default_int; an int that does not fit raises OverflowError instead
        of wrapping), bools -> bool. numpy data keeps its dtype unless `dtype` is given.
        """
        dt = None if dtype is None else to_dtype(dtype)
        dev = _device(device)
        if isinstance(data, Tensor):
            # A new handle on the same C++ tensor (torch would copy): a setitem through one is seen
            # through the other. Another device: a copy onto it (to()).
            t = data._t
            if device is not None and _canonical_device(dev) != data.device:
                t = _C.to_device(t, dev)
            self._t = t if dt is None or dt == from_name(t.dtype) else t.cast(dt.name)
            return
        if isinstance(data, np.generic):
            data = np.asarray(data)  # a numpy scalar keeps its dtype, like a 0-d array
        if isinstance(data, np.ndarray):
            self._t = _from_numpy(data, dt, dev)
        elif is_scalar(data):
            # A constant node, not a buffer: it folds into the kernels that use it.
            target = data_dtype(data, dt)
            self._t = _C.Tensor.scalar(_rounded(py_scalar(data), target), target.name, dev)
        elif isinstance(data, (list, tuple)):
            target = data_dtype(data, dt)
            self._t = _from_numpy(to_numpy(data, target), target, dev)
        elif hasattr(data, "__dlpack__"):  # a torch (or other DLPack) tensor: copied, as torch.tensor
            self._t = _torch_api.from_dlpack_object(data, dt, dev)
        else:
            raise TypeError(f"Tensor: cannot make a tensor from {type(data).__name__}")
        if requires_grad:
            self._t.requires_grad_(True)

    @classmethod
    def _wrap(cls, t) -> "Tensor":
        out = cls.__new__(cls)
        out._t = t
        return out

    # copy.deepcopy and pickle (onegrad/tensor_copy.py): a new buffer with the same values
    def __deepcopy__(self, memo):
        return _tensor_copy.deepcopy(self, memo)

    def __reduce_ex__(self, protocol):
        return _tensor_copy.reduce(self)

    @classmethod
    def _coerce(cls, x, dtype=None, device=None) -> "Tensor":
        """x itself when it is a Tensor (never cast or moved), else Tensor(x, dtype, device): an
        operand given as numbers, a list or an array."""
        return x if isinstance(x, Tensor) else cls(x, dtype=dtype, device=device)

    # ---- creation

    @staticmethod
    def empty(*shape, dtype=None, device=None) -> "Tensor":
        if (dims := _symbolic.bound_shape(shape)) is not None:  # a Variable's bound value as a dim
            return Tensor.zeros(dims, dtype=dtype, device=device)
        return Tensor._wrap(_C.Tensor.empty(_shape_or_empty(shape), to_dtype(dtype or dtypes.default_float).name,
                                            _device(device)))

    @staticmethod
    def zeros(*shape, dtype=None, device=None) -> "Tensor":
        if (dims := _symbolic.bound_shape(shape)) is not None:
            return Tensor.full(dims, 0, dtype=dtype or dtypes.default_float, device=device)
        return Tensor._wrap(_C.Tensor.zeros(_shape_or_empty(shape), to_dtype(dtype or dtypes.default_float).name,
                                            _device(device)))

    @staticmethod
    def ones(*shape, dtype=None, device=None) -> "Tensor":
        if (dims := _symbolic.bound_shape(shape)) is not None:
            return Tensor.full(dims, 1, dtype=dtype or dtypes.default_float, device=device)
        return Tensor._wrap(_C.Tensor.ones(_shape_or_empty(shape), to_dtype(dtype or dtypes.default_float).name,
                                           _device(device)))

    @staticmethod
    def full(shape, fill_value, dtype=None, device=None) -> "Tensor":
        """dtype defaults to the value's own (int32, or int64 past int32; float32; bool), as torch.full.
        A value that does not fit the dtype raises ValueRangeError (as torch)."""
        if (dims := _symbolic.bound_shape((shape,) if isinstance(shape, int) else shape)) is not None:
            dt = to_dtype(dtype) if dtype is not None else infer_dtype(fill_value)
            return Tensor._wrap(_symbolic.full(dims, py_scalar(fill_value), dt.name, _device(device)))
        shape = int_list(shape, "full") if isinstance(shape, (tuple, list)) else int_list((shape,), "full")
        dt = to_dtype(dtype) if dtype is not None else infer_dtype(fill_value)
        return Tensor._wrap(_C.Tensor.full(shape, py_scalar(fill_value), dt.name, _device(device)))

    @staticmethod
    def arange(start, stop=None, step=1, dtype=None, device=None) -> "Tensor":
        """[start, stop) by step. All-int arguments give int32 (tinygrad's default_int), or int64 when
        a value does not fit int32 (as torch); any float argument gives float32, computed as
        start + i*step like numpy. A value that does not fit the dtype raises ValueRangeError."""
        if stop is None:
            start, stop = 0, start
        if _symbolic.has_bound(start, (stop, step)):  # one graph for every value, where it can be
            dt = to_dtype(dtype) if dtype is not None else dtypes.default_int
            t = _symbolic.arange(start, stop, step, dt.name, _device(device))
            if t is not None:
                return Tensor._wrap(t) * int(step) + int(start) if (step, start) != (1, 0) else Tensor._wrap(t)
        ints = all(isinstance(v, int) or isinstance(v, np.integer) for v in (start, stop, step))
        dt = to_dtype(dtype) if dtype is not None else (None if ints else dtypes.default_float)
        dev = _device(device)
        if ints:
            start, stop, step = int(start), int(stop), int(step)
            for v in (start, stop, step):
                if not -(2**63) <= v < 2**63:
                    raise ValueRangeError(f"arange: the value {v} does not fit int64")
            if dt is None:
                last = start + (max(0, -((start - stop) // step)) - 1) * step if step else start
                dt = dtypes.default_int if -(2**31) <= min(start, last) and max(start, last) < 2**31 else dtypes.int64
            return Tensor._wrap(_C.Tensor.arange(start, stop, step, dt.name, dev))
        if step == 0:
            raise ShapeError("arange: step must not be zero")
        n = max(0, math.ceil((stop - start) / step))
        idx = Tensor._wrap(_C.Tensor.arange(0, n, 1, dtypes.default_int.name, dev))
        return (idx.cast(dtypes.float64 if dt == dtypes.float64 else dtypes.float32) * step + start).cast(dt)

    @staticmethod
    def zeros_like(t: "Tensor", dtype=None) -> "Tensor":
        return Tensor.zeros(t.shape, dtype=dtype or t.dtype, device=t.device)

    @staticmethod
    def ones_like(t: "Tensor", dtype=None) -> "Tensor":
        return Tensor.ones(t.shape, dtype=dtype or t.dtype, device=t.device)

    @staticmethod
    def full_like(t: "Tensor", fill_value, dtype=None) -> "Tensor":
        return Tensor.full(t.shape, fill_value, dtype=dtype or t.dtype, device=t.device)

    # ---- what it is

    @property
    def shape(self) -> tuple:
        if _C.has_symbolic_dim(self._t):  # symbolic dims come back as BoundDims (symbolic.py)
            return _symbolic.shape_of(self._t)
        return tuple(self._t.shape)

    @property
    def dtype(self) -> DType:
        return from_name(self._t.dtype)

    @property
    def device(self) -> str:
        return self._t.device

    @property
    def ndim(self) -> int:
        return self._t.ndim

    def numel(self) -> int:
        return self._t.numel

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self):
        # Explicit, so iteration stops at len() instead of probing for IndexError.
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        """As torch prints it (onegrad/_print.py), realizing only the elements shown."""
        from ._print import tensor_repr
        return tensor_repr(self)

    __str__ = __repr__

    def __bool__(self) -> bool:
        # As numpy: only a single element has a truth value.
        if self.numel() != 1:
            raise ValueError(f"the truth value of a tensor with {self.numel()} elements is ambiguous "
                             "(use .any() or .all() via .numpy())")
        return bool(self.item())

    # ---- out of the graph

    def realize(self) -> "Tensor":
        """Runs the kernels computing this tensor; the handle then points at the result."""
        self._t.realize()
        return self

    @staticmethod
    def realize_all(*tensors: "Tensor") -> None:
        """Realizes several tensors together (one schedule: shared work is done once)."""
        _C.Tensor.realize_all([t._t for t in tensors])

    def numpy(self) -> np.ndarray:
        """The values as a new numpy array of this shape. bfloat16 comes back as float32 (numpy
        has no bfloat16; the conversion is exact)."""
        if self.dtype == dtypes.bfloat16:
            raw = np.empty(self.shape, dtype=np.uint16)
            self._t.copy_out(raw)
            # bfloat16 is the top half of a float32. In place, so a 0-d array stays an array
            # (a 0-d `x << 16` would come back as an int64 scalar).
            bits = raw.astype(np.uint32)
            bits <<= np.uint32(16)
            return bits.view(np.float32)
        out = np.empty(self.shape, dtype=self.dtype.np)
        self._t.copy_out(out)
        return out

    def __array__(self, dtype=None):
        """np.asarray(t) and np.array(t): the values (numpy(), cast when numpy asks for a dtype)."""
        out = self.numpy()
        return out if dtype is None else out.astype(dtype)

    def tolist(self):
        return self.numpy().tolist()

    def item(self):
        if self.numel() != 1:
            raise ShapeError(f"item: a tensor of shape {self.shape} has {self.numel()} elements, not 1")
        return self.numpy().item()

    def __int__(self) -> int:
        return int(self.item())

    def __float__(self) -> float:
        return float(self.item())

    def contiguous(self) -> "Tensor":
        return Tensor._wrap(self._t.contiguous())

    # ---- autograd (docs/autograd.md)

    @property
    def requires_grad(self) -> bool:
        """True for a leaf marked with requires_grad_() and for values computed from one."""
        return self._t.requires_grad

    @requires_grad.setter
    def requires_grad(self, on):
        self._t.requires_grad_(bool(on))

    def requires_grad_(self, requires_grad=True) -> "Tensor":
        """Marks this tensor as a leaf whose .grad backward() fills (floats only); realizes it."""
        self._t.requires_grad_(bool(requires_grad))
        return self

    @property
    def grad(self):
        """The accumulated gradient of a leaf (a realized Tensor), or None before backward()."""
        g = self._t.grad
        return None if g is None else Tensor._wrap(g)

    @grad.setter
    def grad(self, g):
        self._t.set_grad(None if g is None else Tensor._coerce(g, device=self.device)._t)

    def backward(self, gradient=None, *, realize_with=()) -> None:
        """Adds d(self)/d(leaf) into .grad of every leaf this tensor is computed from.
        realize_with: other tensors to realize in the same schedule (onegrad's extension: an accuracy
        count that reads the same logits as the loss shares their forward pass instead of running it
        again)."""
        if gradient is not None:
            gradient = Tensor._coerce(gradient, self.dtype, self.device)
        for t in realize_with:
            if not isinstance(t, Tensor):
                raise TypeError(f"backward: realize_with takes Tensors, got {type(t).__name__}")
        self._t.backward(None if gradient is None else gradient._t, [t._t for t in realize_with])

    def detach(self) -> "Tensor":
        """The same values with no gradient flowing through (DETACH)."""
        return Tensor._wrap(self._t.detach())

    def assign(self, x) -> "Tensor":
        """Writes x (same shape, cast to this dtype) into this tensor's buffer in place."""
        self._t.assign(Tensor._coerce(x, self.dtype, self.device)._t)
        return self

    def contiguous_backward(self) -> "Tensor":
        return Tensor._wrap(self._t.contiguous_backward())

    def _graph(self) -> str:
        """The tensor graph in onegrad's text form (docs/text-form.md), for debugging."""
        return self._t.graph_text()

    # ---- movement

    def reshape(self, shape, *rest) -> "Tensor":
        if _symbolic.has_bound(shape, rest):  # a Variable's bound value as a dim
            return Tensor._wrap(_symbolic.reshape(self._t, shape, rest))
        return Tensor._wrap(self._t.reshape(shape_args(shape, rest, "reshape")))

    view = reshape

    def permute(self, order, *rest) -> "Tensor":
        return Tensor._wrap(self._t.permute(shape_args(order, rest, "permute")))

    def transpose(self, dim0=-2, dim1=-1) -> "Tensor":
        return Tensor._wrap(self._t.transpose(int(dim0), int(dim1)))

    @property
    def T(self) -> "Tensor":
        """All axes reversed, as numpy's .T and PyTorch 1.13's (which deprecates it for ndim != 2;
        use mT to swap the last two axes of a batch of matrices)."""
        return Tensor._wrap(self._t.T())

    def expand(self, shape, *rest) -> "Tensor":
        return Tensor._wrap(self._t.expand(shape_args(shape, rest, "expand")))

    def pad(self, padding, value=0, mode="constant") -> "Tensor":
        """padding: one (before, after) pair or None per axis; or torch's flat form, last axis
        first: (left, right, top, bottom, ...). mode: constant, reflect, replicate or circular
        (torch.nn.functional.pad's); with a mode or a negative amount (which crops) see _pad_mode."""
        if mode != "constant" or _has_negative(padding):
            return self._pad_mode(padding, mode, value)
        padding = list(padding)
        if padding and all(isinstance(p, (int, np.integer)) for p in padding):
            if len(padding) % 2:
                raise ShapeError(f"pad: a flat padding needs an even number of values, got {tuple(padding)}")
            pairs = [(padding[i], padding[i + 1]) for i in range(0, len(padding), 2)][::-1]
            padding = [None] * max(0, self.ndim - len(pairs)) + pairs
        if _symbolic.has_bound_pair(padding):  # amounts that are dim expressions (m - n)
            return Tensor._wrap(_symbolic.pad(self._t, _symbolic.pairs(padding, (0, 0)), py_scalar(value)))
        pairs = [(0, 0) if p is None else _pair(p, "pad") for p in padding]
        return Tensor._wrap(self._t.pad(pairs, py_scalar(value)))

    def shrink(self, arg) -> "Tensor":
        """arg: one (begin, end) pair per axis, or None to keep the axis whole."""
        shape = self.shape
        if _symbolic.has_bound_pair(arg) or _C.has_symbolic_dim(self._t):  # x[:n], or a symbolic dim kept
            bounds = [(0, shape[i]) if b is None else b for i, b in enumerate(arg)]
            return Tensor._wrap(_symbolic.shrink(self._t, _symbolic.pairs(bounds, None)))
        bounds = [_pair(b, "shrink") if b is not None else (0, shape[i] if i < len(shape) else 0)
                  for i, b in enumerate(arg)]
        return Tensor._wrap(self._t.shrink(bounds))

    def flip(self, axis, *rest) -> "Tensor":
        return Tensor._wrap(self._t.flip(shape_args(axis, rest, "flip")))

    def unsqueeze(self, dim) -> "Tensor":
        return Tensor._wrap(self._t.unsqueeze(int(dim)))

    def squeeze(self, dim=None) -> "Tensor":
        """dim: None (every size-1 axis), an int, or a tuple of ints (PyTorch 2); a listed axis
        whose size is not 1 stays."""
        if isinstance(dim, (tuple, list)):
            return Tensor._wrap(self._t.squeeze_dims(int_list(dim, "squeeze")))
        return Tensor._wrap(self._t.squeeze(None if dim is None else int(dim)))

    def flatten(self, start_dim=0, end_dim=-1) -> "Tensor":
        return Tensor._wrap(self._t.flatten(int(start_dim), int(end_dim)))

    # ---- indexing (getitem with tensor indices, setitem)

    def _tensor_index(self, it):
        """An index item that is a tensor, a list, a numpy array or a bool, as a C++ tensor: lists
        of ints become int64 (torch's long), of bools a mask."""
        if isinstance(it, Tensor):
            return it._t
        if isinstance(it, (bool, np.bool_)):
            return _C.Tensor.scalar(bool(it), "bool", self.device)
        arr = np.asarray(it)
        if arr.dtype == np.bool_:
            return Tensor(arr, device=self.device)._t
        if arr.size == 0 and arr.dtype == np.float64:  # [] is an empty int index
            arr = arr.astype(np.int64)
        if arr.dtype.kind in "iu":
            arr = arr.astype(np.int64)
        return Tensor(arr, device=self.device)._t

    # ---- shape ops (src/tensor/shape_ops.cpp, pad_modes.cpp; docs/tensor.md "Shape ops")

    @property
    def mT(self) -> "Tensor":
        """The last two axes swapped (a batch of matrices transposed)."""
        return Tensor._wrap(self._t.mT())

    def swapaxes(self, axis0, axis1) -> "Tensor":
        return Tensor._wrap(self._t.transpose(int(axis0), int(axis1)))

    swapdims = swapaxes

    def unflatten(self, dim, sizes) -> "Tensor":
        return Tensor._wrap(self._t.unflatten(int(dim), int_list(sizes, "unflatten")))

    def movedim(self, source, destination) -> "Tensor":
        return Tensor._wrap(self._t.movedim(_int_or_ints(source, "movedim"), _int_or_ints(destination, "movedim")))

    moveaxis = movedim

    def split(self, split_size_or_sections, dim=_NO_DIM, axis=None) -> tuple:
        """An int: pieces of that size (the last may be shorter); a list: the pieces' sizes."""
        ax = _dim_or_zero("split", axis, dim)
        if isinstance(split_size_or_sections, (tuple, list)):
            parts = self._t.split_with_sizes(int_list(split_size_or_sections, "split"), ax)
        else:
            parts = self._t.split(int(split_size_or_sections), ax)
        return tuple(Tensor._wrap(p) for p in parts)

    def chunk(self, chunks, dim=_NO_DIM, axis=None) -> tuple:
        """PyTorch's rule: pieces of ceil(n / chunks), so fewer than `chunks` may come back."""
        return tuple(Tensor._wrap(p) for p in self._t.chunk(int(chunks), _dim_or_zero("chunk", axis, dim)))

    def unbind(self, dim=_NO_DIM, axis=None) -> tuple:
        return tuple(Tensor._wrap(p) for p in self._t.unbind(_dim_or_zero("unbind", axis, dim)))

    def repeat(self, repeats, *rest) -> "Tensor":
        """PyTorch's repeat: x.repeat(2, 3) or x.repeat((2, 3)), at least one count per axis."""
        return Tensor._wrap(self._t.repeat(shape_args(repeats, rest, "repeat")))

    def tile(self, reps, *rest) -> "Tensor":
        return Tensor._wrap(self._t.tile(shape_args(reps, rest, "tile")))

    def repeat_interleave(self, repeats, dim=_NO_DIM, axis=None) -> "Tensor":
        """repeats: an int (or a one-element tensor); dim None repeats the flattened tensor."""
        if isinstance(repeats, Tensor):
            if repeats.numel() != 1:
                raise NotImplementedError("repeat_interleave: a tensor of several repeat counts is not supported "
                                          "(give an int)")
            repeats = repeats.item()
        ax = axis_arg("repeat_interleave", axis, dim)
        return Tensor._wrap(self._t.repeat_interleave(int(repeats), None if ax is None else int(ax)))

    def roll(self, shifts, dims=None) -> "Tensor":
        """shifts and dims: ints or tuples of the same length; dims None rolls the flattened tensor."""
        return Tensor._wrap(self._t.roll(_int_or_ints(shifts, "roll"), [] if dims is None else _int_or_ints(dims, "roll")))

    def _pad_mode(self, padding, mode, value) -> "Tensor":
        pairs = _pad_pairs(self, padding)
        if mode != "constant" and value not in (None, 0):
            raise ShapeError(f"pad: mode '{mode}' takes no value (got {value!r})")
        return Tensor._wrap(self._t.pad_mode(pairs, str(mode), py_scalar(0 if value is None else value)))

    # ---- end shape ops

    def __getitem__(self, key) -> "Tensor":
        """Indexing as numpy/torch: ints, slices, None, ..., and integer or bool tensors (lists,
        numpy arrays) as advanced indices."""
        if _symbolic.has_bound_slice(key):  # x[:n]: one graph for every value of n
            return self.shrink(_symbolic.getitem_bounds(self.shape, key))
        items = index_items(key, self.device, self._tensor_index)
        try:
            return Tensor._wrap(self._t.getitem(items))
        except ShapeError as e:
            raise IndexShapeError(str(e)) from None

    def __setitem__(self, key, value) -> None:
        """t[key] = value written into t's buffer (see docs/tensor.md "setitem"): value is a Tensor
        or a Python number, cast to t's dtype and broadcast to the indexed shape."""
        items = index_items(key, self.device, self._tensor_index)
        try:
            if isinstance(value, Tensor):
                self._t.setitem(items, value._t)
            elif is_scalar(value):
                self._t.setitem_scalar(items, py_scalar(value))
            else:
                self._t.setitem(items, Tensor(value, device=self.device)._t)
        except ShapeError as e:
            if str(e).startswith("getitem:"):  # the index itself is wrong: IndexError, as getitem
                raise IndexShapeError(str(e)) from None
            raise

    # ---- end indexing

    def stack(self, *tensors, dim=0) -> "Tensor":
        """Tensor.stack(a, b), a.stack(b) and Tensor.stack([a, b]) alike."""
        return Tensor._wrap(_C.Tensor.stack(_tensor_list(self, tensors), int(dim)))

    def cat(self, *tensors, dim=0) -> "Tensor":
        """Tensor.cat(a, b), a.cat(b) and Tensor.cat([a, b]) alike."""
        return Tensor._wrap(_C.Tensor.cat(_tensor_list(self, tensors), int(dim)))

    # ---- elementwise

    def _other(self, x, op="add"):
        """The other operand of a binary op as a C++ tensor: Python numbers become 0-d constants
        typed by the C++ scalar_operand (weak typing, src/tensor/broadcast.h); numpy arrays and
        lists become tensors on this device."""
        if isinstance(x, Tensor):
            return x._t
        if is_scalar(x):
            return _C.Tensor.scalar_operand(op, self._t, py_scalar(x))
        if isinstance(x, (np.ndarray, list, tuple)):
            return Tensor(x, device=self.device)._t
        return None

    def _binary(self, name, x, reflected=False):
        o = self._other(x, "r" + name if reflected else name)
        if o is None:
            return NotImplemented
        a, b = (o, self._t) if reflected else (self._t, o)
        return Tensor._wrap(getattr(a, name)(b))

    def add(self, x): return self._binary("add", x)
    def sub(self, x): return self._binary("sub", x)
    def mul(self, x): return self._binary("mul", x)
    def div(self, x): return self._binary("div", x)
    def idiv(self, x): return self._binary("idiv", x)
    def mod(self, x): return self._binary("mod", x)
    def pow(self, x): return self._binary("pow", x)
    def maximum(self, x): return self._binary("maximum", x)
    def minimum(self, x): return self._binary("minimum", x)
    def lt(self, x): return self._binary("lt", x)
    def le(self, x): return self._binary("le", x)
    def gt(self, x): return self._binary("gt", x)
    def ge(self, x): return self._binary("ge", x)
    def eq(self, x): return self._binary("eq", x)
    def ne(self, x): return self._binary("ne", x)
    def bitwise_and(self, x): return self._binary("bitwise_and", x)
    def bitwise_or(self, x): return self._binary("bitwise_or", x)
    def bitwise_xor(self, x): return self._binary("bitwise_xor", x)
    def lshift(self, x): return self._binary("lshift", x)
    def rshift(self, x): return self._binary("rshift", x)
    def matmul(self, x): return self._matmul(x)

    __add__ = add
    __sub__ = sub
    __mul__ = mul
    __truediv__ = div
    __floordiv__ = idiv
    __mod__ = mod
    __pow__ = pow
    __lt__ = lt
    __le__ = le
    __gt__ = gt
    __ge__ = ge
    __eq__ = eq  # type: ignore[assignment]
    __ne__ = ne  # type: ignore[assignment]
    __and__ = bitwise_and
    __or__ = bitwise_or
    __xor__ = bitwise_xor
    __lshift__ = lshift
    __rshift__ = rshift
    __matmul__ = matmul

    def __radd__(self, x): return self._binary("add", x, True)
    def __rsub__(self, x): return self._binary("sub", x, True)
    def __rmul__(self, x): return self._binary("mul", x, True)
    def __rtruediv__(self, x): return self._binary("div", x, True)
    def __rfloordiv__(self, x): return self._binary("idiv", x, True)
    def __rmod__(self, x): return self._binary("mod", x, True)
    def __rpow__(self, x): return self._binary("pow", x, True)
    def __rand__(self, x): return self._binary("bitwise_and", x, True)
    def __ror__(self, x): return self._binary("bitwise_or", x, True)
    def __rxor__(self, x): return self._binary("bitwise_xor", x, True)
    def __rlshift__(self, x): return self._binary("lshift", x, True)
    def __rrshift__(self, x): return self._binary("rshift", x, True)

    def __rmatmul__(self, x):
        o = self._other(x)
        return NotImplemented if o is None else Tensor._wrap(o)._matmul(self)

    def where(self, x, y) -> "Tensor":
        """self (as bool) ? x : y. A number next to a tensor takes the tensor's dtype (as in a binary
        op); two numbers take their own dtypes (int32, float32 or bool) and promote."""
        if isinstance(x, Tensor):
            a, b = x._t, x._other(y, "where")
        elif isinstance(y, Tensor):
            a, b = y._other(x, "where"), y._t
        else:
            a, b = Tensor(x, device=self.device)._t, Tensor(y, device=self.device)._t
        if a is None or b is None:
            raise TypeError(f"where: expected tensors or numbers, got {type(x).__name__} and {type(y).__name__}")
        return Tensor._wrap(self._t.where(a, b))

    def __neg__(self): return Tensor._wrap(self._t.neg())
    def __invert__(self): return Tensor._wrap(self._t.bitwise_not())  # logical not for bool
    def __abs__(self): return Tensor._wrap(self._t.abs())
    def __pos__(self): return self

    def neg(self): return Tensor._wrap(self._t.neg())
    def recip(self): return Tensor._wrap(self._t.recip())
    def reciprocal(self): return Tensor._wrap(self._t.recip())
    def trunc(self): return Tensor._wrap(self._t.trunc())
    def logical_not(self): return Tensor._wrap(self._t.logical_not())
    def bitwise_not(self): return Tensor._wrap(self._t.bitwise_not())
    def relu(self): return Tensor._wrap(self._t.relu())
    def exp(self): return Tensor._wrap(self._t.exp())
    def exp2(self): return Tensor._wrap(self._t.exp2())
    def log(self): return Tensor._wrap(self._t.log())
    def log2(self): return Tensor._wrap(self._t.log2())
    def sqrt(self): return Tensor._wrap(self._t.sqrt())
    def sin(self): return Tensor._wrap(self._t.sin())
    def abs(self): return Tensor._wrap(self._t.abs())

    # ---- math built on the primitives (docs/tensor.md, "Math as compositions"); PyTorch names

    def cos(self): return Tensor._wrap(self._t.cos())
    def tan(self): return Tensor._wrap(self._t.tan())
    def rsqrt(self): return Tensor._wrap(self._t.rsqrt())
    def square(self): return Tensor._wrap(self._t.square())
    def sign(self): return Tensor._wrap(self._t.sign())
    def floor(self): return Tensor._wrap(self._t.floor())
    def ceil(self): return Tensor._wrap(self._t.ceil())
    def erf(self): return Tensor._wrap(self._t.erf())
    def log1p(self): return Tensor._wrap(self._t.log1p())
    def expm1(self): return Tensor._wrap(self._t.expm1())
    def isnan(self): return Tensor._wrap(self._t.isnan())
    def isinf(self): return Tensor._wrap(self._t.isinf())
    def isfinite(self): return Tensor._wrap(self._t.isfinite())
    def sigmoid(self): return Tensor._wrap(self._t.sigmoid())
    def tanh(self): return Tensor._wrap(self._t.tanh())
    def silu(self): return Tensor._wrap(self._t.silu())
    def mish(self): return Tensor._wrap(self._t.mish())
    def hardswish(self): return Tensor._wrap(self._t.hardswish())
    def hardsigmoid(self): return Tensor._wrap(self._t.hardsigmoid())
    def logical_and(self, x): return self._binary("logical_and", x)
    def logical_or(self, x): return self._binary("logical_or", x)
    def logical_xor(self, x): return self._binary("logical_xor", x)

    def round(self, decimals=0):
        """Half to even (torch.round); only decimals=0."""
        if decimals != 0:
            raise NotImplementedError("round: only decimals=0 is supported")
        return Tensor._wrap(self._t.round())

    def __round__(self, ndigits=None): return self.round()

    def clamp(self, min=None, max=None):
        """minimum(maximum(x, min), max); min and max are tensors or numbers (weakly typed, so an
        int tensor clamped by a float number becomes float32, as in PyTorch)."""
        if min is None and max is None:
            raise ValueError("clamp: at least one of min and max is required")
        lo = None if min is None else self._other(min, "clamp")
        hi = None if max is None else self._other(max, "clamp")
        return Tensor._wrap(self._t.clamp(lo, hi))

    clip = clamp

    def leaky_relu(self, negative_slope=0.01): return Tensor._wrap(self._t.leaky_relu(float(negative_slope)))
    def elu(self, alpha=1.0): return Tensor._wrap(self._t.elu(float(alpha)))

    def gelu(self, approximate="none"):
        if approximate not in ("none", "tanh"):
            raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
        return Tensor._wrap(self._t.gelu(approximate == "tanh"))

    def softplus(self, beta=1.0, threshold=20.0):
        return Tensor._wrap(self._t.softplus(float(beta), float(threshold)))

    def cast(self, dtype) -> "Tensor":
        return Tensor._wrap(self._t.cast(to_dtype(dtype).name))

    def bitcast(self, dtype) -> "Tensor":
        """Reinterprets the bits elementwise; the itemsize must match."""
        return Tensor._wrap(self._t.bitcast(to_dtype(dtype).name))

    # ---- reductions (axis: None = all, an int, or a tuple; negative axes count from the end)

    def _reduce(self, name, axis, keepdim):
        if isinstance(axis, (tuple, list)) and len(axis) == 0:
            # axis=() reduces nothing (numpy). C++ reads empty axes as "all", so reduce a new
            # axis of size 1 instead: same values, and the reduction's dtype rules still apply.
            return Tensor._wrap(getattr(self._t.unsqueeze(0), name)([0], False))
        return Tensor._wrap(getattr(self._t, name)(_axes(axis), bool(keepdim)))

    def sum(self, axis=None, keepdim=False, dim=_NO_DIM): return self._reduce("sum", axis_arg("sum", axis, dim), keepdim)
    def max(self, axis=None, keepdim=False, dim=_NO_DIM): return self._reduce("max", axis_arg("max", axis, dim), keepdim)
    def min(self, axis=None, keepdim=False, dim=_NO_DIM): return self._reduce("min", axis_arg("min", axis, dim), keepdim)
    def prod(self, axis=None, keepdim=False, dim=_NO_DIM): return self._reduce("prod", axis_arg("prod", axis, dim), keepdim)
    def mean(self, axis=None, keepdim=False, dim=_NO_DIM): return self._reduce("mean", axis_arg("mean", axis, dim), keepdim)

    def softmax(self, axis=None, dim=_NO_DIM) -> "Tensor":
        axis = axis_arg("softmax", axis, dim)
        return Tensor._wrap(self._t.softmax(-1 if axis is None else int(axis)))

    # ---- reductions/losses: statistics, arg-reductions, scans and losses, thin fronts over
    #      C++ (src/tensor/reduce_stats.cpp, scan.cpp, loss.cpp); PyTorch's names and argument orders.

    def _stat(self, name, axis, unbiased, keepdim, correction):
        if unbiased is not None and correction is not None:
            raise TypeError(f"{name}: give unbiased or correction, not both")
        corr = float(correction) if correction is not None else (0.0 if unbiased is False else 1.0)
        if isinstance(axis, (tuple, list)) and len(axis) == 0:
            # axis=() reduces nothing, as for sum: a new axis of size 1 is reduced instead
            return getattr(self._t.unsqueeze(0), name)([0], corr, False)
        return getattr(self._t, name)(_axes(axis), corr, bool(keepdim))

    def var(self, axis=None, unbiased=None, keepdim=False, *, correction=None, dim=_NO_DIM) -> "Tensor":
        """sum((x - mean)^2) / max(0, N - correction); correction 1 (unbiased) by default, as torch."""
        return Tensor._wrap(self._stat("var", axis_arg("var", axis, dim), unbiased, keepdim, correction))

    def std(self, axis=None, unbiased=None, keepdim=False, *, correction=None, dim=_NO_DIM) -> "Tensor":
        return Tensor._wrap(self._stat("std", axis_arg("std", axis, dim), unbiased, keepdim, correction))

    def var_mean(self, axis=None, unbiased=None, keepdim=False, *, correction=None, dim=_NO_DIM) -> tuple:
        v, m = self._stat("var_mean", axis_arg("var_mean", axis, dim), unbiased, keepdim, correction)
        return Tensor._wrap(v), Tensor._wrap(m)

    def std_mean(self, axis=None, unbiased=None, keepdim=False, *, correction=None, dim=_NO_DIM) -> tuple:
        s, m = self._stat("std_mean", axis_arg("std_mean", axis, dim), unbiased, keepdim, correction)
        return Tensor._wrap(s), Tensor._wrap(m)

    def argmax(self, axis=None, keepdim=False, dim=_NO_DIM) -> "Tensor":
        """int64 index of the first maximum (a NaN counts as the maximum); axis None: of the flattened
        tensor (keepdim then gives all dims 1, as torch)."""
        axis = axis_arg("argmax", axis, dim)
        return Tensor._wrap(self._t.argmax(None if axis is None else operator.index(axis), bool(keepdim)))

    def argmin(self, axis=None, keepdim=False, dim=_NO_DIM) -> "Tensor":
        axis = axis_arg("argmin", axis, dim)
        return Tensor._wrap(self._t.argmin(None if axis is None else operator.index(axis), bool(keepdim)))

    def any(self, axis=None, keepdim=False, dim=_NO_DIM) -> "Tensor":
        return self._reduce("any", axis_arg("any", axis, dim), keepdim)

    def all(self, axis=None, keepdim=False, dim=_NO_DIM) -> "Tensor":
        return self._reduce("all", axis_arg("all", axis, dim), keepdim)

    def logsumexp(self, axis=None, keepdim=False, dim=_NO_DIM) -> "Tensor":
        """log(sum(exp(x))) computed stably; axis None reduces all axes."""
        return self._reduce("logsumexp", axis_arg("logsumexp", axis, dim), keepdim)

    def log_softmax(self, axis=None, dim=_NO_DIM) -> "Tensor":
        axis = axis_arg("log_softmax", axis, dim)
        return Tensor._wrap(self._t.log_softmax(-1 if axis is None else operator.index(axis)))

    def _scan_axis(self, name, axis, dim):
        axis = axis_arg(name, axis, dim)
        if axis is None:
            raise TypeError(f"{name}: the axis (dim) to scan along is required")
        return operator.index(axis)

    def cumsum(self, axis=None, dim=_NO_DIM) -> "Tensor":
        return Tensor._wrap(self._t.cumsum(self._scan_axis("cumsum", axis, dim)))

    def cumprod(self, axis=None, dim=_NO_DIM) -> "Tensor":
        return Tensor._wrap(self._t.cumprod(self._scan_axis("cumprod", axis, dim)))

    def cummax(self, axis=None, dim=_NO_DIM):
        """(values, indices) as torch.cummax: the index is the last position holding the running max."""
        v, i = self._t.cummax(self._scan_axis("cummax", axis, dim))
        return ScanResult(Tensor._wrap(v), Tensor._wrap(i))

    def cummin(self, axis=None, dim=_NO_DIM):
        v, i = self._t.cummin(self._scan_axis("cummin", axis, dim))
        return ScanResult(Tensor._wrap(v), Tensor._wrap(i))

    def one_hot(self, num_classes=-1) -> "Tensor":
        """int64 one-hot rows; num_classes=-1 infers max + 1 (this runs a kernel to read the max)."""
        return Tensor._wrap(self._t.one_hot(operator.index(num_classes)))

    def _opt(self, x):
        return None if x is None else self._other(x)

    def nll_loss(self, target, weight=None, ignore_index=-100, reduction="mean") -> "Tensor":
        return Tensor._wrap(self._t.nll_loss(self._other(target), self._opt(weight), operator.index(ignore_index),
                                             str(reduction)))

    def cross_entropy(self, target, weight=None, ignore_index=-100, reduction="mean",
                      label_smoothing=0.0) -> "Tensor":
        return Tensor._wrap(self._t.cross_entropy(self._other(target), self._opt(weight),
                                                  operator.index(ignore_index), str(reduction),
                                                  float(label_smoothing)))

    def mse_loss(self, target, reduction="mean") -> "Tensor":
        return Tensor._wrap(self._t.mse_loss(self._other(target), str(reduction)))

    def l1_loss(self, target, reduction="mean") -> "Tensor":
        return Tensor._wrap(self._t.l1_loss(self._other(target), str(reduction)))

    def binary_cross_entropy(self, target, weight=None, reduction="mean") -> "Tensor":
        return Tensor._wrap(self._t.binary_cross_entropy(self._other(target), self._opt(weight), str(reduction)))

    def binary_cross_entropy_with_logits(self, target, weight=None, reduction="mean", pos_weight=None) -> "Tensor":
        return Tensor._wrap(self._t.binary_cross_entropy_with_logits(self._other(target), self._opt(weight),
                                                                     str(reduction), self._opt(pos_weight)))

    # ---- end reductions/losses

    def _matmul(self, x) -> "Tensor":
        """numpy/torch matmul (1-D operands, batch broadcasting): the rules live in C++."""
        o = x if isinstance(x, Tensor) else Tensor._wrap(self._other(x))
        return Tensor._wrap(self._t.matmul(o._t))

    # ---- compose: linalg, einsum, gather/scatter, masks, constructors.
    # Thin fronts over the C++ compositions (src/tensor/linalg.cpp, einsum.cpp, gather_scatter.cpp,
    # construct.cpp); PyTorch's names and argument orders; `dim` or `axis` for the axis.

    def dot(self, other) -> "Tensor":
        return Tensor._wrap(self._t.dot(self._operand(other)))

    def outer(self, other) -> "Tensor":
        return Tensor._wrap(self._t.outer(self._operand(other)))

    ger = outer

    @staticmethod
    def einsum(equation, *operands) -> "Tensor":
        """einsum('ij,jk->ik', a, b) or einsum('ij,jk->ik', [a, b])."""
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = tuple(operands[0])
        ts = [Tensor._coerce(t) for t in operands]
        return Tensor._wrap(_C.Tensor.einsum(str(equation), [t._t for t in ts]))

    def gather(self, dim=None, index=None, axis=None) -> "Tensor":
        """out[i][j] = self[index[i][j]][j] for dim 0 (torch.gather); index has this rank."""
        return Tensor._wrap(self._t.gather(_dim_arg("gather", dim, axis), self._index(index)))

    def scatter(self, dim=None, index=None, src=None, value=None, reduce=None, axis=None) -> "Tensor":
        """torch.Tensor.scatter out of place: scatter(dim, index, src) or scatter(dim, index,
        value); with equal indices the last along dim wins (PyTorch's CPU order). reduce='add' or
        'multiply' as torch's (deprecated) argument."""
        d, idx = _dim_arg("scatter", dim, axis), self._index(index)
        if src is not None and value is not None:
            raise TypeError("scatter: give src or value, not both")
        src = value if src is None else src
        if src is None:
            raise TypeError("scatter: src or value is required")
        if reduce is not None:
            kinds = {"add": "sum", "multiply": "prod"}
            if reduce not in kinds:
                raise ValueError(f"scatter: reduce must be 'add' or 'multiply', got {reduce!r}")
            s = Tensor.full(list(idx.shape), src, dtype=self.dtype, device=self.device)._t if is_scalar(src) \
                else self._operand(src)
            return Tensor._wrap(self._t.scatter_reduce(d, idx, s, kinds[reduce], True))
        if is_scalar(src):
            return Tensor._wrap(self._t.scatter_value(d, idx, py_scalar(src)))
        return Tensor._wrap(self._t.scatter(d, idx, self._operand(src)))

    def scatter_add(self, dim=None, index=None, src=None, axis=None) -> "Tensor":
        return Tensor._wrap(self._t.scatter_add(_dim_arg("scatter_add", dim, axis), self._index(index),
                                                self._operand(src)))

    def scatter_reduce(self, dim=None, index=None, src=None, reduce=None, *, include_self=True,
                       axis=None) -> "Tensor":
        """reduce: 'sum', 'prod', 'mean', 'amax' or 'amin' (torch.Tensor.scatter_reduce)."""
        return Tensor._wrap(self._t.scatter_reduce(_dim_arg("scatter_reduce", dim, axis), self._index(index),
                                                   self._operand(src), str(reduce), bool(include_self)))

    def index_select(self, dim=None, index=None, axis=None) -> "Tensor":
        return Tensor._wrap(self._t.index_select(_dim_arg("index_select", dim, axis), self._index(index)))

    def sort(self, dim=-1, descending=False, stable=False):
        from ._sort import sort
        return sort(self, dim, descending, stable)

    def argsort(self, dim=-1, descending=False, stable=False) -> "Tensor":
        from ._sort import argsort
        return argsort(self, dim, descending, stable)

    def topk(self, k, dim=-1, largest=True, sorted=True):
        from ._sort import topk
        return topk(self, k, dim, largest, sorted)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        from ._sort import unique
        return unique(self, sorted, return_inverse, return_counts, dim)

    def masked_select(self, mask) -> "Tensor":
        """The elements where mask (bool, broadcast with this tensor) is true, 1-D (torch.masked_select)."""
        return Tensor._wrap(self._t.masked_select(self._operand(mask)))

    def nonzero(self, *, as_tuple=False):
        """Coordinates of the non-zero elements, (count, ndim) int64; as_tuple: one (count,) tensor per
        dim (a 0-d tensor counts as 1-D there, as torch.nonzero)."""
        if as_tuple:
            t = self._t if self.ndim > 0 else self.reshape(1)._t
            return tuple(Tensor._wrap(c) for c in t.nonzero_tuple())
        return Tensor._wrap(self._t.nonzero())

    def masked_fill(self, mask, value) -> "Tensor":
        """value (a number or a 0-d tensor) where mask (bool, broadcast to this shape) is true."""
        m = self._operand(mask)
        if is_scalar(value):
            return Tensor._wrap(self._t.masked_fill_value(m, py_scalar(value)))
        return Tensor._wrap(self._t.masked_fill(m, self._operand(value)))

    def tril(self, diagonal=0) -> "Tensor":
        return Tensor._wrap(self._t.tril(int(diagonal)))

    def triu(self, diagonal=0) -> "Tensor":
        return Tensor._wrap(self._t.triu(int(diagonal)))

    @staticmethod
    def linspace(start, end, steps, dtype=None, device=None) -> "Tensor":
        """torch.linspace's values (float32 by default)."""
        dt = to_dtype(dtype or dtypes.default_float)
        return Tensor._wrap(_C.Tensor.linspace(float(start), float(end), int(steps), dt.name, _device(device)))

    @staticmethod
    def eye(n, m=None, dtype=None, device=None) -> "Tensor":
        dt = to_dtype(dtype or dtypes.default_float)
        return Tensor._wrap(_C.Tensor.eye(int(n), None if m is None else int(m), dt.name, _device(device)))

    def _operand(self, x):
        """A tensor argument as a C++ tensor (lists and numpy arrays become tensors here)."""
        if isinstance(x, Tensor):
            return x._t
        return Tensor(x, device=self.device)._t

    def _index(self, index):
        if index is None:
            raise TypeError("index is required")
        return self._operand(index)

    # ---- end compose

    # ---- random (src/tensor/random.h; docs/tensor.md, "Random numbers"): THREEFRY from one seeded
    # generator. Shapes as in torch (rand(2, 3) or rand((2, 3))); checks happen in C++.

    @staticmethod
    def manual_seed(seed=0) -> None:
        """Seeds the generator (the Threefry key) and restarts its counter, as torch.manual_seed.
        Any int in [-2**63, 2**64); negative seeds wrap to uint64 like torch's."""
        seed = int(seed)
        if not -(2**63) <= seed < 2**64:
            raise ValueError(f"manual_seed: seed {seed} is outside [-2**63, 2**64)")
        _C.manual_seed(seed & (2**64 - 1))

    @staticmethod
    def rand(*shape, dtype=None, device=None) -> "Tensor":
        """Uniform on [0, 1) (float32 by default)."""
        if (dims := _symbolic.bound_shape(shape)) is not None:
            return Tensor._wrap(_symbolic.rand(dims, to_dtype(dtype or dtypes.default_float).name, _device(device)))
        return Tensor._wrap(_C.rand(_shape_or_empty(shape), to_dtype(dtype or dtypes.default_float).name,
                                    _device(device)))

    @staticmethod
    def randn(*shape, dtype=None, device=None) -> "Tensor":
        """Standard normal (float32 by default)."""
        return Tensor._wrap(_C.randn(_shape_or_empty(shape), to_dtype(dtype or dtypes.default_float).name,
                                     _device(device)))

    @staticmethod
    def randint(low, high=None, size=None, dtype=None, device=None) -> "Tensor":
        """torch.randint: randint(high, size) or randint(low, high, size); int64 by default."""
        if size is None:
            if high is None or not isinstance(high, (tuple, list)):
                raise TypeError("randint: expects randint(high, size) or randint(low, high, size)")
            low, high, size = 0, low, high
        elif high is None:
            low, high = 0, low
        shape = int_list(size, "randint") if isinstance(size, (tuple, list)) else int_list((size,), "randint")
        return Tensor._wrap(_C.randint(int(low), int(high), shape, to_dtype(dtype or dtypes.int64).name,
                                       _device(device)))

    @staticmethod
    def uniform(*shape, low=0.0, high=1.0, dtype=None, device=None) -> "Tensor":
        """Uniform on [low, high) (tinygrad's Tensor.uniform; torch spells it t.uniform_(low, high))."""
        return Tensor._wrap(_C.uniform(_shape_or_empty(shape), float(low), float(high),
                                       to_dtype(dtype or dtypes.default_float).name, _device(device)))

    @staticmethod
    def normal(*shape, mean=0.0, std=1.0, dtype=None, device=None) -> "Tensor":
        """mean + std * randn (tinygrad's Tensor.normal; torch.normal(mean, std, size) is onegrad.normal)."""
        return Tensor._wrap(_C.normal(_shape_or_empty(shape), float(mean), float(std),
                                      to_dtype(dtype or dtypes.default_float).name, _device(device)))

    @staticmethod
    def randperm(n, dtype=None, device=None) -> "Tensor":
        """A random permutation of 0..n-1 (int64 by default, as torch)."""
        return Tensor._wrap(_C.randperm(int_list((n,), "randperm")[0], to_dtype(dtype or dtypes.int64).name, _device(device)))

    @staticmethod
    def rand_like(t: "Tensor", dtype=None) -> "Tensor":
        return Tensor._wrap(_C.rand_like(t._t, None if dtype is None else to_dtype(dtype).name))

    @staticmethod
    def randn_like(t: "Tensor", dtype=None) -> "Tensor":
        return Tensor._wrap(_C.randn_like(t._t, None if dtype is None else to_dtype(dtype).name))

    @staticmethod
    def randint_like(t: "Tensor", low, high=None, dtype=None) -> "Tensor":
        """torch.randint_like(t, high) or (t, low, high): t's shape and dtype unless dtype is given."""
        if high is None:
            low, high = 0, low
        return Tensor._wrap(_C.randint_like(t._t, int(low), int(high), None if dtype is None else to_dtype(dtype).name))

    def multinomial(self, num_samples, replacement=False) -> "Tensor":
        """int64 indices drawn from each row of these (1-D or 2-D, non-negative) weights."""
        return Tensor._wrap(_C.multinomial(self._t, int_list((num_samples,), "multinomial")[0], bool(replacement)))

    def bernoulli(self, p=None) -> "Tensor":
        """1 with probability self[i] (or with probability p for every element when p is given)."""
        if p is None:
            return Tensor._wrap(_C.bernoulli(self._t))
        return Tensor._wrap(_C.bernoulli_p(self._t, float(p)))

    def dropout(self, p=0.5, training=True) -> "Tensor":
        """Zeros each element with probability p, scales the rest by 1/(1-p) (nn.functional.dropout)."""
        return Tensor._wrap(_C.dropout(self._t, float(p), bool(training)))

    # ---- end of random

    # Last in the class: these names shadow the builtins for the rest of the class body.
    def float(self): return self.cast(dtypes.float32)
    def half(self): return self.cast(dtypes.float16)
    def double(self): return self.cast(dtypes.float64)
    def int(self): return self.cast(dtypes.int32)
    def long(self): return self.cast(dtypes.int64)
    def bool(self): return self.cast(dtypes.bool)


# reductions/losses: cummax/cummin's result, like torch.return_types.cummax
ScanResult = collections.namedtuple("ScanResult", ["values", "indices"])
def _dim_arg(op: str, dim, axis):
    """The axis of a gather/scatter-like op, as `dim` (PyTorch) or `axis` (tinygrad)."""
    if dim is not None and axis is not None:
        raise TypeError(f"{op}: give axis or dim, not both")
    d = dim if dim is not None else axis
    if d is None:
        raise TypeError(f"{op}: dim is required")
    return int(d)

# ---- torch's everyday API (size, to, clone, norm, diag, max(dim), ...): onegrad/_torch_api.py
from . import _torch_api  # noqa: E402

_torch_api.install(Tensor)

# ---- neural-net ops (nn ops area) as Tensor methods: conv2d, max_pool2d, layer_norm, interpolate, ...
# (onegrad/_nn.py; the same functions are onegrad.nn.functional's under torch's names).
from . import _nn  # noqa: E402

for _name in _nn.METHODS:
    setattr(Tensor, _name, getattr(_nn, _name))
del _name
# ---- end of neural-net ops

def _canonical_device(device: str) -> str:
    """The device name as C++ spells it ("cpu:0" -> "CPU"); DeviceError if unknown."""
    return _C.Tensor.scalar(False, "bool", device).device


def _rounded(value, dt: DType):
    """A float as float16/float32 stores it (1e40 -> inf), as Tensor([1e40]) gives through numpy."""
    if isinstance(value, float) and dt in (dtypes.float16, dtypes.float32):
        with np.errstate(over="ignore"):
            return float(dt.np.type(value))
    return value


def _shape_or_empty(shape) -> list:
    """zeros(2, 3), zeros((2, 3)) and zeros(()) (0-d)."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return int_list(shape[0], "shape")
    return int_list(shape, "shape")


def _pair(p, what: str) -> tuple:
    if not isinstance(p, (tuple, list)) or len(p) != 2:
        raise ShapeError(f"{what}: each axis takes a pair of ints, got {p!r}")
    return tuple(int_list(p, what))


def _tensor_list(first, rest) -> list:
    ts = [first, *rest]
    if len(ts) == 1 and isinstance(ts[0], (list, tuple)):
        ts = list(ts[0])
    for t in ts:
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensors, got {type(t).__name__}")
    return [t._t for t in ts]


def _from_numpy(arr: np.ndarray, dt, device: str):
    """A C++ tensor holding a copy of arr, cast to dt when given. bfloat16 goes through float32
    and a cast node (numpy has no bfloat16 to copy from)."""
    src = dtypes.from_numpy(arr.dtype)
    arr = c_contiguous(arr)
    if dt is not None and dt != src and dt != dtypes.bfloat16:
        arr, src = c_contiguous(arr.astype(dt.np)), dt
    t = _C.Tensor.from_buffer(arr, list(arr.shape), src.name, device)
    return t if dt is None or dt == src else t.cast(dt.name)


# ---- shape ops helpers


def _int_or_ints(x, what: str) -> list:
    return int_list(x, what) if isinstance(x, (tuple, list)) else int_list((x,), what)


def _dim_or_zero(op: str, axis, dim) -> int:
    ax = axis_arg(op, axis, dim)
    return 0 if ax is None else int(ax)


def _has_negative(padding) -> bool:
    flat = [v for p in padding if p is not None for v in (p if isinstance(p, (tuple, list)) else (p,))]
    return any(isinstance(v, (int, np.integer)) and v < 0 for v in flat)


def _pad_pairs(t: "Tensor", padding) -> list:
    """pad()'s padding forms as (before, after) pairs from the first axis: pairs / None per axis,
    or torch's flat form from the last axis (at most two values per axis)."""
    padding = list(padding)
    if padding and all(isinstance(p, (int, np.integer)) for p in padding):
        if len(padding) % 2:
            raise ShapeError(f"pad: a flat padding needs an even number of values, got {tuple(padding)}")
        if len(padding) // 2 > t.ndim:
            raise ShapeError(f"pad: padding {tuple(padding)} is too long for shape {t.shape} "
                             f"(at most {2 * t.ndim} values)")
        pairs = [(padding[i], padding[i + 1]) for i in range(0, len(padding), 2)][::-1]
        padding = [None] * (t.ndim - len(pairs)) + pairs
    return [(0, 0) if p is None else _pair(p, "pad") for p in padding]
