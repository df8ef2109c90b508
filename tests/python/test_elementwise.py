"""Elementwise ops against numpy: every binary op through its operator and method, with tensors and
Python numbers on either side, across dtypes and broadcast shapes; unary ops; where; cast and
bitcast. Expected values are numpy's on operands already cast to onegrad's promoted dtype, so the
values test the kernels and test_dtype.py tests the promotion."""

import itertools
import operator

import numpy as np
import pytest
from helpers import DTYPES, check, ids, make

import onegrad
from onegrad import Tensor, _C, dtypes
from onegrad.dtype import from_name


def promoted(a, b):
    return from_name(_C.promote_types(a.name, b.name))


def weak_dtype(dt, s, name=None):
    """docs/python.md: a number takes a float tensor's dtype; an int takes an int tensor's; a bool
    takes any; otherwise the default of its kind (float32, int32). True division of an int or bool
    tensor computes in float32, so the number is float32 there (torch)."""
    if name == "div" and not dt.is_float:
        return dtypes.float32
    if isinstance(s, bool) or dt.is_float:
        return dt
    if isinstance(s, int):
        return dtypes.int32 if dt.is_bool else dt
    return dtypes.float32


# name: (operator, numpy function, which dtypes it takes)
ANY = lambda d: True  # noqa: E731
NOT_BOOL = lambda d: not d.is_bool  # noqa: E731
BITS = lambda d: d.is_int or d.is_bool  # noqa: E731
INTS = lambda d: d.is_int  # noqa: E731
BINARY = {
    "add": (operator.add, np.add, ANY),
    "sub": (operator.sub, np.subtract, NOT_BOOL),
    "mul": (operator.mul, np.multiply, ANY),
    "div": (operator.truediv, np.true_divide, ANY),
    "idiv": (operator.floordiv, np.floor_divide, NOT_BOOL),
    "mod": (operator.mod, np.mod, NOT_BOOL),
    "pow": (operator.pow, np.power, NOT_BOOL),
    "maximum": (Tensor.maximum, np.maximum, ANY),
    "minimum": (Tensor.minimum, np.minimum, ANY),
    "lt": (operator.lt, np.less, ANY),
    "le": (operator.le, np.less_equal, ANY),
    "gt": (operator.gt, np.greater, ANY),
    "ge": (operator.ge, np.greater_equal, ANY),
    "eq": (operator.eq, np.equal, ANY),
    "ne": (operator.ne, np.not_equal, ANY),
    "bitwise_and": (operator.and_, np.bitwise_and, BITS),
    "bitwise_or": (operator.or_, np.bitwise_or, BITS),
    "bitwise_xor": (operator.xor, np.bitwise_xor, BITS),
    "lshift": (operator.lshift, np.left_shift, INTS),
    "rshift": (operator.rshift, np.right_shift, INTS),
}
COMPARISONS = {"lt", "le", "gt", "ge", "eq", "ne"}


def operands(name, shape_a, shape_b, dt_a, dt_b):
    """numpy operands the op is defined on without undefined behaviour: divisors are nonzero, int
    exponents and shift amounts small and non-negative, shifted-left values non-negative."""
    b_kw = {}
    a_kw = {}
    if name in ("idiv", "mod", "div"):
        b_kw = dict(nonzero=True)
    if name == "pow":
        a_kw = dict(low=0.5, high=3.0) if dt_a.is_float else dict(low=-3 if not dt_a.is_unsigned else 0, high=3)
        b_kw = dict(low=-2.0, high=2.0) if promoted(dt_a, dt_b).is_float and dt_b.is_float else dict(low=0, high=3)
    if name in ("lshift", "rshift"):
        b_kw = dict(low=0, high=3)
        if name == "lshift":
            a_kw = dict(low=0)
    return make(shape_a, dt_a, seed=1, **a_kw), make(shape_b, dt_b, seed=2, **b_kw)


def expected(name, a, b, dt_a, dt_b):
    r = promoted(dt_a, dt_b)
    if name == "div" and not r.is_float:
        r = dtypes.float32
    fn = BINARY[name][1]
    with np.errstate(all="ignore"):
        out = fn(a.astype(r.np), b.astype(r.np))
    return out, (dtypes.bool if name in COMPARISONS else r)


OPS = list(BINARY)
SAME_DTYPE_CASES = [(n, d) for n in OPS for d in DTYPES if BINARY[n][2](d)]


