"""dtypes across the op surface against torch 1.13 on the CPU (docs/tensor.md,
"Promotion vs PyTorch"):

- every elementwise, unary and reduce op on every dtype: where torch computes it, onegrad gives the
  same output dtype and values; where torch rejects it, onegrad raises too, unless the case is one
  of the documented extensions (EXTENSIONS below). torch 1.13 lacks CPU kernels for many ops on
  float16/bfloat16 ("not implemented for 'Half'"): there the reference is torch's float32 result
  of the same inputs, rounded to the dtype (what torch does where it has the kernel);
- binary ops over every pair of dtypes (result dtype, values for add/mul/maximum);
- Python-number operands (weak scalars) and 0-d tensors (where torch's rule differs);
- casts with C semantics (float -> int truncates; out of range saturates, NaN -> 0) and bitcast;
- uint16/uint32/uint64, which torch 1.13 lacks: the reference is torch on the int64 copy of the
  data, with the dtype the lattice gives.

Shapes are fixed (kernels compile once and come from the cache on later runs); data is drawn with
the `rng` fixture."""

import itertools
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

import onegrad
from onegrad import Tensor, dtypes
from onegrad.errors import Error

SHAPE = (3, 8)
ALL = list(dtypes.all)
TORCH_HAS = [d for d in ALL if d.name not in ("uint16", "uint32", "uint64")]
NO_TORCH = [d for d in ALL if d not in TORCH_HAS]
HALF = (dtypes.float16, dtypes.bfloat16)


def tdt(dt):
    return getattr(torch, dt.name)


def ogdt(tdtype):
    return getattr(dtypes, str(tdtype)[len("torch."):])


def draw(rng, dt, shape=SHAPE, kind="any"):
    """numpy data that every dtype holds exactly (multiples of 1/8 for floats, so float16 and
    bfloat16 copies are exact): kind "any" in [-4, 4] (unsigned [0, 8]), "pos" > 0, "nonzero"."""
    if dt.is_bool:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dt.is_int:
        lo, hi = (0, 9) if dt.is_unsigned else (-6, 7)
        if kind == "pos":
            lo = 1
        a = rng.integers(lo, hi, size=shape)
        if kind == "nonzero":
            a[a == 0] = 3
        return a.astype(dt.np)
    a = np.round(rng.uniform(-4, 4, size=shape) * 8) / 8
    if kind == "pos":
        a = np.abs(a) + 0.125
    if kind == "nonzero":
        a[a == 0] = 0.5
    return a.astype(np.float32 if dt == dtypes.bfloat16 else dt.np)


def og_tensor(a, dt):
    return Tensor(a, dtype=dt)


def th_tensor(a, dt):
    """The torch tensor of dt holding a; uint16..64 become int64 (torch 1.13 lacks them)."""
    if dt in NO_TORCH:
        return torch.from_numpy(a.astype(np.int64))
    return torch.from_numpy(np.array(a)).to(tdt(dt))


def not_implemented(e):
    return isinstance(e, (RuntimeError, NotImplementedError)) and "not implemented for" in str(e)


def torch_result(fn, args, dts):
    """torch's answer as (numpy values, onegrad dtype), or the exception it raised. Half and
    bfloat16 inputs that torch has no kernel for are computed in float32 and rounded."""
    try:
        r = fn(*args)
    except Exception as e:  # noqa: BLE001 -- which exception is part of the answer
        if not not_implemented(e) or not any(d in HALF for d in dts):
            return e
        try:
            r32 = fn(*[a.float() if a.dtype in (torch.float16, torch.bfloat16) else a for a in args])
        except Exception:  # noqa: BLE001 -- not for float32 either (bitwise ops): torch rejects it
            return e
        half = [tdt(d) for d in dts if d in HALF][0]
        r = r32.to(half) if r32.dtype == torch.float32 else r32
    return r


def expected_dtype(r, dts):
    """The dtype onegrad must give for torch's result r: torch's own, except for uint16..64 inputs
    (computed as int64 by torch), where an int64 result means the promoted unsigned type."""
    out = ogdt(r.dtype)
    if any(d in NO_TORCH for d in dts) and out == dtypes.int64:
        promoted = dts[0]
        for d in dts[1:]:
            promoted = (Tensor.zeros(1, dtype=promoted) + Tensor.zeros(1, dtype=d)).dtype
        return promoted
    return out


