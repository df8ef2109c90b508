"""The innermost loop of a padded elementwise kernel runs as its edges and a middle without the
padding's gate (codegen/split_padded_loops.h); the values stay those of torch."""
import numpy as np
import pytest
import torch

import onegrad

rng = np.random.default_rng(0)


def kernel_of(t, prefix):
    ks = [k for k in onegrad.kernels(t) if k.name.startswith(prefix)]
    assert len(ks) == 1, [k.name for k in onegrad.kernels(t)]
    return ks[0]


def body(source, name):  # the kernel function's text, from its signature to its closing brace
    start = source.index(f"static void {name}_kernel")
    return source[start:source.index("\n}\n", start) + 3]


def padded_relu(x, b, pad):
    return (onegrad.Tensor(x) + onegrad.Tensor(b)).relu().pad(pad)


def test_the_middle_loop_has_no_padding_gate():
    x = rng.standard_normal((3, 20, 20)).astype(np.float32)
    b = np.arange(3, dtype=np.float32).reshape(3, 1, 1)
    k = kernel_of(padded_relu(x, b, (1, 2, 3, 1)), "E_3_24_23")
    # The left edge (one column) is a store of 0 at a constant, the middle's gate only asks for
    # the row (loop-invariant: the C compiler unswitches it), the right edge a loop of 2 zeros.
    assert body(k.source(), "E_3_24_23") == """\
static void E_3_24_23_kernel(float* restrict b0, float* restrict b1, float* restrict b2, const int64_t* vars) {
  for (int64_t r0 = 0; r0 < 3; r0++) {
    float val0 = b2[r0];
    for (int64_t r1 = 0; r1 < 24; r1++) {
      int64_t alu0 = ((r0 * 552) + (r1 * 23));
      b0[alu0] = 0.0f;
      _Bool alu1 = (_Bool)((r1 < 23) & (2 < r1));
      for (int64_t r3 = 0; r3 < 20; r3++) {
        float val1 = (alu1 ? b1[((((r0 * 400) + (r1 * 20)) + r3) + (-60))] : 0.0f);
        float alu2 = val1 + val0;
        float alu3 = (alu2 < 0.0f ? 0.0f : alu2);
        float alu4 = (alu1 ? alu3 : 0.0f);
        b0[((alu0 + r3) + 1)] = alu4;
      }
      for (int64_t r4 = 0; r4 < 2; r4++) {
        b0[((alu0 + r4) + 21)] = 0.0f;
      }
    }
  }
}
"""


def test_a_short_middle_is_not_split(monkeypatch):
    # 4 iterations in the middle (under kMinSplitMiddle): one loop with its gate, as before
    x = rng.standard_normal((2, 4, 4)).astype(np.float32)
    src = body(kernel_of(padded_relu(x, np.ones((2, 1, 1), np.float32), (1, 1, 1, 1)), "E_2_6_6").source(), "E_2_6_6")
    assert src.count("for (") == 3 and "(r2 < 5) & (_Bool)((0 < r2)" in src


@pytest.mark.parametrize("shape,pad", [
    ((3, 20, 20), (1, 1, 1, 1)),
    ((2, 5, 33), (0, 3, 2, 0)),      # no left edge
    ((2, 9, 40), (7, 0, 1, 1)),      # no right edge, a long left one
    ((1, 2, 16, 17), (1, 2, 0, 0)),
    ((4, 30), (-2, 3)),              # a crop on one side, padding on the other
    ((2, 12, 12), (9, 9, 1, 1)),     # edges longer than the middle
])
def test_values_match_torch(shape, pad):
    x = rng.standard_normal(shape).astype(np.float32)
    b = rng.standard_normal(shape[:-1] + (1,)).astype(np.float32)
    got = padded_relu(x, b, pad).numpy()
    want = torch.nn.functional.pad((torch.tensor(x) + torch.tensor(b)).relu(), pad).numpy()
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("stride,padding", [(1, 1), (2, 1), (1, 3)])
def test_a_conv_after_a_padded_activation_matches_torch(stride, padding):
    x = rng.standard_normal((2, 4, 19, 23)).astype(np.float32)
    w = rng.standard_normal((5, 4, 3, 3)).astype(np.float32)
    s = rng.standard_normal((1, 4, 1, 1)).astype(np.float32)
    got = (onegrad.Tensor(x) * onegrad.Tensor(s)).relu().conv2d(onegrad.Tensor(w), stride=stride, padding=padding).numpy()
    want = torch.nn.functional.conv2d((torch.tensor(x) * torch.tensor(s)).relu(), torch.tensor(w), stride=stride, padding=padding).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def concat_of_activations(a, b, axis):
    # each input's activation is computed only in its own part of the output
    return onegrad.Tensor(a).sigmoid().cat((onegrad.Tensor(b) * 0.5).relu(), dim=axis)


