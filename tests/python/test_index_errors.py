"""Index faults (docs/engine.md "Index faults", docs/tensor.md "Index checks"): an index out of range in
gather, scatter*, index_select, x[idx] (get and set), cross_entropy/nll_loss targets, one_hot and
embedding raises onegrad.errors.IndexError (a builtin IndexError) when the result is realized, naming
the op, the first bad index and the size. In-range results equal torch's; CHECK_INDEX=0 turns the
checks off. Oracle: torch 1.13.

Run: PYTHONPATH=build/python /usr/bin/python3 -m pytest tests/python/test_index_errors.py -q
"""

import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import onegrad
import onegrad.nn.functional as F
from onegrad import Tensor
from onegrad.errors import IndexError as OnegradIndexError

X = np.arange(20, dtype=np.float32).reshape(4, 5) / 3


def computed(values):
    """An int64 index the graph computes (not host data, which getitem checks at once)."""
    return Tensor(np.array(values, dtype=np.int64)) + 0


def raises(match):
    return pytest.raises(OnegradIndexError, match=match)


# ---- every op: in-range results equal torch; out of range raises a message naming op, value, size

def ops():
    """name -> (onegrad fn, torch fn) over an index (a list) into X (4, 5)."""
    x, tx = Tensor(X), torch.tensor(X)
    col = lambda i: np.array([i] * 5, dtype=np.int64).reshape(1, 5)  # noqa: E731
    return {
        "gather": (lambda i: x.gather(0, Tensor(col(i))), lambda i: tx.gather(0, torch.tensor(col(i)))),
        "scatter": (lambda i: x.scatter(0, Tensor(col(i)), Tensor(np.ones((1, 5), np.float32))),
                    lambda i: tx.scatter(0, torch.tensor(col(i)), torch.ones(1, 5))),
        "scatter_add": (lambda i: x.scatter_add(0, Tensor(col(i)), Tensor(np.ones((1, 5), np.float32))),
                        lambda i: tx.scatter_add(0, torch.tensor(col(i)), torch.ones(1, 5))),
        "scatter_reduce": (lambda i: x.scatter_reduce(0, Tensor(col(i)), Tensor(np.ones((1, 5), np.float32)), "amax"),
                           lambda i: tx.scatter_reduce(0, torch.tensor(col(i)), torch.ones(1, 5), "amax")),
        "index_select": (lambda i: x.index_select(0, Tensor(np.array([i, 0], np.int64))),
                         lambda i: tx.index_select(0, torch.tensor([i, 0]))),
        "getitem": (lambda i: x[computed([0, i])], lambda i: tx[torch.tensor([0, i])]),
        "embedding": (lambda i: F.embedding(Tensor(np.array([[i, 1]], np.int64)), x),
                      lambda i: torch.nn.functional.embedding(torch.tensor([[i, 1]]), tx)),
        "cross_entropy": (lambda i: F.cross_entropy(x, Tensor(np.array([0, i, 2, 3], np.int64))),
                          lambda i: torch.nn.functional.cross_entropy(tx, torch.tensor([0, i, 2, 3]))),
        "nll_loss": (lambda i: F.nll_loss(x, Tensor(np.array([0, i, 2, 3], np.int64))),
                     lambda i: torch.nn.functional.nll_loss(tx, torch.tensor([0, i, 2, 3]))),
        "one_hot": (lambda i: F.one_hot(Tensor(np.array([i, 1], np.int64)), 5),
                    lambda i: torch.nn.functional.one_hot(torch.tensor([i, 1]), 5)),
    }


# op -> (a bad index, the message it gives)
BAD = {
    "gather": (7, r"^gather: index 7 is out of bounds for dimension 0 with size 4$"),
    "scatter": (4, r"^scatter: index 4 is out of bounds for dimension 0 with size 4$"),
    "scatter_add": (-1, r"^scatter_add: index -1 is out of bounds for dimension 0 with size 4$"),
    "scatter_reduce": (9, r"^scatter_reduce: index 9 is out of bounds for dimension 0 with size 4$"),
    "index_select": (-1, r"^index_select: index -1 is out of bounds for dimension 0 with size 4$"),
    "getitem": (-5, r"^getitem: index -5 is out of bounds for dimension 0 with size 4$"),
    "embedding": (4, r"^embedding: index 4 is out of bounds for dimension 0 with size 4$"),
    "cross_entropy": (5, r"^cross_entropy: target 5 is out of bounds for dimension 1 with size 5$"),
    "nll_loss": (-3, r"^nll_loss: target -3 is out of bounds for dimension 1 with size 5$"),
    "one_hot": (5, r"^one_hot: class value 5 is out of bounds for num_classes = 5$"),
}