def values_of(r, dt):
    """torch result r as numpy data of onegrad dtype dt (bfloat16 as float32; unsigned wraps)."""
    if r.dtype == torch.bfloat16:
        return r.float().numpy()
    a = r.numpy()
    return a.astype(dt.np) if dt.is_int else a


def tol(dt):
    return {"float16": (2e-3, 2e-3), "bfloat16": (1.6e-2, 1.6e-2), "float32": (1e-5, 1e-6),
            "float64": (1e-12, 1e-12)}.get(dt.name, (0, 0))


def compare(got, want, rtol=None, atol=None):
    if got.dtype.is_float:
        r, a = tol(got.dtype)
        np.testing.assert_allclose(got.numpy().astype(np.float64), want.astype(np.float64),
                                   rtol=r if rtol is None else rtol, atol=a if atol is None else atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got.numpy(), want)


def check_op(og_fn, th_fn, arrays, dts, extension=None, rtol=None, atol=None, want_dtype=None):
    """Runs the op in both libraries and compares dtype and values, or that both raise.
    want_dtype overrides the expected dtype (uint16/uint32 inputs, which torch lacks)."""
    want = torch_result(th_fn, [th_tensor(a, d) for a, d in zip(arrays, dts)], dts)
    ts = [og_tensor(a, d) for a, d in zip(arrays, dts)]
    if isinstance(want, Exception):
        if extension:
            got = og_fn(*ts)  # onegrad computes it (documented); it must at least run
            got.numpy()
            return
        with pytest.raises(Error):
            og_fn(*ts).numpy()
        return
    got = og_fn(*ts)
    wdt = want_dtype or expected_dtype(want, dts)
    assert got.dtype == wdt, f"dtype {got.dtype} != {wdt} (torch {want.dtype})"
    assert got.shape == tuple(want.shape)
    compare(got, values_of(want, wdt), rtol, atol)


# ---- binary ops: every dtype, same dtype on both sides

BINARY = {
    "add": (Tensor.add, torch.add, "any"),
    "sub": (Tensor.sub, torch.sub, "any"),
    "mul": (Tensor.mul, torch.mul, "any"),
    "div": (Tensor.div, torch.div, "nonzero"),
    "idiv": (Tensor.idiv, torch.floor_divide, "nonzero"),
    "mod": (Tensor.mod, torch.remainder, "nonzero"),
    "maximum": (Tensor.maximum, torch.maximum, "any"),
    "minimum": (Tensor.minimum, torch.minimum, "any"),
    "pow": (Tensor.pow, torch.pow, "pos"),
    "lt": (Tensor.lt, torch.lt, "any"),
    "le": (Tensor.le, torch.le, "any"),
    "eq": (Tensor.eq, torch.eq, "any"),
    "ne": (Tensor.ne, torch.ne, "any"),
    "bitwise_and": (Tensor.bitwise_and, torch.bitwise_and, "any"),
    "bitwise_or": (Tensor.bitwise_or, torch.bitwise_or, "any"),
    "bitwise_xor": (Tensor.bitwise_xor, torch.bitwise_xor, "any"),
    "lshift": (Tensor.lshift, torch.bitwise_left_shift, "pos"),
    "rshift": (Tensor.rshift, torch.bitwise_right_shift, "pos"),
    "logical_and": (Tensor.logical_and, torch.logical_and, "any"),
    "logical_xor": (Tensor.logical_xor, torch.logical_xor, "any"),
}

# (op, dtype) that torch rejects and onegrad computes, on purpose (docs/tensor.md).
EXTENSIONS = {
    # torch: "not implemented for 'Bool'" for these on bool; onegrad's bool max/min are or/and,
    # floor division and pow of bools are rejected... listed only where onegrad computes them.
    ("maximum", "bool"), ("minimum", "bool"),
    # lshift/rshift of bool: torch has no kernel; onegrad rejects (no entry).
}


