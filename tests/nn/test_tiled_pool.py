"""max_pool2d whose windows tile the input (stride == kernel, no padding): torch's values, indices, gradients."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad.autograd import gradgradcheck
from tests.torch_oracle import Arr, check


def distinct(*shape, seed: int = 0) -> Arr:
    """Values without ties, so the finite differences of a max are clean."""
    rng = np.random.default_rng(seed)
    return Arr(rng.permutation(int(np.prod(shape))).reshape(shape) / 10.0)


@pytest.mark.parametrize(
    ("shape", "kwargs"),
    [
        ((2, 3, 8, 8), {"kernel_size": 2}),
        ((2, 3, 7, 9), {"kernel_size": 2}),  # a row and a column that fill no window are left out
        ((2, 3, 9, 8), {"kernel_size": (3, 2)}),
        ((2, 3, 6, 6), {"kernel_size": 3, "ceil_mode": True}),  # ceil_mode adds nothing when the tiles fit
        ((3, 6, 4), {"kernel_size": 2}),  # unbatched
        ((1, 2, 4, 4), {"kernel_size": 1}),
    ],
)
def test_tiled_max_pool_matches_torch(shape, kwargs):
    pytest.importorskip("torch")
    check(lambda lib, x: lib.nn.functional.max_pool2d(x, return_indices=True, **kwargs), distinct(*shape))


def test_tied_windows_send_the_gradient_to_their_first_maximum_as_torch():
    """After a relu whole windows are 0: each one's gradient goes to its first element only."""
    pytest.importorskip("torch")
    x = np.random.default_rng(2).standard_normal((2, 3, 6, 7))
    x[0, 0, :2, :2] = 0.5
    x[1, 2, 2:4, 4:6] = [[0.1, 0.7], [0.7, 0.7]]
    check(lambda lib, x: lib.nn.functional.max_pool2d(x.relu(), 2, return_indices=True), Arr(x), gradcheck_=False)


def test_a_nan_window_pools_to_nan_with_its_gradient_on_the_nan_as_torch():
    pytest.importorskip("torch")
    x = np.arange(32.0).reshape(1, 2, 4, 4)
    x[0, 1, 1, 0] = np.nan
    check(lambda lib, x: lib.nn.functional.max_pool2d(x, 2, return_indices=True), Arr(x), gradcheck_=False)


def test_tiled_max_pool_is_twice_differentiable_and_has_a_tangent():
    x = mg.tensor(distinct(2, 2, 5, 4).array, requires_grad=True)
    assert gradgradcheck(lambda x: F.max_pool2d(x, 2) ** 2, (x,))
    t = mg.tensor(np.random.default_rng(3).standard_normal((2, 2, 5, 4)))
    out, tangent = mg.func.jvp(lambda x: F.max_pool2d(x, 2), (x.detach(),), (t,))
    expected = F.max_pool2d(x.detach() + 1e-6 * t, 2) - out
    np.testing.assert_allclose(tangent.array, expected.array / 1e-6, rtol=1e-5)


def _ops(t) -> set:
    """Every op in the graph that made ``t``."""
    seen, stack, ops = set(), [t], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.op is not None:
            ops.add(node.op)
        stack.extend(node.parents)
    return ops


@pytest.mark.parametrize(
    ("shape", "kwargs"),
    [
        ((2, 3, 8, 8), {"kernel_size": 2}),
        ((2, 3, 7, 9), {"kernel_size": 2}),  # a row and a column that fill no window are left out
        ((2, 3, 9, 8), {"kernel_size": (3, 2)}),
        ((2, 3, 6, 6), {"kernel_size": 3, "ceil_mode": True}),  # ceil_mode adds nothing when the tiles fit
        ((2, 3, 6, 4), {"kernel_size": 2, "divisor_override": 3}),
        ((3, 6, 4), {"kernel_size": 2}),  # unbatched
    ],
)
def test_tiled_avg_pool_matches_torch_without_window_copies(shape, kwargs):
    pytest.importorskip("torch")
    (out,) = check(lambda lib, x: lib.nn.functional.avg_pool2d(x, **kwargs), distinct(*shape))
    assert "im2col" not in _ops(out) and "sum_tiles" in _ops(out)


def test_tiled_avg_pool_is_twice_differentiable_and_partial_windows_still_count_as_torch():
    x = mg.tensor(distinct(2, 2, 5, 4).array, requires_grad=True)
    assert gradgradcheck(lambda x: F.avg_pool2d(x, 2) ** 2, (x,))
    pytest.importorskip("torch")
    check(lambda lib, x: lib.nn.functional.avg_pool2d(x, 2, ceil_mode=True), distinct(2, 2, 5, 5))  # partial windows


@pytest.mark.parametrize("kernel", [(2, 2), (3, 2), (1, 3), (2, 1), (1, 1)])
def test_sum_tiles_and_spread_tiles_are_each_others_gradient(kernel):
    from minigrad.nn._tiles import spread_tiles, sum_tiles

    kh, kw = kernel
    x = mg.tensor(np.random.default_rng(4).standard_normal((2, 3, 2 * kh, 3 * kw)), requires_grad=True)
    g = mg.tensor(np.random.default_rng(5).standard_normal((2, 3, 2, 3)), requires_grad=True)
    expected = x.array.reshape(2, 3, 2, kh, 3, kw).sum((3, 5))
    np.testing.assert_allclose(sum_tiles(x, kernel).array, expected, rtol=1e-14)
    np.testing.assert_allclose((spread_tiles(g, kernel) * x).sum().item(), (g * sum_tiles(x, kernel)).sum().item())
    assert gradgradcheck(lambda x: sum_tiles(x, kernel) ** 2, (x,))
    assert gradgradcheck(lambda g: spread_tiles(g, kernel) ** 2, (g,))


@pytest.mark.parametrize("kernel", [(2, 2), (3, 2), (2, 3), (1, 3), (3, 1), (1, 1)])
def test_windows_full_of_ties_send_the_gradient_to_their_first_maximum_as_torch(kernel):
    """Values from {0, 1, 2}: most windows hold their maximum more than once, in every position."""
    pytest.importorskip("torch")
    x = np.random.default_rng(6).integers(0, 3, (2, 3, 6, 6)).astype(np.float64)
    check(lambda lib, x: lib.nn.functional.max_pool2d(x, kernel, return_indices=True), Arr(x), gradcheck_=False)


def test_a_float32_tiled_max_pool_keeps_float32_values_and_gradients_as_torch():
    torch = pytest.importorskip("torch")
    g = np.random.default_rng(5)
    xa = np.maximum(g.standard_normal((2, 3, 6, 4)), 0).astype(np.float32)  # ReLU'd: windows of tied zeros
    seed = g.standard_normal((2, 3, 3, 2)).astype(np.float32)
    ours, theirs = mg.tensor(xa, requires_grad=True), torch.tensor(xa, requires_grad=True)
    out, expected = F.max_pool2d(ours, 2), torch.nn.functional.max_pool2d(theirs, 2)
    out.backward(mg.tensor(seed))
    expected.backward(torch.tensor(seed))
    assert out.dtype == mg.float32 and ours.grad.dtype == mg.float32
    np.testing.assert_array_equal(out.detach().numpy(), expected.detach().numpy())
    np.testing.assert_array_equal(ours.grad.numpy(), theirs.grad.numpy())
