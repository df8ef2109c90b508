"""onegrad.tir: the expression and call spellings TVM's tests use (docs/tir.md "Parser"): bit
builtins, keyword arguments, the aliases T.broadcast/T.ramp/T.likely/T.assume/T.reinterpret,
A.vload/A.vstore, Ramp strides cast to the base's type. Each program is parsed, checked, printed
back to the same text, and run compiled and interpreted on the same inputs: both give the numpy
oracle's result."""

import subprocess

import numpy as np
import pytest

from onegrad import tir
from onegrad.errors import TirSyntaxError, TirTypeError

from helpers import onegrad_binary

HEADER = "from tvm.script import ir as I\nfrom tvm.script import tir as T\n\n"


def program(body: str) -> str:
    return HEADER + "@I.ir_module\nclass Module:\n" + body


def run_both(src, name, make_args):
    """Parses, checks, round-trips and runs `name` compiled and interpreted on make_args() (fresh
    arrays each time); asserts both leave the same memory and return the same value, and that the
    function really compiles. Returns the compiled run's arguments and the parsed module."""
    mod = tir.parse(src)
    mod.check()
    text = mod.script()
    assert tir.parse(text).script() == text
    f = mod[name]
    assert f.mode == "compiled", f.source
    interpreted, compiled = make_args(), make_args()
    r_i = f.interpret(*interpreted)
    r_c = f(*compiled)
    assert r_i == r_c
    for a, b in zip(interpreted, compiled):
        if isinstance(a, np.ndarray):
            np.testing.assert_array_equal(a, b)
    return compiled, mod


def error_line(src: str, needle: str) -> int:
    return next(i for i, l in enumerate(src.splitlines(), 1) if needle in l)


def assert_error(src, needle, message, error=TirSyntaxError):
    """Parsing (and for a TirTypeError, checking) src raises `error` with `message`, at the line
    holding `needle`."""
    with pytest.raises(error) as e:
        tir.parse(src).check()
    assert message in str(e.value)
    assert f"line {error_line(src, needle)}," in str(e.value)


# ---- bit builtins ----

BITS = program('''    @T.prim_func
    def bits(A: T.Buffer((6,), "int32"), B: T.Buffer((6,), "int32"), k: T.int32):
        for i in range(6):
            B[i] = T.shift_left(A[i], k) + T.shift_right(A[i], 1) + T.bitwise_and(A[i], 6) + T.bitwise_or(A[i], 1) + T.bitwise_xor(A[i], k) + T.bitwise_not(A[i])
''')


def test_bit_builtins_match_numpy():
    a = np.array([0, 1, -7, 12345, -2**31, 2**31 - 1], np.int32)
    (_, b, _), mod = run_both(BITS, "bits", lambda: (a.copy(), np.zeros(6, np.int32), 3))
    with np.errstate(over="ignore"):
        want = (a << 3) + (a >> 1) + (a & 6) + (a | 1) + (a ^ 3) + ~a
    np.testing.assert_array_equal(b, want)
    # printed as the operators they are
    assert "A[i] << k" in mod.script() and "~A[i]" in mod.script()


def test_bit_builtins_on_unsigned_bytes_match_numpy():
    src = program('''    @T.prim_func
    def nibbles(W: T.Buffer((8,), "uint32"), O: T.Buffer((8, 8), "uint8")):
        for i, j in T.grid(8, 8):
            O[i, j] = T.Cast("uint8", T.bitwise_and(T.shift_right(W[i], T.Cast("uint32", j * 4)), T.uint32(15)))
''')
    w = np.array([0, 1, 0xFFFFFFFF, 0x12345678, 0x80000000, 0xDEADBEEF, 7, 0x0F0F0F0F], np.uint32)
    (_, o), _ = run_both(src, "nibbles", lambda: (w.copy(), np.zeros((8, 8), np.uint8)))
    want = ((w[:, None] >> (np.arange(8, dtype=np.uint32) * 4)[None, :]) & 15).astype(np.uint8)
    np.testing.assert_array_equal(o, want)