def lhs_rhs(rng, dt, kind):
    a = draw(rng, dt, kind="any" if kind in ("nonzero",) else kind)
    b = draw(rng, dt, kind=kind)
    if kind == "pos" and dt.is_int:
        b = (b % 3).astype(dt.np)  # small exponents and shift counts: no overflow
    return a, b


@pytest.mark.parametrize("dt", ALL, ids=str)
@pytest.mark.parametrize("name", list(BINARY))
def test_binary_same_dtype(rng, name, dt):
    og, th, kind = BINARY[name]
    a, b = lhs_rhs(rng, dt, kind)
    if name == "sub" and dt.is_unsigned:
        a, b = np.maximum(a, b), np.minimum(a, b)  # no wrap-around below 0 (torch's int64 copy would not wrap)
    check_op(og, th, [a, b], [dt, dt], extension=(name, dt.name) in EXTENSIONS)


# ---- binary ops over every pair of dtypes: the promoted dtype, and values

PAIRS = list(itertools.product(ALL, ALL))


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_pair_add_mul_maximum(rng, a, b):
    x, y = draw(rng, a), draw(rng, b)
    if a.is_unsigned or b.is_unsigned:
        x, y = np.abs(x).astype(x.dtype), np.abs(y).astype(y.dtype)
    for name in ("add", "mul", "maximum"):
        og, th, _ = BINARY[name]
        check_op(og, th, [x, y], [a, b], extension=(name, "bool") in EXTENSIONS and a == b == dtypes.bool)


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_pair_result_dtypes(a, b):
    """Only the dtype (no kernel runs): every binary op, against torch.result_type-like calls
    on tiny tensors; uint16..64 against the lattice (test_dtype.py writes it out)."""
    if a in NO_TORCH or b in NO_TORCH:
        pytest.skip("torch 1.13 has no uint16/32/64; test_dtype.py checks the lattice")
    x, y = torch.ones(1, dtype=tdt(a)), torch.ones(1, dtype=tdt(b))
    ox, oy = Tensor.ones(1, dtype=a), Tensor.ones(1, dtype=b)
    for name, (og, th, _) in BINARY.items():
        try:
            want = th(x, y).dtype
        except Exception:  # noqa: BLE001
            continue  # whether onegrad also raises is test_binary_same_dtype's business
        try:
            got = og(ox, oy).dtype
        except Error:
            assert name in ("sub",) and dtypes.bool in (a, b) or (name, "bool") in EXTENSIONS, (name, a, b)
            continue
        assert got == ogdt(want), f"{name}({a}, {b}): {got} != torch {want}"


# ---- Python numbers (weak scalars) and 0-d tensors

SCALARS = [True, 2, -3, 1000, 2.5, -0.75]
SCALAR_OPS = {"add": lambda x, s: x + s, "rsub": lambda x, s: s - x, "mul": lambda x, s: x * s,
              "div": lambda x, s: x / s, "maximum": lambda x, s: x.maximum(s) if isinstance(x, Tensor) else
              torch.maximum(x, torch.tensor(s, dtype=torch.result_type(x, s)))}


def scalar_dtype_difference(name, dt, s):
    """Where onegrad's scalar typing differs from torch's, onegrad's answer (documented)."""
    if dt.is_bool and isinstance(s, int) and not isinstance(s, bool) and name != "div":
        return dtypes.int32  # an int with a bool tensor: default_int (tinygrad), torch int64
    return None