def test_a_concat_along_an_outer_axis_runs_each_part_as_its_own_loop():
    a = rng.standard_normal((16, 40)).astype(np.float32)
    b = rng.standard_normal((24, 40)).astype(np.float32)
    k = kernel_of(concat_of_activations(a, b, 0), "E_40_40")
    src = body(k.source(), "E_40_40")
    # two loops over the rows (16 and 24), each over the 40 columns, no gated load left: the
    # sigmoid's exp is computed for a's rows only
    assert src.count("for (") == 4 and "< 16; " in src and "< 24; " in src, src
    assert "? b" not in src, src


def test_a_concat_with_a_short_part_keeps_its_gate():
    # a part of 4 rows (under kMinSplitMiddle): one loop with its gate, as before
    a = rng.standard_normal((4, 40)).astype(np.float32)
    b = rng.standard_normal((24, 40)).astype(np.float32)
    src = body(kernel_of(concat_of_activations(a, b, 0), "E_28_40").source(), "E_28_40")
    assert src.count("for (") == 2 and "? b" in src, src


@pytest.mark.parametrize("shapes,axis", [
    (((16, 40), (24, 40)), 0),
    (((3, 9, 20), (3, 11, 20)), 1),
    (((2, 8, 12), (2, 8, 20)), 2),       # along the innermost axis
    (((9, 5), (8, 5)), 0),
])
def test_concat_values_match_torch(shapes, axis):
    a, b = (rng.standard_normal(s).astype(np.float32) for s in shapes)
    got = concat_of_activations(a, b, axis).numpy()
    want = torch.cat((torch.tensor(a).sigmoid(), (torch.tensor(b) * 0.5).relu()), dim=axis).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_three_inputs_concatenated_split_into_three_loops():
    parts = [rng.standard_normal((n, 32)).astype(np.float32) for n in (8, 12, 10)]
    t = onegrad.Tensor(parts[0]).exp().cat(onegrad.Tensor(parts[1]).exp(), onegrad.Tensor(parts[2]).exp(), dim=0)
    src = body(kernel_of(t, "E_30_32").source(), "E_30_32")
    assert "< 8; " in src and "< 12; " in src and "< 10; " in src and "? b" not in src, src
    np.testing.assert_allclose(t.numpy(), np.exp(np.concatenate(parts)), rtol=1e-6)


def test_a_stack_of_two_computed_tensors_computes_each_in_its_own_loop_nest():
    # the outer axis has 2 iterations, under kMinSplitMiddle, but each is a whole loop nest of one
    # input's values (Silero VAD's state output, the LSTM's h and c stacked): split, so c's gates
    # are computed for c's half only (0.024 -> 0.012 ms at batch 16)
    a = rng.standard_normal((16, 40)).astype(np.float32)
    b = rng.standard_normal((16, 40)).astype(np.float32)
    t = onegrad.Tensor.stack([onegrad.Tensor(a).sigmoid(), (onegrad.Tensor(b) * 0.5).relu()])
    src = body(kernel_of(t, "E_2_16_40").source(), "E_2_16_40")
    assert src.count("for (") == 4 and "< 2; " not in src and "? b" not in src, src
    want = torch.stack((torch.tensor(a).sigmoid(), (torch.tensor(b) * 0.5).relu())).numpy()
    np.testing.assert_allclose(t.numpy(), want, rtol=1e-6, atol=1e-7)
