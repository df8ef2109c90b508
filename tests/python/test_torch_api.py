"""The everyday PyTorch Tensor API against torch 1.13: size/dim/to/clone/cpu, expand_as/type_as,
new_*, norm, mm/bmm, amax/amin, diag, max/min(dim), dtype= on reductions, torch dtypes, DLPack in
and out, __index__, str/repr, and the top-level functions."""

import math

import numpy as np
import pytest

import onegrad
from onegrad import Tensor, dtypes

torch = pytest.importorskip("torch")

rng = np.random.default_rng(3)


def T(a, **kw):
    return Tensor(np.asarray(a), **kw)


def close(t, ref, rtol=1e-5, atol=1e-6):
    ref = ref.detach()
    assert t.shape == tuple(ref.shape)
    assert t.dtype.name == str(ref.dtype).removeprefix("torch."), (t.dtype, ref.dtype)
    np.testing.assert_allclose(t.numpy().astype(np.float64), ref.double().numpy(), rtol=rtol, atol=atol)


# ---- size, dim, to, cpu, clone, type_as, expand_as


def test_size_and_dim():
    a = np.zeros((2, 3, 4), np.float32)
    t, r = T(a), torch.from_numpy(a)
    assert t.size() == tuple(r.size()) and t.dim() == r.dim() == 3
    for d in (0, 2, -1, -3):
        assert t.size(d) == r.size(d)
    with pytest.raises(IndexError, match=r"size: dimension out of range \(expected to be in range of \[-3, 2\], but got 3\)"):
        t.size(3)
    with pytest.raises(onegrad.IndexShapeError, match="got -4"):
        t.size(-4)
    with pytest.raises(IndexError, match="size: dimension 0 given but the tensor has no dimensions"):
        Tensor(1.0).size(0)
    assert Tensor(1.0).dim() == 0 and Tensor(1.0).size() == ()


def test_to_forms():
    t = Tensor([1.5, 2.5], device="CPU")
    assert t.to("cpu") is t and t.to(torch.float32) is t and t.cpu() is t
    assert t.to(torch.float64).dtype == dtypes.float64
    assert t.to("cpu", torch.int32).tolist() == [1, 2]
    assert t.to(dtype=onegrad.int8).dtype == dtypes.int8
    assert t.to(device="CPU", dtype="float16").dtype == dtypes.float16
    assert t.to(Tensor([1], dtype=dtypes.int16)).dtype == dtypes.int16
    assert t.to(np.float64).dtype == dtypes.float64
    c = t.to(torch.float32, copy=True)
    assert c is not t and c.tolist() == t.tolist()
    assert t.to(torch.float32, False, True) is not t  # torch's positional (dtype, non_blocking, copy)


def test_to_errors():
    t = Tensor([1.0])
    with pytest.raises(onegrad.DeviceError, match="unknown device"):
        t.to("foo")
    assert t.to("cpu:1").device == "CPU:1"  # a copy onto the other device
    with pytest.raises(onegrad.DTypeError, match="torch.complex64 has no onegrad dtype"):
        t.to(torch.complex64)
    with pytest.raises(TypeError, match="unexpected keyword arguments"):
        t.to(dtyp=torch.float64)


def test_clone_is_a_copy_with_gradient():
    a = Tensor([1.0, 2.0, 3.0])
    c = a.clone()
    a[0] = 10.0
    assert c.tolist() == [1.0, 2.0, 3.0] and a.tolist() == [10.0, 2.0, 3.0]
    c[1] = -1.0
    assert a.tolist() == [10.0, 2.0, 3.0] and c.tolist() == [1.0, -1.0, 3.0]
    x = Tensor([1.0, 2.0], requires_grad=True)
    (x.clone() * x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0]


def test_a_realized_clone_of_a_buffer_is_a_buffer_of_its_own():
    # contiguous() of a buffer realizes to that buffer: clone must not, or writes reach both
    a = Tensor([1.0, 2.0, 3.0]).realize()
    b, c = a.clone().realize(), a.detach().clone().realize()
    a[0] = 9.0
    b[1] = 7.0
    assert a.tolist() == [9.0, 2.0, 3.0] and b.tolist() == [1.0, 7.0, 3.0] and c.tolist() == [1.0, 2.0, 3.0]
    # the copies built on clone: torch.tensor(t) and to(copy=True)
    a = Tensor([1.0, 2.0, 3.0]).realize()
    d, e = onegrad.tensor(a).realize(), a.to(copy=True).realize()
    a[0] = 9.0
    assert d.tolist() == [1.0, 2.0, 3.0] and e.tolist() == [1.0, 2.0, 3.0]