@pytest.mark.parametrize("call, message", [
    ("T.bitwise_not(A[i], 2)", "T.bitwise_not takes 1 positional arguments, got 2"),
    ("T.no_such_fn()", "unknown function 'T.no_such_fn'"),  # not a TVM-internal intrinsic
])
def test_bad_calls_are_syntax_errors(call, message):
    assert_error(BITS.replace("T.bitwise_not(A[i])", call), call, message)


def test_shift_of_a_float_is_a_type_error_naming_the_line():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = T.shift_left(A[i], T.float32(1))
''')
    assert_error(src, 'T.shift_left', "tir.shift_left needs integer operands, not float32", TirTypeError)


@pytest.mark.parametrize("name", ["T.ptx_ldmatrix", "T.tvm_stack_alloca", "T.vscale"])
def test_tvm_internal_intrinsics_are_named(name):
    src = BITS.replace("T.bitwise_not(A[i])", name + "()")
    assert_error(src, name, f"'{name}' is a TVM-internal intrinsic, not supported")


# ---- keyword arguments ----

def test_keyword_dtype_of_cast_and_allocate():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "int32")):
        buf = T.allocate([4], dtype="float32", scope="global")
        S = T.Buffer((4,), data=buf)
        for i in range(4):
            S[i] = A[i] * T.float32(2)
        for i in range(4):
            B[i] = T.cast(S[i], dtype="int32") + T.cast(T.floor(A[i]), "int32")
''')
    a = np.array([1.25, -2.5, 3.75, 100.5], np.float32)
    (_, b), mod = run_both(src, "f", lambda: (a.copy(), np.zeros(4, np.int32)))
    np.testing.assert_array_equal(b, np.trunc(a * 2).astype(np.int32) + np.floor(a).astype(np.int32))
    # the keyword form parses to what the positional form does
    positional = tir.parse(src.replace('dtype="float32", scope=', '"float32", ').replace('dtype="int32"', '"int32"'))
    assert positional.script() == mod.script()


@pytest.mark.parametrize("call, printed", [
    ('T.call_extern("handle", "f", A.data)', 'T.call_extern("handle", "f", A.data)'),
    ('T.call_extern("f", A.data, dtype="handle")', 'T.call_extern("handle", "f", A.data)'),
    ('T.call_extern("f", A.data, dtype="")', 'T.call_extern("void", "f", A.data)'),  # TVM's DataType(""): void
])
def test_keyword_dtype_of_call_extern_goes_first(call, printed):
    src = program(f'''    @T.prim_func
    def f(A: T.Buffer((4,), "float32")):
        T.evaluate({call})
''')
    mod = tir.parse(src)
    mod.check()
    text = mod.script()
    assert printed in text
    assert tir.parse(text).script() == text


def test_keyword_dtype_of_call_pure_extern_and_call_intrin():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((4,), "float32")):
        A[0] = T.call_pure_extern("expf", A[1], dtype="float32")
        A[1] = T.call_intrin(op="tir.exp", dtype="float32") if False else A[2]
''')
    with pytest.raises(TirSyntaxError) as e:  # call_intrin still needs its op positionally
        tir.parse(src)
    assert "T.call_intrin needs a dtype and an op name" in str(e.value)
    mod = tir.parse(src.replace('T.call_intrin(op="tir.exp", dtype="float32") if False else A[2]',
                                'T.call_intrin("tir.exp", A[2], dtype="float32")'))
    text = mod.script()
    assert 'T.call_pure_extern("float32", "expf", A[1])' in text
    assert "T.exp(A[2])" in text
    assert tir.parse(text).script() == text


def test_keyword_dtype_of_a_builtin_is_ignored_as_tvm_does():
    # TVMScript's _op_wrapper drops dtype= (TVM's tests write T.log2(x, dtype="float64")): the
    # builtin's type comes from its arguments
    src = program('''    @T.prim_func
    def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = T.exp2(A[i], dtype="float64") + T.if_then_else(i < 2, A[i], T.float32(1), dtype="int32")
''')
    a = np.array([0.5, -1, 3, 10], np.float32)
    (_, b), mod = run_both(src, "f", lambda: (a.copy(), np.zeros(4, np.float32)))
    assert "T.exp2(A[i]) + T.if_then_else(i < 2, A[i], T.float32(1.0))" in mod.script()
    np.testing.assert_allclose(b, np.exp2(a) + np.where(np.arange(4) < 2, a, 1), rtol=2e-7)


def test_cast_without_a_dtype_is_an_error():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "int32")):
        B[0] = T.cast(A[0])
''')
    assert_error(src, 'T.cast', "T.cast needs a dtype")