@pytest.mark.parametrize("s", SCALARS, ids=repr)
@pytest.mark.parametrize("dt", TORCH_HAS, ids=str)
@pytest.mark.parametrize("name", list(SCALAR_OPS))
def test_python_scalars(rng, name, dt, s):
    fn = SCALAR_OPS[name]
    a = draw(rng, dt, kind="nonzero")
    if dt.is_unsigned and name == "rsub":
        a = np.minimum(a, 2).astype(a.dtype)
    x = th_tensor(a, dt)
    if name == "maximum" and dt.is_unsigned and type(s) is int and s < 0:
        # torch stores -3 into uint8 as 253; onegrad refuses to wrap it (docs/torch-differences.md)
        with pytest.raises(onegrad.ValueRangeError, match=f"maximum: the value {s} does not fit {dt.name}"):
            fn(og_tensor(a, dt), s)
        return
    try:
        want = fn(x, s)
    except Exception:  # noqa: BLE001
        with pytest.raises(Error):
            fn(og_tensor(a, dt), s).numpy()
        return
    got = fn(og_tensor(a, dt), s)
    diff = scalar_dtype_difference(name, dt, s)
    if diff is not None:
        assert got.dtype == diff
        np.testing.assert_array_equal(got.numpy(), want.numpy().astype(diff.np))
        return
    assert got.dtype == ogdt(want.dtype), f"{got.dtype} != torch {want.dtype}"
    compare(got, values_of(want, got.dtype))


@pytest.mark.parametrize("dt,zero_d,lattice,torch_gives", [
    (dtypes.int8, dtypes.int64, dtypes.int64, dtypes.int8),
    (dtypes.float16, dtypes.float64, dtypes.float64, dtypes.float16),
    (dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.uint8),
    (dtypes.int32, dtypes.float64, dtypes.float64, dtypes.float64),  # a higher category: its own dtype
    (dtypes.bool, dtypes.int64, dtypes.int64, dtypes.int64),
], ids=str)
def test_zero_dim_tensors_follow_the_lattice(dt, zero_d, lattice, torch_gives):
    """torch types a 0-d tensor operand like a Python number (only its category counts); onegrad
    promotes 0-d tensors like any other (the lattice, as JAX): a documented difference."""
    x = torch.ones(3, dtype=tdt(dt)) + torch.tensor(1, dtype=tdt(zero_d))
    assert ogdt(x.dtype) == torch_gives
    assert (Tensor.ones(3, dtype=dt) + Tensor.ones((), dtype=zero_d)).dtype == lattice


# ---- unary ops on every dtype

UNARY = {
    "neg": (Tensor.neg, torch.neg), "reciprocal": (Tensor.reciprocal, torch.reciprocal),
    "trunc": (Tensor.trunc, torch.trunc), "logical_not": (Tensor.logical_not, torch.logical_not),
    "bitwise_not": (Tensor.bitwise_not, torch.bitwise_not), "relu": (Tensor.relu, torch.relu),
    "exp": (Tensor.exp, torch.exp), "exp2": (Tensor.exp2, torch.exp2), "log": (Tensor.log, torch.log),
    "log2": (Tensor.log2, torch.log2), "sqrt": (Tensor.sqrt, torch.sqrt), "sin": (Tensor.sin, torch.sin),
    "cos": (Tensor.cos, torch.cos), "tan": (Tensor.tan, torch.tan), "abs": (Tensor.abs, torch.abs),
    "rsqrt": (Tensor.rsqrt, torch.rsqrt), "square": (Tensor.square, torch.square),
    "sign": (Tensor.sign, torch.sign), "floor": (Tensor.floor, torch.floor), "ceil": (Tensor.ceil, torch.ceil),
    "round": (Tensor.round, torch.round), "erf": (Tensor.erf, torch.erf), "log1p": (Tensor.log1p, torch.log1p),
    "expm1": (Tensor.expm1, torch.expm1), "isnan": (Tensor.isnan, torch.isnan), "isinf": (Tensor.isinf, torch.isinf),
    "isfinite": (Tensor.isfinite, torch.isfinite), "sigmoid": (Tensor.sigmoid, torch.sigmoid),
    "tanh": (Tensor.tanh, torch.tanh), "silu": (Tensor.silu, TF.silu), "gelu": (Tensor.gelu, TF.gelu),
    "mish": (Tensor.mish, TF.mish), "softplus": (Tensor.softplus, TF.softplus),
    "hardswish": (Tensor.hardswish, TF.hardswish), "hardsigmoid": (Tensor.hardsigmoid, TF.hardsigmoid),
    "elu": (Tensor.elu, TF.elu), "leaky_relu": (Tensor.leaky_relu, TF.leaky_relu),
}
POSITIVE = {"log", "log2", "sqrt", "rsqrt", "log1p", "reciprocal"}