def test_type_as_and_expand_as():
    a, b = Tensor([[1.5], [2.5]]), Tensor([1, 2, 3], dtype=dtypes.int8)
    close(a.type_as(b), torch.tensor([[1.5], [2.5]]).type_as(torch.tensor([1], dtype=torch.int8)))
    close(a.expand_as(Tensor.zeros(4, 2, 3)), torch.tensor([[1.5], [2.5]]).expand_as(torch.zeros(4, 2, 3)))
    with pytest.raises(onegrad.ShapeError, match="expand"):
        a.expand_as(Tensor.zeros(4, 3))


@pytest.mark.parametrize("name,args", [("new_zeros", ((2, 3),)), ("new_ones", (2, 3)), ("new_full", ((2,), 7)),
                                       ("new_tensor", ([1, 2],))])
@pytest.mark.parametrize("dt", ["int8", "float16", "float64"])
def test_new_constructors(name, args, dt):
    ours = getattr(Tensor([1], dtype=dt), name)(*args)
    ref = getattr(torch.tensor([1], dtype=getattr(torch, dt)), name)(*args)
    close(ours, ref)
    ours = getattr(Tensor([1.0]), name)(*args, dtype=torch.int16, requires_grad=False)
    assert ours.dtype == dtypes.int16
    e = Tensor([1], dtype=dtypes.int8).new_empty(2, 3)
    assert e.shape == (2, 3) and e.dtype == dtypes.int8
    assert Tensor([1.0]).new_zeros(2, requires_grad=True).requires_grad


# ---- norm, mm, bmm, diag


@pytest.mark.parametrize("p", ["fro", 2, 1, math.inf, -math.inf, 0, 3, 0.5, -1])
@pytest.mark.parametrize("dim,keepdim", [(None, False), (1, False), ((0, 2), True), (-1, True)])
def test_norm(p, dim, keepdim):
    a = rng.standard_normal((3, 4, 5)).astype(np.float32)
    a[0, 0, 0] = 0.0
    close(T(a).norm(p, dim, keepdim), torch.from_numpy(a).norm(p, dim, keepdim), rtol=1e-4)


def test_norm_dtype_grad_and_errors():
    a = rng.standard_normal((3, 4)).astype(np.float32)
    close(T(a).norm(1, dtype=torch.float64), torch.from_numpy(a).norm(1, dtype=torch.float64))
    close(T(a).norm(2, 1, dtype=torch.float64), torch.from_numpy(a).norm(2, 1, dtype=torch.float64))
    x, rx = T(a, requires_grad=True), torch.from_numpy(a).requires_grad_()
    x.norm(dim=1).sum().backward()
    rx.norm(dim=1).sum().backward()
    close(x.grad, rx.grad, rtol=1e-5)
    with pytest.raises(onegrad.DTypeError, match="norm: input dtype should be floating point, got int32"):
        Tensor([1, 2]).norm()
    with pytest.raises(NotImplementedError, match="nuc"):
        T(a).norm("nuc")


def test_mm_and_bmm():
    a, b = rng.standard_normal((2, 3)).astype(np.float32), rng.standard_normal((3, 4)).astype(np.float32)
    close(T(a).mm(T(b)), torch.from_numpy(a).mm(torch.from_numpy(b)), rtol=1e-5)
    c, d = rng.standard_normal((5, 2, 3)).astype(np.float32), rng.standard_normal((5, 3, 4)).astype(np.float32)
    close(T(c).bmm(T(d)), torch.from_numpy(c).bmm(torch.from_numpy(d)), rtol=1e-5)
    close(onegrad.bmm(T(c), T(d)), torch.bmm(torch.from_numpy(c), torch.from_numpy(d)), rtol=1e-5)