# ---- aliases: T.broadcast, T.ramp, T.likely, T.assume ----

def test_broadcast_and_ramp_aliases_match_numpy():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        for i in range(4):
            B[T.ramp(i * 4, 1, 4)] = A[T.ramp(i * 4, 1, 4)] * T.broadcast(T.float32(3), 4) + T.broadcast(1.0, 4)
''')
    a = np.arange(16, dtype=np.float32) - 5
    (_, b), mod = run_both(src, "f", lambda: (a.copy(), np.zeros(16, np.float32)))
    np.testing.assert_array_equal(b, a * 3 + 1)
    same = tir.parse(src.replace("T.ramp", "T.Ramp").replace("T.broadcast", "T.Broadcast"))
    assert same.script() == mod.script()


def test_likely_and_assume_match_numpy():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((10,), "float32"), B: T.Buffer((8,), "float32")):
        T.assume(A[0] == T.float32(5))
        for i in range(8):
            B[i] = T.if_then_else(T.likely(1 <= i, dtype="bool") and T.likely(i < 7), A[i - 1] + A[i + 1], T.float32(0))
''')
    a = np.arange(10, dtype=np.float32) * 1.5
    (_, b), mod = run_both(src, "f", lambda: (a.copy(), np.zeros(8, np.float32)))
    want = np.zeros(8, np.float32)
    want[1:7] = a[0:6] + a[2:8]
    np.testing.assert_array_equal(b, want)
    text = mod.script()
    assert "T.likely(1 <= i)" in text and "T.assume(A[0] == T.float32(5.0))" in text


def test_assume_is_not_evaluated():
    # TVM removes T.assume before code generation: its condition is never evaluated, so an
    # out-of-bounds load inside it is no fault, compiled or interpreted.
    src = program('''    @T.prim_func
    def f(A: T.Buffer((4,), "int32")):
        T.assume(A[7] == 0)
        A[0] = 1
''')
    (a,), _ = run_both(src, "f", lambda: (np.zeros(4, np.int32),))
    np.testing.assert_array_equal(a, [1, 0, 0, 0])


def test_assume_of_an_int_is_a_type_error():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((4,), "int32")):
        T.assume(A[0])
''')
    assert_error(src, 'T.assume', "tir.assume needs a bool scalar condition, not int32", TirTypeError)


# ---- T.reinterpret ----

REINTERPRET = program('''    @T.prim_func
    def f(A: T.Buffer((4,), "uint8"), F: T.Buffer((3,), "float32"), W: T.Buffer((2,), "int64"),
          B: T.Buffer((1,), "int32"), G: T.Buffer((3,), "int32"), H: T.Buffer((8,), "int16"), D: T.Buffer((2,), "float64")):
        a_u8x4 = A.vload([0], "uint8x4")
        a_i32: T.int32 = T.reinterpret(a_u8x4, dtype="int32")
        B[0] = a_i32
        for i in range(3):
            G[i] = T.reinterpret("int32", F[i])
        H[0:8] = T.reinterpret("int16x8", W[0:2])
        for i in range(2):
            D[i] = T.reinterpret("float64", W[i])
''')


def test_reinterpret_matches_numpy_views():
    a = np.array([0x78, 0x56, 0x34, 0x92], np.uint8)
    fl = np.array([1.0, -0.0, np.float32(3.1e-38)], np.float32)
    w = np.array([0x0123456789ABCDEF, -2], np.int64)

    def args():
        return (a.copy(), fl.copy(), w.copy(), np.zeros(1, np.int32), np.zeros(3, np.int32),
                np.zeros(8, np.int16), np.zeros(2, np.float64))
    (_, _, _, b, g, h, d), mod = run_both(REINTERPRET, "f", args)
    assert b[0] == a.view(np.int32)[0]
    np.testing.assert_array_equal(g, fl.view(np.int32))
    np.testing.assert_array_equal(h, w.view(np.int16))
    np.testing.assert_array_equal(d.view(np.int64), w)
    assert 'T.reinterpret("int32", F[i])' in mod.script()


def test_reinterpret_of_another_size_is_a_type_error():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((4,), "int32"), B: T.Buffer((4,), "int64")):
        B[0] = T.reinterpret("int64", A[0])
''')
    assert_error(src, 'T.reinterpret', "tir.reinterpret of int32 as int64: the sizes differ (32 and 64 bits)", TirTypeError)