# (op, dtype kind) torch rejects and onegrad computes (docs/tensor.md "Promotion vs PyTorch").
UNARY_EXTENSIONS = {}


@pytest.mark.parametrize("dt", ALL, ids=str)
@pytest.mark.parametrize("name", list(UNARY))
def test_unary(rng, name, dt):
    og, th = UNARY[name]
    a = draw(rng, dt, kind="pos" if name in POSITIVE else "any")
    ext = UNARY_EXTENSIONS.get((name, dt.kind))
    rtol, atol = (None, None)
    if dt == dtypes.bfloat16:
        rtol, atol = 2e-2, 2e-2
    check_op(og, th, [a], [dt], extension=ext, rtol=rtol, atol=atol)


# ---- reductions

REDUCE = {"sum": (Tensor.sum, torch.sum), "prod": (Tensor.prod, torch.prod), "max": (Tensor.max, torch.amax),
          "min": (Tensor.min, torch.amin), "mean": (Tensor.mean, torch.mean)}


@pytest.mark.parametrize("dt", ALL, ids=str)
@pytest.mark.parametrize("name", list(REDUCE))
def test_reduce(rng, name, dt):
    og, th = REDUCE[name]
    a = draw(rng, dt)
    if name == "prod":
        a = a[:, :4]  # small products
    # sum and prod of every int int64 holds accumulate in int64 (torch's rule, also for the
    # uint16/uint32 it lacks); uint64 stays uint64
    wdt = dtypes.int64 if name in ("sum", "prod") and dt in (dtypes.uint16, dtypes.uint32) else None
    check_op(lambda t: og(t, axis=1), lambda x: th(x, dim=1), [a], [dt], extension=REDUCE_EXTENSIONS.get((name, dt.kind)),
             want_dtype=wdt)


REDUCE_EXTENSIONS = {}


# ---- casts (C semantics) and bitcast

FLOATS = [dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64]
INTS = [d for d in ALL if d.is_int]


@pytest.mark.parametrize("dst", INTS + [dtypes.bool], ids=str)
@pytest.mark.parametrize("src", FLOATS, ids=str)
def test_cast_float_to_int_truncates(rng, src, dst):
    # in range: truncation toward zero, as torch (and C)
    hi = 120 if dst.itemsize == 1 else 2000
    lo = 0 if dst.is_unsigned else -hi
    a = (np.round(rng.uniform(lo, hi, size=SHAPE) * 4) / 4).astype(np.float32)
    if src in HALF:
        a = np.clip(a, -250, 250)  # exact in float16 and bfloat16 at quarter steps
        a = np.round(a) if src == dtypes.bfloat16 else a
    x = th_tensor(a, src)
    want = x.to(torch.int64 if dst in NO_TORCH else tdt(dst))
    got = og_tensor(a, src).cast(dst)
    assert got.dtype == dst
    np.testing.assert_array_equal(got.numpy(), want.numpy().astype(dst.np))


@pytest.mark.parametrize("dst", INTS, ids=str)
@pytest.mark.parametrize("src", [dtypes.float32, dtypes.float64], ids=str)
def test_cast_float_to_int_out_of_range_saturates(src, dst):
    # torch (C) leaves this undefined; onegrad's kernels saturate and map NaN to 0 (docs/codegen.md)
    a = np.array([1e30, -1e30, np.inf, -np.inf, np.nan, 3e9, -3e9, 1e19, 300.7, -5.5, -0.9, 0.9], src.np)
    info = np.iinfo(dst.np)
    # exact, in Python ints: truncate the float (as stored in src), then clamp to the dtype's range
    want = [0 if np.isnan(v) else info.max if v == np.inf else info.min if v == -np.inf else
            min(max(int(math.trunc(float(v))), int(info.min)), int(info.max)) for v in a]
    got = Tensor(a).cast(dst).numpy()
    assert [int(v) for v in got] == want