@pytest.mark.parametrize("op,x,y,msg", [
    ("mm", (2, 3), (4, 5), r"mm: mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)"),
    ("mm", (2, 3), (3,), r"mm: mat2 must be a matrix, got shape \(3,\)"),
    ("mm", (3,), (3, 2), r"mm: self must be a matrix, got shape \(3,\)"),
    ("bmm", (2, 3), (2, 3), r"bmm: batch1 must be a 3D tensor, got shape \(2, 3\)"),
    ("bmm", (2, 3, 4), (2, 4), r"bmm: batch2 must be a 3D tensor, got shape \(2, 4\)"),
    ("bmm", (2, 3, 4), (3, 4, 5), r"bmm: expected size for first two dimensions of batch2 tensor to be: \[2, 4\] but got: \[3, 4\]"),
    ("bmm", (2, 3, 4), (2, 5, 5), r"but got: \[2, 5\]"),
])
def test_mm_bmm_shape_errors(op, x, y, msg):
    with pytest.raises(RuntimeError):
        getattr(torch.ones(x), op)(torch.ones(y))
    with pytest.raises(onegrad.ShapeError, match=msg):
        getattr(Tensor.ones(*x), op)(Tensor.ones(*y))


@pytest.mark.parametrize("k", [-3, -1, 0, 1, 2])
def test_diag(k):
    v = rng.standard_normal(4).astype(np.float32)
    close(T(v).diag(k), torch.from_numpy(v).diag(k))
    for shape in ((4, 4), (3, 5), (5, 2)):
        m = np.arange(np.prod(shape), dtype=np.int64).reshape(shape)
        if -shape[0] < k < shape[1]:  # torch 1.13 fails outside the matrix; onegrad gives [] (numpy's answer)
            close(T(m).diag(k), torch.from_numpy(m).diag(k))
        else:
            assert T(m).diag(k).shape == (0,) and np.diag(m, k).shape == (0,)


def test_diag_grad_and_errors():
    v = rng.standard_normal(3).astype(np.float32)
    w = rng.standard_normal((4, 4)).astype(np.float32)
    x, rx = T(v, requires_grad=True), torch.from_numpy(v).requires_grad_()
    (x.diag(1) * T(w)).sum().backward()
    (rx.diag(1) * torch.from_numpy(w)).sum().backward()
    close(x.grad, rx.grad)
    y, ry = T(w, requires_grad=True), torch.from_numpy(w).requires_grad_()
    (y.diag(-1) ** 2).sum().backward()
    (ry.diag(-1) ** 2).sum().backward()
    close(y.grad, ry.grad)
    with pytest.raises(onegrad.ShapeError, match=r"diag: expected a 1-D or 2-D tensor, got shape \(2, 2, 2\)"):
        Tensor.ones(2, 2, 2).diag()


# ---- reductions


@pytest.mark.parametrize("dim,keepdim", [(None, False), (0, False), ((0, 1), True), (-1, True), ((), False)])
def test_amax_amin(dim, keepdim):
    a = rng.standard_normal((3, 4)).astype(np.float32)
    for name in ("amax", "amin"):
        ref = getattr(torch.from_numpy(a), name)(() if dim is None else dim, keepdim)
        close(getattr(T(a), name)(dim, keepdim), ref)


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_min_over_a_dim_give_values_and_indices(name):
    a = np.array([[1, 5, 5, 0], [2, 2, 0, 7], [3, 3, 3, 3]], np.int64)  # ties: the first index, as torch
    for dim in (0, 1, -1):
        for keepdim in (False, True):
            ours = getattr(T(a), name)(dim, keepdim)
            ref = getattr(torch.from_numpy(a), name)(dim, keepdim)
            assert type(ours).__name__ == name and ours._fields == ("values", "indices")
            close(ours.values, ref.values)
            close(ours.indices, ref.indices)
            v, i = getattr(T(a), name)(dim=dim, keepdim=keepdim)
            close(i, ref[1])
    close(getattr(T(a), name)(), getattr(torch.from_numpy(a), name)())
    b = np.array([[4, 1, 9, 2]], np.int64)
    close(getattr(T(a), name)(T(b)), getattr(torch.from_numpy(a), name)(torch.from_numpy(b)))
    close(getattr(T(a), name)(axis=1), getattr(torch.from_numpy(a), name)(1).values)  # tinygrad's axis=: values


@pytest.mark.parametrize("name,args", [("sum", ()), ("sum", (1,)), ("prod", ()), ("prod", (0,)), ("mean", ()),
                                       ("mean", (1,)), ("cumsum", (1,)), ("cumprod", (0,))])
@pytest.mark.parametrize("dt", ["float64", "int64", "float32"])
def test_reductions_take_dtype(name, args, dt):
    a = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
    if name == "mean" and dt == "int64":
        return  # torch: mean needs a float dtype
    ours = getattr(T(a), name)(*args, dtype=getattr(torch, dt))
    close(ours, getattr(torch.from_numpy(a), name)(*args, dtype=getattr(torch, dt)))
    assert getattr(T(a), name)(*args, dtype=dt).dtype.name == dt