def test_reinterpret_to_its_own_type_is_the_value():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((4,), "int32")):
        A[0] = T.reinterpret("int32", A[1])
''')
    assert "A[0] = A[1]" in tir.parse(src).script()


# ---- vload / vstore ----

def test_vload_and_vstore_match_numpy():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((4, 8), "float32"), B: T.Buffer((4, 8), "float32")):
        for i in range(4):
            B.vstore([i, 0], A.vload([i, 4], dtype="float32x4") * T.Broadcast(T.float32(2), 4))
            B.vstore([i, 4], A.vload([i, 0], "float32x4"), predicate=T.Broadcast(T.bool(True), 4))
            B[i, 0] = B.vload([i, 0]) + T.float32(0.5)
''')
    a = np.arange(32, dtype=np.float32).reshape(4, 8) / 4
    (_, b), mod = run_both(src, "f", lambda: (a.copy(), np.zeros((4, 8), np.float32)))
    want = np.concatenate([a[:, 4:] * 2, a[:, :4]], axis=1)
    want[:, 0] += 0.5
    np.testing.assert_array_equal(b, want)
    assert "B[i, 0:4] = A[i, 4:8] * T.Broadcast(T.float32(2.0), 4)" in mod.script()


@pytest.mark.parametrize("call, message", [
    ('A.vload([0], "int32x4")', "Cannot load int32x4 from buffer of float32"),
    ('A.vload()', "A.vload takes 1 to 3 positional arguments, got 0"),
])
def test_vload_errors(call, message):
    src = program(f'''    @T.prim_func
    def f(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        B[0:4] = {call}
''')
    assert_error(src, 'A.vload', message)


def test_vstore_of_another_element_type_is_an_error():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "int32")):
        A.vstore([0], B[0:4])
''')
    assert_error(src, 'A.vstore', "Cannot store int32x4 to buffer of float32")


# ---- Ramp strides ----

def test_ramp_stride_takes_the_base_type():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((T.int64(16),), "int32"), B: T.Buffer((T.int64(16),), "int32")):
        for i in range(T.int64(4)):
            B[T.Ramp(i * T.int64(4), 1, 4)] = A[T.Ramp(i, 4, 4)]
''')
    a = np.arange(16, dtype=np.int32) * 7
    (_, b), mod = run_both(src, "f", lambda: (a.copy(), np.zeros(16, np.int32)))
    np.testing.assert_array_equal(b, a.reshape(4, 4).T.reshape(16))
    text = mod.script()
    assert "A[i:i + T.int64(16):4]" in text


def test_ramp_stride_of_an_expression_is_cast():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((T.int64(16),), "int32"), k: T.int32):
        A[T.Ramp(T.int64(0), k, 4)] = T.Broadcast(1, 4)
''')
    mod = tir.parse(src)
    mod.check()
    assert 'T.Ramp(T.int64(0), T.Cast("int64", k), 4)' in mod.script()


# ---- the checker: stored values of another type ----

def test_buffer_store_of_another_dtype_is_a_type_error():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((4,), "int32")):
        T.buffer_store(A, T.float32(2.5), [0])
''')
    # an error in both modes: TVM refuses it too
    assert_error(src, "T.buffer_store", "BufferStore: cannot store a float32 value into buffer A of int32", TirTypeError)
    with pytest.raises(TirTypeError):
        tir.parse(src).check(strict=True)


def test_buffer_store_of_the_buffer_dtype_checks():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((4,), "int32")):
        T.buffer_store(A, 2, [0])
        T.buffer_store(A, T.Broadcast(3, 2), [T.Ramp(1, 1, 2)])