@pytest.mark.parametrize("name,dt", SAME_DTYPE_CASES, ids=[f"{n}-{d}" for n, d in SAME_DTYPE_CASES])
def test_binary_every_dtype(name, dt):
    a, b = operands(name, (2, 3), (3,), dt, dt)
    want, rdt = expected(name, a, b, dt, dt)
    op = BINARY[name][0]
    check(op(Tensor(a, dtype=dt), Tensor(b, dtype=dt)), want, dtype=rdt)
    check(getattr(Tensor(a, dtype=dt), name)(Tensor(b, dtype=dt)), want, dtype=rdt)  # the method form


SHAPE_PAIRS = [((2, 3), (2, 3)), ((3, 1), (1, 4)), ((), (2, 2)), ((2, 2), ()), ((), ()), ((2, 0), (1,)),
               ((0,), ()), ((4, 1, 3), (2, 1))]
SHAPE_CASES = [(n, s, d) for n in OPS for s in SHAPE_PAIRS for d in (dtypes.int32, dtypes.float32)
               if BINARY[n][2](d)]


@pytest.mark.parametrize("name,shapes,dt", SHAPE_CASES, ids=[f"{n}-{s}-{d}" for n, s, d in SHAPE_CASES])
def test_binary_broadcast_shapes(name, shapes, dt):
    a, b = operands(name, shapes[0], shapes[1], dt, dt)
    want, rdt = expected(name, a, b, dt, dt)
    check(BINARY[name][0](Tensor(a, dtype=dt), Tensor(b, dtype=dt)), want, dtype=rdt)


MIXED = [(n, x, y) for n in ("add", "mul", "div", "maximum", "lt", "eq") for x, y in itertools.product(DTYPES, DTYPES)
         if x != y]


@pytest.mark.parametrize("name,dt_a,dt_b", MIXED, ids=[f"{n}-{x}-{y}" for n, x, y in MIXED])
def test_binary_mixed_dtypes(name, dt_a, dt_b):
    a, b = operands(name, (3,), (3,), dt_a, dt_b)
    want, rdt = expected(name, a, b, dt_a, dt_b)
    check(BINARY[name][0](Tensor(a, dtype=dt_a), Tensor(b, dtype=dt_b)), want, dtype=rdt)


SCALARS = {"int": 3, "neg_int": -2, "float": 1.5, "bool": True}
SCALAR_CASES = [(n, d, k) for n in OPS for d in DTYPES for k in SCALARS if BINARY[n][2](d)]


def _scalar_ok(name, dt, s, reflected):
    """Skips the combinations that are undefined or refused, rather than hiding them in the data."""
    sdt = weak_dtype(dt, s, name)
    if name == "sub" and isinstance(s, bool):
        return False  # refused, as torch: test_sub_of_a_bool_number_is_refused
    r = promoted(dt, sdt)
    if not BINARY[name][2](r):
        return False
    if name in ("lshift", "rshift") and (not reflected and s < 0):
        return False
    if name == "pow" and not r.is_float and not reflected and s < 0:
        return False  # negative int exponent: documented as 1/a truncated; numpy refuses
    if name in ("idiv", "mod", "div") and not reflected and s == 0:
        return False
    return True


# Where a number that does not fit an int tensor's dtype wraps, as torch (the exact result wrapped);
# every other op refuses it (tests/python/test_int_literals.py).
RING_OPS = {"add", "sub", "mul", "bitwise_and", "bitwise_or", "bitwise_xor"}


@pytest.mark.parametrize("name,dt,kind", SCALAR_CASES, ids=[f"{n}-{d}-{k}" for n, d, k in SCALAR_CASES])
def test_binary_with_python_scalar(name, dt, kind):
    s = SCALARS[kind]
    op, sdt = BINARY[name][0], weak_dtype(dt, s, name)
    if (sdt.is_int and type(s) is int and name not in RING_OPS
            and not np.iinfo(sdt.np).min <= s <= np.iinfo(sdt.np).max):
        with pytest.raises(onegrad.ValueRangeError, match=f"the value {s} does not fit {sdt.name}"):
            op(Tensor(operands(name, (2, 3), (), dt, dt)[0], dtype=dt), s)
        return
    sarr = np.array(s).astype(sdt.np)
    for reflected in (False, True):
        if not _scalar_ok(name, dt, s, reflected) or (reflected and name in ("maximum", "minimum")):
            continue
        if reflected:
            # The tensor is the divisor / exponent / shift amount now: give it that data.
            t = operands(name, (), (2, 3), dt, dt)[1]
            want, rdt = expected(name, sarr, t, sdt, dt)
            got = op(s, Tensor(t, dtype=dt))  # Python calls Tensor.__rsub__ etc. (or __gt__ for <)
        else:
            t = operands(name, (2, 3), (), dt, dt)[0]
            want, rdt = expected(name, t, sarr, dt, sdt)
            got = op(Tensor(t, dtype=dt), s)
        check(got, want, dtype=rdt)