# ---- torch dtypes anywhere a dtype goes


def test_torch_dtypes_are_accepted():
    names = ["bool", "int8", "int16", "int32", "int64", "uint8", "float16", "bfloat16", "float32", "float64"]
    for n in names:
        td = getattr(torch, n)
        assert Tensor([1], dtype=td).dtype.name == n
        assert Tensor.zeros(2, dtype=td).dtype.name == n
        assert Tensor([1.0]).cast(td).dtype.name == n
        assert getattr(onegrad, n) == getattr(dtypes, n) if n != "bool" else onegrad.bool == dtypes.bool
    assert onegrad.long == dtypes.int64 and onegrad.half == dtypes.float16 and onegrad.double == dtypes.float64
    assert Tensor([1], dtype=torch.long).dtype == dtypes.int64
    with pytest.raises(onegrad.DTypeError, match="torch.complex128 has no onegrad dtype"):
        Tensor([1.0], dtype=torch.complex128)


# ---- DLPack: Tensor(torch_tensor) copies, torch.from_dlpack(onegrad_tensor) reads


@pytest.mark.parametrize("dt", ["bool", "int8", "int16", "int32", "int64", "uint8", "float16", "bfloat16", "float32",
                                "float64"])
def test_tensor_from_torch_through_dlpack(dt):
    r = (torch.arange(12) % 5 - 2).reshape(3, 4).to(getattr(torch, dt))
    for src in (r, r.t(), r[:, ::2], r[1], r[0, 0], r[:, :1].expand(3, 5), r[:0]):
        t = Tensor(src)
        assert t.dtype.name == dt and t.shape == tuple(src.shape)
        assert t.tolist() == src.tolist()
        assert onegrad.tensor(src, dtype=dtypes.float64).tolist() == src.double().tolist()


def test_dlpack_copy_semantics_and_grad():
    r = torch.tensor([1.0, 2.0], requires_grad=True)
    t = Tensor(r)
    assert t.tolist() == [1.0, 2.0] and not t.requires_grad
    with torch.no_grad():
        r[0] = 5.0
    assert t.tolist() == [1.0, 2.0]  # a copy, as torch.tensor(r)
    u = onegrad.tensor(Tensor([3.0, 4.0]))
    assert u.tolist() == [3.0, 4.0]


def test_torch_reads_onegrad_through_dlpack():
    t = Tensor([[1, 2], [3, 4]], dtype=dtypes.int16) * 2
    r = torch.from_dlpack(t)
    assert r.dtype == torch.int16 and r.tolist() == [[2, 4], [6, 8]]
    with pytest.raises(onegrad.DTypeError, match="__dlpack__: bfloat16 cannot be exported"):
        torch.from_dlpack(Tensor([1.0], dtype=dtypes.bfloat16))


# ---- Python numbers out


def test_index_int_float():
    lst = list(range(10))
    assert lst[Tensor(3)] == 3 and lst[Tensor([4], dtype=dtypes.uint8)] == 4 and range(Tensor(2)) == range(2)
    assert Tensor(True).__index__() == torch.tensor(True).__index__() == 1
    for bad in (Tensor(3.5), Tensor([1, 2])):
        with pytest.raises(TypeError, match="only integer tensors of a single element can be converted to an index"):
            lst[bad]
    assert int(Tensor([5.7])) == int(torch.tensor([5.7])) == 5
    assert float(Tensor([[5]])) == float(torch.tensor([[5]])) == 5.0
    with pytest.raises(ValueError, match=r"item: a tensor of shape \(2,\) has 2 elements, not 1"):
        int(Tensor([1, 2]))


# ---- str / repr, as torch prints


def _torch_text(r):
    return repr(r).replace("torch.", "onegrad.")