@pytest.mark.parametrize("op", sorted(BAD))
def test_in_range_equals_torch(op):
    mine, theirs = ops()[op]
    for i in (0, 3):
        np.testing.assert_allclose(mine(i).numpy(), theirs(i).numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("op", sorted(BAD))
def test_out_of_range_raises_when_realized(op):
    mine, theirs = ops()[op]
    bad, message = BAD[op]
    with pytest.raises((IndexError, RuntimeError)):  # torch raises too (RuntimeError for gather/scatter)
        theirs(bad)
    y = mine(bad)  # lazy: building the graph reads no data, so nothing is raised yet
    with raises(message) as info:
        y.numpy()
    assert isinstance(info.value, IndexError) and isinstance(info.value, onegrad.Error)


@pytest.mark.parametrize("op", sorted(BAD))
def test_opt_out_gives_no_error(op):
    mine, _ = ops()[op]
    with onegrad.settings.override(CHECK_INDEX=0):
        y = mine(BAD[op][0])
    y.numpy()  # built without a check: the old composition's answer (0 where the index matches nothing)


# ---- negative indices: x[idx] wraps within [-n, n) like torch; gather does not (torch raises)

def test_getitem_negative_indices_wrap():
    x, tx = Tensor(X), torch.tensor(X)
    idx = [-4, -1, 0, 3]
    np.testing.assert_array_equal(x[computed(idx)].numpy(), tx[torch.tensor(idx)].numpy())
    np.testing.assert_array_equal(x[:, computed([-5, 4])].numpy(), tx[:, torch.tensor([-5, 4])].numpy())
    with raises(r"^getitem: index 5 is out of bounds for dimension 1 with size 5$"):
        x[:, computed([-5, 5])].numpy()
    with raises(r"^getitem: index -6 is out of bounds for dimension 1 with size 5$"):
        x[1:, computed([-6])].numpy()


def test_gather_negative_index_raises():
    with raises(r"^gather: index -1 is out of bounds for dimension 1 with size 5$"):
        Tensor(X).gather(1, computed([[0, -1]])).numpy()


def test_message_has_the_first_bad_value_in_row_major_order():
    idx = computed([[1, 9, 2], [7, -3, 0]])
    with raises(r"^gather: index 9 is out of bounds for dimension 1 with size 5$"):
        Tensor(X[:2]).gather(1, idx).numpy()


# ---- laziness: the check travels with the value and is reported once

def test_values_computed_from_a_bad_result_raise():
    y = Tensor(X).gather(0, computed([[0, 1, 2, 3, 4]]))
    z = (y * 2 + 1).sum()
    with raises("gather: index 4 is out of bounds for dimension 0 with size 4"):
        z.item()


def test_realize_all_with_several():
    good1 = Tensor(X).gather(0, computed([[0, 1, 2, 3, 0]]))
    bad = Tensor(X).index_select(1, computed([2, 8]))
    good2 = Tensor(X).sum(0)
    with raises(r"^index_select: index 8 is out of bounds for dimension 1 with size 5$"):
        Tensor.realize_all(good1, bad, good2)
    # the others were realized; the bad one stays lazy and raises again when realized again
    np.testing.assert_allclose(good1.numpy(), torch.tensor(X).gather(0, torch.tensor([[0, 1, 2, 3, 0]])).numpy())
    np.testing.assert_allclose(good2.numpy(), X.sum(0), rtol=1e-6)
    with raises("index_select: index 8"):
        bad.numpy()


def test_two_bad_results_in_one_realize_report_the_first():
    a = Tensor(X).gather(0, computed([[6, 0, 0, 0, 0]]))
    b = Tensor(X).gather(0, computed([[5, 0, 0, 0, 0]]))
    with raises("index 6 is out of bounds") as info:
        Tensor.realize_all(a, b)
    assert "index 5" not in str(info.value)  # one exception, for the first


def test_a_fault_does_not_reraise_for_unrelated_tensors():
    bad = Tensor(X).gather(0, computed([[9, 0, 0, 0, 0]]))
    with raises("index 9"):
        bad.numpy()
    ok = Tensor(X) + 1  # a later realize of something else is not disturbed
    np.testing.assert_allclose(ok.numpy(), X + 1)
    with raises("index 9"):  # the bad one raises each time it is realized
        (bad + 1).numpy()


def test_check_inside_a_traced_function():
    @onegrad.function
    def pick(x, i):
        return x.gather(0, i) * 2

    x = Tensor(np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(pick(x, Tensor(np.array([1, 3]))).numpy(), [2, 6])
    with raises(r"^gather: index 7 is out of bounds for dimension 0 with size 4$"):
        pick(x, Tensor(np.array([1, 7]))).numpy()


# ---- setitem: a bad index raises before anything is written

def test_setitem_bad_index_raises_and_writes_nothing():
    x = Tensor(X.copy())
    with raises(r"^setitem: index 4 is out of bounds for dimension 0 with size 4$"):
        x[computed([0, 4])] = 100.0
    np.testing.assert_array_equal(x.numpy(), X)
    x[computed([0, -1])] = 100.0
    t = torch.tensor(X.copy())
    t[torch.tensor([0, -1])] = 100.0
    np.testing.assert_array_equal(x.numpy(), t.numpy())


# ---- losses: ignore_index is not a fault

def test_cross_entropy_ignore_index_is_not_a_fault():
    x, tx = Tensor(X), torch.tensor(X)
    for ignore in (-100, 7):
        t = [0, ignore, 2, 1]
        want = torch.nn.functional.cross_entropy(tx, torch.tensor(t), ignore_index=ignore)
        got = F.cross_entropy(x, Tensor(np.array(t, np.int64)), ignore_index=ignore)
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5)
    with raises(r"^cross_entropy: target -100 is out of bounds for dimension 1 with size 5$"):
        F.cross_entropy(x, Tensor(np.array([0, -100, 2, 1], np.int64)), ignore_index=7).numpy()


# ---- nn.Embedding and gradients

def test_nn_embedding():
    onegrad.manual_seed(0)
    emb = onegrad.nn.Embedding(6, 3)
    w = emb.weight.numpy()
    idx = np.array([[5, 0], [2, 2]], np.int64)
    np.testing.assert_array_equal(emb(Tensor(idx)).numpy(), w[idx])
    with raises(r"^embedding: index 6 is out of bounds for dimension 0 with size 6$"):
        emb(Tensor(np.array([6], np.int64))).numpy()


def test_gradient_through_a_checked_gather():
    x = Tensor(X, requires_grad=True)
    tx = torch.tensor(X, requires_grad=True)
    idx = np.array([[0, 3, 1, 2, 0]], np.int64)
    (x.gather(0, Tensor(idx)) * 2).sum().backward()
    (tx.gather(0, torch.tensor(idx)) * 2).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy())


# ---- the opt-out: the environment variable, and the scoped override restores

def test_override_is_scoped():
    assert onegrad.settings.get("CHECK_INDEX", 1) == 1
    with onegrad.settings.override(CHECK_INDEX=0):
        assert onegrad.settings.get("CHECK_INDEX", 1) == 0
        quiet = Tensor(X).gather(0, computed([[7, 0, 0, 0, 0]]))
    assert onegrad.settings.get("CHECK_INDEX", 1) == 1
    np.testing.assert_allclose(quiet.numpy()[0], [0, 1 / 3, 2 / 3, 1, 4 / 3], rtol=1e-6)
    with raises("index 7"):
        Tensor(X).gather(0, computed([[7, 0, 0, 0, 0]])).numpy()


def test_environment_variable_turns_checks_off():
    code = ("import numpy as np, onegrad\n"
            "x = onegrad.Tensor(np.arange(4, dtype=np.float32))\n"
            "print(x.gather(0, onegrad.Tensor(np.array([9, 1]))).numpy().tolist())\n")
    env = dict(os.environ, CHECK_INDEX="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[0.0, 1.0]"
    env["CHECK_INDEX"] = "1"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and "gather: index 9 is out of bounds for dimension 0 with size 4" in out.stderr