def test_reflected_operators():
    t = Tensor([1.0, 2.0, 4.0])
    check(10 - t, np.array([9, 8, 6], np.float32))
    check(1 / t, np.array([1, 0.5, 0.25], np.float32))
    check(2 ** t, np.array([2, 4, 16], np.float32))
    check(7 // t, np.array([7, 3, 1], np.float32))
    check(7 % t, np.array([0, 1, 3], np.float32))
    check(3 < t, np.array([False, False, True]))
    check(2 == t, np.array([False, True, False]))
    i = Tensor([1, 2, 3])
    check(6 & i, np.array([0, 2, 2], np.int32))
    check(1 << i, np.array([2, 4, 8], np.int32))
    check(-16 >> i, np.array([-8, -4, -2], np.int32))
    check(np.array([1, 2, 3], np.int32) + i, np.array([2, 4, 6], np.int32))  # numpy defers to Tensor
    check([1, 2, 3] * i, np.array([1, 4, 9], np.int32))


@pytest.mark.parametrize("dt", [dtypes.int8, dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64], ids=str)
def test_floor_division_and_modulo_signs(dt):
    # Python/numpy floor semantics: the remainder has the divisor's sign.
    a = np.array([7, -7, 7, -7, 0, 6, -6], dt.np)
    b = np.array([2, 2, -2, -2, 3, -3, 4], dt.np)
    check(Tensor(a) // Tensor(b), a // b)
    check(Tensor(a) % Tensor(b), a % b)


def test_pow_special_values():
    base = np.array([-2.0, -2.0, -8.0, 0.0, 0.0, 2.0, -1.5, np.nan], np.float32)
    exp = np.array([2.0, 3.0, 1 / 3, 0.0, 2.0, -1.0, 0.5, 0.0], np.float32)
    with np.errstate(all="ignore"):
        check(Tensor(base) ** Tensor(exp), base**exp)
    ints = np.array([2, -3, 0, 1, -1, 5], np.int32)
    e = np.array([10, 3, 0, 7, 3, 0], np.int32)
    check(Tensor(ints) ** Tensor(e), ints**e)


def test_int_wraparound_like_numpy():
    a = np.array([100, -100, 127], np.int8)
    check(Tensor(a) + Tensor(a), a + a)
    u = np.array([0, 1, 200], np.uint8)
    check(Tensor(u) - 1, u - np.uint8(1))
    check(Tensor(u) * 2, u * np.uint8(2))


def test_float_division_by_zero():
    with np.errstate(all="ignore"):
        a = np.array([1.0, -1.0, 0.0], np.float32)
        check(Tensor(a) / 0.0, a / np.float32(0))


# ---- unary

UNARY = {
    # name: (numpy function, dtypes it takes, data range, result is float)
    "neg": (np.negative, NOT_BOOL, None, False),
    "relu": (lambda x: np.maximum(x, np.zeros_like(x)), NOT_BOOL, None, False),
    "abs": (np.abs, NOT_BOOL, None, False),
    "trunc": (np.trunc, NOT_BOOL, None, False),
    "recip": (np.reciprocal, ANY, "nonzero", True),
    "exp": (np.exp, ANY, (-4, 4), True),
    "exp2": (np.exp2, ANY, (-4, 4), True),
    "log": (np.log, ANY, (0.1, 8), True),
    "log2": (np.log2, ANY, (0.1, 8), True),
    "sqrt": (np.sqrt, ANY, (0, 8), True),
    "sin": (np.sin, ANY, (-4, 4), True),
    "logical_not": (np.logical_not, ANY, None, False),
    "bitwise_not": (np.invert, BITS, None, False),
}
UNARY_CASES = [(n, d) for n in UNARY for d in DTYPES if UNARY[n][1](d)]
UNARY_TOL = {"float16": (4e-3, 4e-3), "float32": (3e-6, 1e-6), "float64": (1e-12, 1e-12)}


@pytest.mark.parametrize("name,dt", UNARY_CASES, ids=[f"{n}-{d}" for n, d in UNARY_CASES])
def test_unary(name, dt):
    fn, _, rng, to_float = UNARY[name]
    kw = {}
    if rng == "nonzero":
        kw = dict(nonzero=True)
    elif rng is not None and not dt.is_bool:
        kw = dict(low=rng[0] if not dt.is_unsigned else max(rng[0], 0), high=rng[1])
        if dt.is_int:
            kw = dict(low=int(np.ceil(kw["low"])), high=int(rng[1]))
    a = make((2, 3), dt, **kw)
    # Transcendentals, recip: ints and bool become float32 first (tinygrad, torch).
    rdt = dtypes.float32 if to_float and not dt.is_float else (dtypes.bool if name == "logical_not" else dt)
    with np.errstate(all="ignore"):
        want = fn(a.astype(rdt.np)) if name not in ("logical_not",) else fn(a)
    rtol, atol = UNARY_TOL.get(rdt.name, (0, 0))
    check(getattr(Tensor(a, dtype=dt), name)(), want, dtype=rdt, rtol=rtol, atol=atol)


@pytest.mark.parametrize("dt", [dtypes.int8, dtypes.float32, dtypes.bool], ids=str)
def test_sub_of_a_bool_number_is_refused(dt):
    # torch: "Subtraction, the `-` operator, with a bool tensor is not supported"
    t = Tensor.ones(3, dtype=dt)
    for f in (lambda: t - True, lambda: True - t, lambda: t.sub(False)):
        with pytest.raises(onegrad.DTypeError, match=r"sub: not supported for bool \(use bitwise_xor or logical_not\)"):
            f()


@pytest.mark.parametrize("name", ["abs", "relu", "trunc", "floor", "ceil", "round"])
def test_bool_refused_like_torch(name):
    with pytest.raises(onegrad.DTypeError, match=rf"{name}: not supported for bool"):
        getattr(Tensor([True, False]), name)()


@pytest.mark.parametrize("name", ["silu", "gelu", "mish", "softplus", "elu", "leaky_relu", "hardswish", "hardsigmoid"])
@pytest.mark.parametrize("dt", [dtypes.int32, dtypes.uint8, dtypes.bool], ids=str)
def test_float_only_activations_refuse_ints(name, dt):
    with pytest.raises(onegrad.DTypeError, match=rf"{name}: expected a floating-point tensor, got {dt.name}"):
        getattr(Tensor.ones(3, dtype=dt), name)()


def test_square_of_bool_is_int64():
    check(Tensor([True, False]).square(), np.array([1, 0], np.int64), dtype=dtypes.int64)


def test_true_division_by_a_number_computes_in_float32():
    # torch: int8 / 1000 is float32 with 1000 exact (the number does not wrap to int8 first)
    check(Tensor(np.array([100, -50], np.int8)) / 1000, np.array([0.1, -0.05], np.float32), dtype=dtypes.float32)
    check(Tensor(np.array([3, 6], np.uint8)) / -3, np.array([-1, -2], np.float32), dtype=dtypes.float32)
    check(6 / Tensor(np.array([3, 2], np.uint8)), np.array([2, 3], np.float32), dtype=dtypes.float32)


@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3), (4,)], ids=str)
def test_unary_shapes(shape):
    a = make(shape, dtypes.float32, low=0.5, high=2)
    check(Tensor(a).exp(), np.exp(a), rtol=3e-6)
    check(-Tensor(a), -a)
    check(abs(Tensor(-a)), a)
    check(Tensor(a).sqrt().log2(), np.log2(np.sqrt(a)), rtol=3e-6, atol=1e-6)