''')
    (a,), _ = run_both(src, "f", lambda: (np.zeros(4, np.int32),))
    np.testing.assert_array_equal(a, [2, 3, 3, 0])


def test_cli_check_reports_a_store_of_another_dtype(tmp_path):
    binary = onegrad_binary()
    if not binary.exists():
        pytest.skip(f"no onegrad binary at {binary}")
    src = HEADER + '''@T.prim_func
def f(A: T.Buffer((4,), "int32")):
    T.buffer_store(A, T.float32(2.5), [0])
'''
    path = tmp_path / "store.py"
    path.write_text(src)
    r = subprocess.run([str(binary), "tir", "check", str(path)], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    line = error_line(src, "T.buffer_store")
    assert f"{path}:{line}:5: BufferStore: cannot store a float32 value into buffer A of int32" in r.stdout + r.stderr


# ---- T.iter_var and T.Range (the IterVar a T.attr annotates) ----

@pytest.mark.parametrize("attr, lanes", [
    ('T.attr(T.iter_var(tx, T.Range(0, 4), "ThreadIndex", "threadIdx.x"), "thread_extent", 4)', 4),
    ('T.attr(T.iter_var(tx, None, "ThreadIndex", "vthread"), "virtual_thread", 2)', 2),
])
def test_iter_var_attributes_match_numpy(attr, lanes):
    src = program(f'''    @T.prim_func
    def f(A: T.Buffer((8,), "float32")):
        tx = T.int32()
        {attr}
        for i in range(2):
            A[tx * 2 + i] = A[tx * 2 + i] * T.float32(3) + T.float32(1)
''')
    a = np.arange(8, dtype=np.float32) - 2
    (out,), mod = run_both(src, "f", lambda: (a.copy(),))
    want = a.copy()
    want[:lanes * 2] = a[:lanes * 2] * 3 + 1
    np.testing.assert_array_equal(out, want)
    if "thread_extent" in attr:  # what T.launch_thread builds
        assert 'with T.launch_thread("threadIdx.x", 4) as tx:' in mod.script()


def test_iter_var_of_an_unknown_type_is_an_error():
    src = program('''    @T.prim_func
    def f(A: T.Buffer((8,), "float32")):
        tx = T.int32()
        T.attr(T.iter_var(tx, T.Range(0, 4), "Threads", "threadIdx.x"), "thread_extent", 4)
        A[tx] = T.float32(0)
''')
    assert_error(src, "T.iter_var", 'unknown iter type "Threads"')


def test_iter_var_used_outside_its_attribute_round_trips():
    # ill-formed (tx is read before the attribute binds it) but parseable: it prints back as written,
    # tx declared up front and named by T.iter_var (found by the parser fuzzer)
    src = program('''    @T.prim_func
    def f(A: T.Buffer((8,), "float32")):
        tx = T.int32()
        A[tx] = T.float32(1)
        T.attr(T.iter_var(tx, T.Range(0, 2), "ThreadIndex", "threadIdx.x"), "thread_extent", 2)
        A[tx * 2] = T.float32(2)
''')
    text = tir.parse(src).script()
    assert tir.parse(text).script() == text
    assert 'with T.attr(T.iter_var(tx, T.Range(0, 2), "ThreadIndex", "threadIdx.x"), "thread_extent", 2):' in text
    with pytest.raises(TirTypeError):  # the checker reports the use outside the binding
        tir.parse(src).check()


@pytest.mark.parametrize("node", [
    'T.iter_var(tx, T.Range(0, 12), "ThreadIndex", "threadIdx.x")',  # a domain other than [0, extent)
    'T.iter_var(tx, None, "ThreadIndex", "threadIdx.x")',
    'T.iter_var(tx, T.Range(0, 2), "DataPar", "threadIdx.x")',
])
def test_thread_extent_attributes_launch_thread_cannot_spell_round_trip(node):
    src = program(f'''    @T.prim_func
    def f(A: T.Buffer((8,), "float32")):
        tx = T.int32()
        T.attr({node}, "thread_extent", 2)
        A[tx] = T.float32(1)
''')
    text = tir.parse(src).script()
    assert tir.parse(text).script() == text
    assert f"with T.attr({node}, \"thread_extent\", 2):" in text
