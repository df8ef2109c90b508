"""relu against torch 1.13 where it is not smooth: the values at NaN, -0.0, +-0 and +-inf, and the
gradient at exactly 0 (torch: 0, one-sided) and at NaN (torch: g), through Tensor.relu, F.relu,
nn.ReLU and relu_."""
import numpy as np
import pytest
import torch

import onegrad as og
import onegrad.nn as nn
import onegrad.nn.functional as F

KINKS = np.array([np.nan, -0.0, 0.0, -1.5, 2.0, np.inf, -np.inf, 0.0, 1e-30, -1e-30], dtype=np.float32)

FORMS = {
    "method": (lambda x: x.relu(), torch.relu),
    "functional": (F.relu, torch.nn.functional.relu),
    "module": (lambda x: nn.ReLU()(x), torch.nn.ReLU()),
    "inplace": (lambda x: (x * 1).relu_(), lambda x: (x * 1).relu_()),
}


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_relu_values_and_gradient_at_the_kink_match_torch(form, dtype):
    of, tf = FORMS[form]
    v = KINKS.astype(dtype)
    x, t = og.Tensor(v, requires_grad=True), torch.from_numpy(v).requires_grad_()
    y, ty = of(x), tf(t)
    got, want = y.numpy(), ty.detach().numpy()
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))  # -0.0 passes through
    w = np.arange(1, len(v) + 1, dtype=dtype)
    (y * og.Tensor(w)).sum().backward()
    (ty * torch.from_numpy(w)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), t.grad.numpy())


def test_relu_gradient_is_zero_at_zero_in_a_network():
    # a hidden unit at exactly 0 passes no gradient to the layer below, as in torch
    x = np.array([[1.0, -1.0]], np.float32)
    w = np.array([[1.0, 2.0], [1.0, 1.0]], np.float32)   # first unit: 1 - 1 = 0
    ow, tw = og.Tensor(w, requires_grad=True), torch.from_numpy(w).requires_grad_()
    (og.Tensor(x) @ ow).relu().sum().backward()
    (torch.from_numpy(x) @ tw).relu().sum().backward()
    np.testing.assert_array_equal(ow.grad.numpy(), tw.grad.numpy())


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8])
def test_integer_relu_matches_torch(dtype):
    v = np.array([0, 3, 200 if dtype == np.uint8 else -7], dtype=dtype)
    np.testing.assert_array_equal(og.Tensor(v).relu().numpy(), torch.from_numpy(v).relu().numpy())


def test_bool_relu_is_refused():
    with pytest.raises(og.errors.DTypeError, match="relu"):
        og.Tensor(np.array([True])).relu()