def test_unary_operators():
    i = Tensor([5, -3, 0], dtype=dtypes.int8)
    check(-i, np.array([-5, 3, 0], np.int8))
    check(~i, ~np.array([5, -3, 0], np.int8))
    check(abs(i), np.array([5, 3, 0], np.int8))
    check(+i, np.array([5, -3, 0], np.int8))
    b = Tensor([True, False])
    check(~b, np.array([False, True]))  # ~ on bool is logical not, as numpy
    check(Tensor([-128], dtype=dtypes.int8).abs(), np.abs(np.array([-128], np.int8)))  # stays -128, as numpy
    check(Tensor([200], dtype=dtypes.uint8).neg(), -np.array([200], np.uint8))


def test_float_specials():
    a = np.array([np.inf, -np.inf, np.nan, -0.0, 0.0], np.float32)
    with np.errstate(all="ignore"):
        check(Tensor(a).exp(), np.exp(a))
        check(Tensor(a).relu(), np.maximum(a, 0))
        check(Tensor(a).trunc(), np.trunc(a))
        check(Tensor(a).recip(), 1 / a)
        check(Tensor(np.array([-1.0, 0.0], np.float32)).log(), np.log(np.array([-1.0, 0.0], np.float32)))
    check(Tensor(a) == Tensor(a), a == a)  # NaN != NaN
    check(Tensor(a).maximum(1.0), np.maximum(a, np.float32(1)))  # NaN propagates