REPR_CASES = {
    "ints-as-floats": lambda: np.array([1.0, 2.0, 3.0], np.float32),
    "fixed": lambda: np.array([[0.5, -1.25], [3.0, 100.125]], np.float32),
    "sci-wide": lambda: np.array([1e-5, 1.0, 3e6], np.float32),
    "sci-big-ints": lambda: np.array([1e9, 2.0], np.float32),
    "non-finite": lambda: np.array([np.nan, np.inf, -np.inf, 1.5], np.float32),
    "non-finite-ints": lambda: np.array([np.nan, 2.0, -np.inf], np.float32),
    "zeros": lambda: np.zeros((2, 2), np.float32),
    "0-d": lambda: np.array(3.25, np.float32),
    "0-d-int": lambda: np.array(-7, np.int64),
    "int64": lambda: np.array([[1, -20], [300, 4]], np.int64),
    "int32": lambda: np.array([1, 2], np.int32),
    "int8-3d": lambda: np.arange(24, dtype=np.int8).reshape(2, 3, 4),
    "uint8": lambda: np.array([0, 255], np.uint8),
    "bool": lambda: np.array([[True, False], [False, True]]),
    "float64": lambda: np.array([1.0 / 3, 2.0]),
    "float16": lambda: np.array([0.1, 65504.0], np.float16),
    "wrap-1d": lambda: rng.standard_normal(40).astype(np.float32),
    "summary-1d": lambda: np.arange(2000, dtype=np.float32) / 7,
    "summary-2d": lambda: rng.standard_normal((40, 50)).astype(np.float32),
    "summary-3d-int": lambda: np.arange(8000, dtype=np.int64).reshape(20, 20, 20),
    "summary-short-axis": lambda: np.arange(3000, dtype=np.int32).reshape(3, 1000),
    "empty-1d": lambda: np.zeros(0, np.float32),
    "empty-2d": lambda: np.zeros((0, 3), np.float32),
    "empty-int": lambda: np.zeros((2, 0), np.int64),
}


@pytest.fixture
def on_cpu():
    """The repr tests compare with torch's text on its CPU, which has no device= suffix (torch adds
    one off its default device, as onegrad does: DEV=CL prints device='CL'), and measure the CPU
    allocator's peak: their tensors are made on the CPU whatever the default device is."""
    before = onegrad.Device.DEFAULT
    onegrad.Device.DEFAULT = "CPU"
    yield
    onegrad.Device.DEFAULT = before


@pytest.mark.parametrize("name", REPR_CASES)
@pytest.mark.usefixtures("on_cpu")
def test_repr_matches_torch(name):
    a = REPR_CASES[name]()
    t, r = Tensor(a), torch.from_numpy(a)
    assert repr(t) == _torch_text(r)
    assert str(t) == str(r).replace("torch.", "onegrad.")


@pytest.mark.usefixtures("on_cpu")
def test_repr_suffixes():
    a = np.array([1.0, 2.0], np.float32)
    assert repr(Tensor(a, requires_grad=True)) == repr(torch.tensor(a, requires_grad=True))
    assert repr(Tensor(a, dtype=dtypes.bfloat16)) == _torch_text(torch.tensor(a, dtype=torch.bfloat16))
    long = rng.standard_normal((3, 9)).astype(np.float64)
    assert repr(Tensor(long)) == _torch_text(torch.from_numpy(long))


@pytest.mark.usefixtures("on_cpu")
def test_repr_realizes_only_the_corners():
    big = Tensor.ones(4000, 4000) * 2 + Tensor.arange(4000).reshape(1, 4000)  # 64 MB if realized whole
    onegrad.reset_peak_memory()
    text = repr(big)
    assert onegrad.device_memory_stats()["peak_bytes"] < 1 << 20
    assert text == repr(torch.ones(4000, 4000) * 2 + torch.arange(4000).reshape(1, 4000))


def test_repr_off_the_cpu_names_the_device_first():
    # torch's order off its default device: tensor(data, device='cuda:0', dtype=...)
    if onegrad.Device.opencl_unavailable():
        pytest.skip(onegrad.Device.opencl_unavailable())
    a = np.array([1.0, 2.0], np.float32)
    assert repr(Tensor(a, dtype=dtypes.int32, device="CL")) == "tensor([1, 2], device='CL', dtype=onegrad.int32)"


# ---- top-level functions


