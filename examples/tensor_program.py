#!/usr/bin/env python3
"""A small onegrad program: a dense layer with ReLU and softmax, checked against numpy.

  PYTHONPATH=build/python DEBUG=1 /usr/bin/python3 examples/tensor_program.py

DEBUG=1 prints the schedule (kernels and why each value was realized), DEBUG=2 adds each kernel's
time, DEBUG=4 the generated C, DEBUG=5 the graphs between stages.
"""
import numpy as np

from onegrad import Tensor

x_np = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32)
w_np = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
b_np = np.array([0.5, -0.5, 0.25, 0.0], dtype=np.float32)

x, w, b = Tensor(x_np), Tensor(w_np), Tensor(b_np)
y = (x @ w + b).relu().softmax(-1)
out = y.numpy()

h = np.maximum(x_np @ w_np + b_np, 0)
ref = np.exp(h - h.max(-1, keepdims=True))
ref /= ref.sum(-1, keepdims=True)

print("softmax(relu(x @ w + b)) =")
print(out)
print("row sums:", y.sum(-1).numpy())
print("max |onegrad - numpy| =", float(np.abs(out - ref).max()))
assert np.allclose(out, ref, atol=1e-6), "onegrad disagrees with numpy"