# ---- where, cast, bitcast

@pytest.mark.parametrize("dt", DTYPES, ids=ids(DTYPES))
def test_where(dt):
    c = make((2, 3), dtypes.bool)
    x, y = make((2, 3), dt, seed=1), make((3,), dt, seed=2)
    check(Tensor(c).where(Tensor(x), Tensor(y)), np.where(c, x, y), dtype=dt)


def test_where_scalars_and_promotion():
    c = np.array([True, False, True])
    x = np.array([1.5, 2.5, 3.5], np.float16)
    check(Tensor(c).where(Tensor(x), 0), np.where(c, x, np.float16(0)))  # number takes the tensor's dtype
    check(Tensor(c).where(7, Tensor(x)), np.where(c, np.float16(7), x))
    check(Tensor(c).where(1, 2), np.where(c, 1, 2).astype(np.int32))
    check(Tensor(c).where(1, 2.5), np.where(c, 1, 2.5).astype(np.float32))
    check(Tensor(c).where(Tensor([1], dtype=dtypes.int8), Tensor([0.5])), np.where(c, 1, 0.5).astype(np.float32))
    check(Tensor([2, 0, -1]).where(1.0, 0.0), np.array([1, 0, 1], np.float32))  # any nonzero is true


CASTS = [(a, b) for a in DTYPES for b in DTYPES]


@pytest.mark.parametrize("src,dst", CASTS, ids=[f"{a}-{b}" for a, b in CASTS])
def test_cast(src, dst):
    # values every dtype holds, so numpy's casts are defined and agree with C's
    a = make((7,), src, low=0, high=5) if not src.is_bool else make((7,), src)
    if src.is_float:
        a = (a * np.array(1.0, src.np)).astype(src.np)  # non-integral floats truncate toward zero
    check(Tensor(a, dtype=src).cast(dst), a.astype(dst.np), dtype=dst)


def test_cast_float_to_int_truncates_and_bool_is_nonzero():
    a = np.array([-2.7, -0.5, 0.0, 0.5, 2.7], np.float32)
    check(Tensor(a).cast(dtypes.int32), a.astype(np.int32))
    check(Tensor(a).cast(dtypes.bool), a.astype(np.bool_))
    check(Tensor(a).int(), a.astype(np.int32))
    check(Tensor(a).half(), a.astype(np.float16))
    check(Tensor(a).bool(), a.astype(np.bool_))


def test_bfloat16_arithmetic():
    a = np.array([1.0, 2.5, -3.0], np.float32)
    t = Tensor(a, dtype=dtypes.bfloat16)
    check(t * 2, a * 2, dtype=dtypes.bfloat16)
    check(t + Tensor(a, dtype=dtypes.float16), a + a, dtype=dtypes.float32)
    check(t.cast(dtypes.float32), a)


@pytest.mark.parametrize("src,dst", [(dtypes.float32, dtypes.int32), (dtypes.int32, dtypes.float32),
                                     (dtypes.float32, dtypes.uint32), (dtypes.int8, dtypes.uint8),
                                     (dtypes.float16, dtypes.int16), (dtypes.float64, dtypes.int64),
                                     (dtypes.uint8, dtypes.bool), (dtypes.int16, dtypes.float16)], ids=str)
def test_bitcast(src, dst):
    # uint8 -> bool only for 0 and 1, the two bytes that are bools
    a = make((5,), src, low=0, high=1) if dst.is_bool else make((5,), src)
    check(Tensor(a, dtype=src).bitcast(dst), a.view(dst.np), dtype=dst)


def test_bitcast_bfloat16():
    t = Tensor([1.0, -2.5, 3.0], dtype=dtypes.bfloat16)
    bits = (t.numpy().view(np.uint32) >> 16).astype(np.uint16)  # numpy() widened it exactly
    check(t.bitcast(dtypes.uint16), bits)
    check(Tensor(bits).bitcast(dtypes.bfloat16), t.numpy(), dtype=dtypes.bfloat16)


def test_bitcast_needs_the_same_itemsize():
    with pytest.raises(onegrad.DTypeError, match="bitcast"):
        Tensor([1.0]).bitcast(dtypes.int64)