def test_top_level_creation():
    close(onegrad.zeros(2, 3), torch.zeros(2, 3))
    close(onegrad.ones((2,), dtype=onegrad.int8), torch.ones((2,), dtype=torch.int8))
    close(onegrad.full((2, 2), 1.5), torch.full((2, 2), 1.5))
    close(onegrad.arange(5, dtype=torch.int64), torch.arange(5))
    close(onegrad.arange(1, 3, 0.5), torch.arange(1, 3, 0.5))
    assert onegrad.empty(2, 3).shape == (2, 3)
    x = np.array([[1.0, 2.0]], np.float32)
    close(onegrad.zeros_like(T(x)), torch.zeros_like(torch.from_numpy(x)))
    close(onegrad.full_like(T(x), 7), torch.full_like(torch.from_numpy(x), 7))
    close(onegrad.tensor([[1, 2]], dtype=torch.int64), torch.tensor([[1, 2]]))
    close(onegrad.from_numpy(x), torch.from_numpy(x))
    assert onegrad.ones(2, requires_grad=True).requires_grad
    close(onegrad.cat([T(x), T(x)], dim=1), torch.cat([torch.from_numpy(x)] * 2, dim=1))
    close(onegrad.stack((T(x), T(x))), torch.stack((torch.from_numpy(x),) * 2))
    close(onegrad.concat([T(x), T(x)]), torch.concat([torch.from_numpy(x)] * 2))


@pytest.mark.parametrize("name,args", [
    ("exp", ()), ("log", ()), ("sqrt", ()), ("sin", ()), ("tanh", ()), ("sigmoid", ()), ("abs", ()), ("neg", ()),
    ("floor", ()), ("round", ()), ("square", ()), ("reciprocal", ()), ("sum", ()), ("sum", (1,)), ("mean", (0,)),
    ("prod", (1,)), ("amax", (1,)), ("std", (1,)), ("var", ()), ("logsumexp", (1,)), ("softmax", (1,)),
    ("log_softmax", (0,)), ("cumsum", (1,)), ("argmax", (1,)), ("norm", ()), ("clamp", (0.5, 1.0)),
    ("add", (2.0,)), ("mul", (3.0,)), ("sub", (1.0,)), ("div", (2.0,)), ("pow", (2.0,)), ("maximum", "T"),
    ("lt", (1.0,)), ("eq", "T"), ("transpose", (0, 1)), ("reshape", ((3, 2),)), ("flatten", ()),
    ("unsqueeze", (0,)), ("flip", ((0,),)), ("clone", ()), ("diag", ()),
])
def test_top_level_functions_match_torch(name, args):
    a = (rng.random((2, 3)) + 0.5).astype(np.float32)
    b = (rng.random((2, 3)) + 0.5).astype(np.float32)
    ours_args, ref_args = ((T(b),), (torch.from_numpy(b),)) if args == "T" else (args, args)
    ours = getattr(onegrad, name)(T(a), *ours_args)
    ref = getattr(torch, name)(torch.from_numpy(a), *ref_args)
    close(ours, ref, rtol=1e-5)


def test_top_level_max_min_and_builtins_are_kept_out_of_star():
    a = np.array([[1.0, 4.0], [3.0, 2.0]], np.float32)
    v, i = onegrad.max(T(a), 1)
    rv, ri = torch.max(torch.from_numpy(a), 1)
    close(v, rv)
    close(i, ri)
    close(onegrad.min(T(a)), torch.min(torch.from_numpy(a)))
    names = {}
    exec("from onegrad import *", names)
    assert "sum" not in names and "max" not in names and "float" not in names and "zeros" in names
    assert "float32" in names and "tensor" in names


def test_dlpack_dtype_without_an_onegrad_dtype_is_refused():
    with pytest.raises(onegrad.DTypeError, match=r"Tensor: a DLPack tensor of dtype \(code 5, 64 bits, 1 lanes\) "
                                                 r"has no onegrad dtype"):
        Tensor(torch.zeros(2, dtype=torch.complex64))


def test_dlpack_capsule_already_consumed_is_refused():
    capsule = torch.utils.dlpack.to_dlpack(torch.zeros(2))
    torch.utils.dlpack.from_dlpack(capsule)  # consumes it

    class Spent:
        def __dlpack__(self):
            return capsule

    with pytest.raises(onegrad.DTypeError, match="Tensor: __dlpack__ did not return an unused DLPack capsule"):
        Tensor(Spent())


def test_norm_nuc_and_normalize_out_are_refused_by_name():
    with pytest.raises(NotImplementedError, match=r"norm: p='nuc' \(the nuclear norm\) needs singular values"):
        Tensor([[1.0, 2.0], [3.0, 4.0]]).norm(p="nuc")
    with pytest.raises(NotImplementedError, match="normalize: out= is not supported; use the returned tensor"):
        onegrad.nn.functional.normalize(Tensor([[1.0, 2.0]]), out=Tensor([[0.0, 0.0]]))