@pytest.mark.parametrize("dst", ALL, ids=str)
@pytest.mark.parametrize("src", [d for d in ALL if not d.is_float], ids=str)
def test_cast_int_and_bool(rng, src, dst):
    # ints wrap modulo 2^bits (torch and C agree), bool is x != 0, ints to floats round
    a = rng.integers(-70000 if not src.is_unsigned else 0, 70000, size=SHAPE)
    a = (a != 0) & (a % 3 == 0) if src.is_bool else a.astype(src.np)
    if src in NO_TORCH or dst in NO_TORCH:
        want = a.astype(dst.np) if not dst.is_bool else a != 0
        if dst == dtypes.bfloat16:
            want = torch.from_numpy(a.astype(np.float64)).to(torch.bfloat16).float().numpy()
    else:
        want = values_of(torch.from_numpy(a).to(tdt(dst)), dst)
    got = og_tensor(a, src).cast(dst)
    assert got.dtype == dst
    np.testing.assert_array_equal(got.numpy(), want)


SAME_SIZE = [(a, b) for a, b in itertools.product(ALL, ALL) if a.itemsize == b.itemsize and not a.is_bool and not b.is_bool]


@pytest.mark.parametrize("src,dst", SAME_SIZE, ids=[f"{a}-{b}" for a, b in SAME_SIZE])
def test_bitcast(rng, src, dst):
    bits = rng.integers(0, 256, size=SHAPE + (src.itemsize,), dtype=np.uint8)
    raw = bits.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[src.itemsize]).reshape(SHAPE)
    if src == dtypes.bfloat16:
        t = Tensor(raw.astype(np.uint16)).bitcast(dtypes.bfloat16)
    else:
        t = Tensor(raw.view(src.np))
    got = t.bitcast(dst)
    assert got.dtype == dst
    # bfloat16 reads out as float32, which would quiet a signaling NaN: read its bits instead
    g = got.bitcast(dtypes.uint16).numpy() if dst == dtypes.bfloat16 else got.numpy()
    # the same bits come back (compared as unsigned ints: NaN payloads count)
    np.testing.assert_array_equal(np.ascontiguousarray(g).view(raw.dtype), raw)
    if src in TORCH_HAS and dst in TORCH_HAS and src != dtypes.bfloat16:
        want = torch.from_numpy(raw.view(src.np)).view(tdt(dst))
        if dst != dtypes.bfloat16:
            np.testing.assert_array_equal(np.ascontiguousarray(got.numpy()).view(raw.dtype),
                                          want.numpy().view(raw.dtype))


def test_bitcast_itemsize_error():
    # torch 1.13's view(dtype) reshapes the last axis when the sizes differ; onegrad's bitcast is
    # elementwise and refuses
    with pytest.raises(TypeError, match=r"bitcast: cannot bitcast int32 \(4 bytes\) to float16 \(2 bytes\)"):
        Tensor.ones(3, dtype=dtypes.int32).bitcast(dtypes.float16)


# ---- float16 / bfloat16 math against torch (float32 computation, rounded)

HALF_MATH = ["exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid", "erf", "log1p", "expm1",
             "silu", "gelu", "mish", "softplus", "hardswish", "hardsigmoid", "elu", "leaky_relu", "reciprocal",
             "floor", "ceil", "round", "trunc", "abs", "neg", "sign", "square", "relu"]
# rounding each step of a composition in bfloat16 (8 bits) costs a few of its ulps (2^-8)
HALF_TOL = {"float16": (4e-3, 2e-3), "bfloat16": (3e-2, 2e-2)}


@pytest.mark.parametrize("dt", HALF, ids=str)
@pytest.mark.parametrize("name", HALF_MATH)
def test_half_math(rng, name, dt):
    og, th = UNARY[name]
    lo, hi = (0.05, 8.0) if name in POSITIVE else (-6.0, 6.0)
    a = rng.uniform(lo, hi, size=(16, 16)).astype(np.float32)
    x = torch.from_numpy(a).to(tdt(dt))   # the inputs, rounded to the half type
    want = th(x.float()).to(tdt(dt)).float().numpy()
    got = og(Tensor(x.float().numpy(), dtype=dt))
    assert got.dtype == dt
    rtol, atol = HALF_TOL[dt.name]
    np.testing.assert_allclose(got.numpy(), want, rtol=rtol, atol=atol)
