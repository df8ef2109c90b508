"""@onegrad.jit (docs/jit.md): replays equal plain calls bit for bit (an MLP trained 100 steps with
dropout, SGD with momentum or Adam under a cosine schedule), a replay schedules and compiles nothing,
inputs of another shape, dtype or argument are typed errors, and returned tensors are never changed
by later calls. Oracles: the same function without the JIT, and numpy."""
import numpy as np
import pytest

import onegrad
from onegrad import Tensor, _C, nn
from onegrad.errors import ArgumentError, DTypeError, ShapeError


def counters():
    s = _C.engine_stats()
    return {k: s[k] for k in ("schedules_built", "schedule_hits", "kernels_lowered", "kernel_hits", "compiles")}


def test_jitted_function_equals_the_plain_one():
    def f(x, w):
        return (x @ w).relu() + 1.0, x.sum(0)

    jf = onegrad.jit(f)
    rng = np.random.default_rng(0)
    w = Tensor(rng.standard_normal((4, 3)).astype(np.float32))
    for call in range(6):
        x = Tensor(rng.standard_normal((5, 4)).astype(np.float32))
        got = jf(x, w)
        want = f(x, w)
        assert isinstance(got, tuple) and len(got) == 2
        for g, e in zip(got, want):
            np.testing.assert_array_equal(g.numpy(), e.numpy())
        assert jf.captured == (call >= 1)  # the second call captures
    assert jf.kernels >= 1


def mlp(seed):
    onegrad.manual_seed(seed)
    return nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Dropout(0.25), nn.Linear(16, 4))


def training_step(model, opt):
    def step(x, y):
        opt.zero_grad()
        loss = model(x).cross_entropy(y)
        loss.backward()
        opt.step()
        return loss
    return step


def train(optimizer, jitted, steps=100):
    """Losses and final weights of `steps` steps on fixed batches; dropout draws from seed 7."""
    model = mlp(1)
    if optimizer == "sgd":
        opt = onegrad.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        sched = None
    else:
        opt = onegrad.optim.Adam(model.parameters(), lr=0.01)
        sched = onegrad.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=steps)
    step = training_step(model, opt)
    run = onegrad.jit(step) if jitted else step
    rng = np.random.default_rng(3)
    onegrad.manual_seed(7)
    losses = []
    for _ in range(steps):
        xs = rng.standard_normal((8, 12)).astype(np.float32)
        x, y = Tensor(xs), Tensor(xs[:, :4].argmax(1))  # a rule the model can learn
        losses.append(run(x, y).item())
        if sched:
            sched.step()
    return losses, [p.numpy() for p in model.parameters()], run


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_jitted_mlp_training_matches_plain_bit_for_bit_over_100_steps(optimizer):
    plain_losses, plain_weights, _ = train(optimizer, jitted=False)
    jit_losses, jit_weights, run = train(optimizer, jitted=True)
    assert run.captured and run.calls == 100
    assert jit_losses == plain_losses
    assert np.mean(plain_losses[-10:]) < 0.7 * np.mean(plain_losses[:10])  # it trains
    for a, b in zip(jit_weights, plain_weights):
        np.testing.assert_array_equal(a, b)


def test_replay_schedules_lowers_and_compiles_nothing():
    model = mlp(2)
    step = onegrad.jit(training_step(model, onegrad.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)))

    rng = np.random.default_rng(0)
    batches = [(Tensor(rng.standard_normal((8, 12)).astype(np.float32)), Tensor(rng.integers(0, 4, 8)))
               for _ in range(6)]
    step(*batches[0])
    step(*batches[1])
    before = counters()
    for x, y in batches[2:]:
        step(x, y).item()
    assert counters() == before


def test_dropout_differs_per_call_and_follows_the_generator():
    f = lambda x: x.dropout(0.5)
    jf = onegrad.jit(f)
    x = Tensor(np.ones(256, np.float32))
    onegrad.manual_seed(11)
    got = [jf(x).numpy() for _ in range(5)]
    onegrad.manual_seed(11)
    want = [f(x).numpy() for _ in range(5)]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    assert not np.array_equal(got[3], got[4])  # replays draw new masks


def test_inplace_state_written_by_the_function_is_replayed():
    acc = Tensor(np.zeros(3, np.float32)).contiguous().realize()

    @onegrad.jit
    def add(x):
        acc.add_(x * 2.0)
        return acc * 1.0

    total = np.zeros(3, np.float32)
    for i in range(5):
        v = np.arange(3, dtype=np.float32) + i
        total += v * 2.0
        np.testing.assert_array_equal(add(Tensor(v)).numpy(), total)
    np.testing.assert_array_equal(acc.numpy(), total)


def test_returned_tensors_are_not_changed_by_later_calls():
    jf = onegrad.jit(lambda x: x * 3.0)
    outs = [jf(Tensor(np.full(4, float(i), np.float32))) for i in range(4)]
    for i, o in enumerate(outs):
        np.testing.assert_array_equal(o.numpy(), np.full(4, 3.0 * i, np.float32))


def test_a_lazy_or_viewed_input_is_realized_first():
    jf = onegrad.jit(lambda x: x + 1.0)
    base = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    for i in range(4):
        np.testing.assert_array_equal(jf(base * float(i)).numpy(), np.arange(12).reshape(3, 4) * i + 1.0)
    big = np.arange(20, dtype=np.float32).reshape(4, 5)
    np.testing.assert_array_equal(jf(Tensor(big)[1:, 1:]).numpy(), big[1:, 1:] + 1.0)  # a view of a buffer


def test_inputs_that_differ_from_the_captured_call_raise_typed_errors():
    jf = onegrad.jit(lambda x, scale: x * scale)
    x = Tensor(np.ones((2, 4), np.float32))
    jf(x, 2.0)
    jf(x, 2.0)
    with pytest.raises(ShapeError, match=r"jit: input 0 has shape \(3, 4\), the captured call's had \(2, 4\)"):
        jf(Tensor(np.ones((3, 4), np.float32)), 2.0)
    with pytest.raises(DTypeError, match="jit: input 0 has dtype float64, the captured call's had float32"):
        jf(Tensor(np.ones((2, 4), np.float64)), 2.0)
    with pytest.raises(ArgumentError, match=r"jit: <lambda> was captured with arguments .*2\.0.* this call gives "
                                            r".*3\.0.*only tensor values may change"):
        jf(x, 3.0)
    np.testing.assert_array_equal(jf(x, 2.0).numpy(), np.full((2, 4), 2.0))  # still replays
    jf.reset()
    np.testing.assert_array_equal(jf(Tensor(np.ones((3, 4), np.float32)), 3.0).numpy(), np.full((3, 4), 3.0))


def test_jit_wants_a_callable():
    with pytest.raises(TypeError, match="jit: expects a callable, got int"):
        onegrad.jit(3)
