"""layer_norm with a weight and a bias is one node with its closed-form rule: against finite differences
(first, second order), torch's values and gradients, forward mode (and forward over reverse) and vmap."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
import minigrad.func as mf
import minigrad.nn.functional as F
from minigrad.autograd import gradcheck, gradgradcheck

from ..conftest import rand64

torch = pytest.importorskip("torch")

SHAPES = {"last_dim": ((3, 4, 5), (5,)), "last_two_dims": ((3, 4, 5), (4, 5))}


@pytest.mark.parametrize("case", SHAPES)
def test_layer_norm_gradcheck_and_gradgradcheck(case):
    shape, normalized = SHAPES[case]
    args = (rand64(*shape), rand64(*normalized), rand64(*normalized))

    def norm(x, w, b):
        return F.layer_norm(x, normalized, w, b)

    assert gradcheck(norm, args)
    assert gradgradcheck(norm, args)


def test_layer_norm_is_one_node_of_input_weight_and_bias():
    x, w, b = rand64(3, 5), rand64(5), rand64(5)
    out = F.layer_norm(x, (5,), w, b)
    assert out.op == "layer_norm"
    assert out.parents == (x, w, b)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_layer_norm_matches_torch_values_and_gradients(dtype):
    g = np.random.default_rng(0)
    arrays = [g.standard_normal(s).astype(dtype) for s in ((4, 6, 8), (8,), (8,))]
    seed = g.standard_normal((4, 6, 8)).astype(dtype)
    ours = [mg.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    out = F.layer_norm(ours[0], (8,), ours[1], ours[2])
    expected = torch.nn.functional.layer_norm(theirs[0], (8,), theirs[1], theirs[2])
    out.backward(mg.tensor(seed))
    expected.backward(torch.tensor(seed))
    tol = {"float64": 1e-12, "float32": 2e-5}[dtype]
    assert out.dtype == getattr(mg, dtype)
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), atol=tol)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=tol * 10)


@pytest.mark.parametrize("width", [128, 5000])
def test_float32_layer_norm_over_wide_offset_rows_matches_torch(width):
    """float32 rows away from 0 (mean 10): nanoGPT's 128 channels, whose means are a product with a column of
    1/n, and rows past 4 096, which keep NumPy's pairwise sums, give torch's values and gradients."""
    g = np.random.default_rng(1)
    arrays = [
        (g.standard_normal(s) + 10 * (i == 0)).astype("float32") for i, s in enumerate(((6, width), (width,), (width,)))
    ]
    seed = g.standard_normal((6, width)).astype("float32")
    ours = [mg.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    out = F.layer_norm(ours[0], (width,), ours[1], ours[2])
    expected = torch.nn.functional.layer_norm(theirs[0], (width,), theirs[1], theirs[2])
    out.backward(mg.tensor(seed))
    expected.backward(torch.tensor(seed))
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=0, atol=2e-5)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=0, atol=1e-4)


def _central_difference(f, primals, tangents, eps=1e-6):
    plus, minus = (
        f(*(mg.tensor(p.numpy() + s * eps * t.numpy()) for p, t in zip(primals, tangents))).numpy() for s in (1, -1)
    )
    return (plus - minus) / (2 * eps)


def test_layer_norm_jvp_matches_finite_differences():
    g = np.random.default_rng(1)
    primals = tuple(mg.tensor(g.standard_normal(s)) for s in ((3, 5), (5,), (5,)))
    tangents = tuple(mg.tensor(g.standard_normal(p.shape)) for p in primals)

    def norm(x, w, b):
        return F.layer_norm(x, (5,), w, b)

    _, tangent = mf.jvp(norm, primals, tangents)
    np.testing.assert_allclose(tangent.numpy(), _central_difference(norm, primals, tangents), atol=1e-7)


def test_layer_norm_hvp_through_the_rule():
    """Forward over reverse differentiates the rule, whose x̂ and rstd carry their own tangents."""
    g = np.random.default_rng(2)
    x, w, b = (mg.tensor(g.standard_normal(s)) for s in ((3, 5), (5,), (5,)))

    def loss(x):
        return (F.layer_norm(x, (5,), w, b) ** 3).sum()

    direction = mg.tensor(g.standard_normal(x.shape))
    _, hvp = mf.jvp(mf.grad(loss), (x,), (direction,))
    expected = _central_difference(mf.grad(loss), (x,), (direction,))
    np.testing.assert_allclose(hvp.numpy(), expected, atol=1e-6)


def test_layer_norm_under_vmap_equals_the_loop():
    x, w, b = (t.detach() for t in (rand64(2, 3, 5), rand64(5), rand64(5)))
    batched = mf.vmap(lambda row: F.layer_norm(row, (5,), w, b))(x)
    looped = mg.stack([F.layer_norm(x[i], (5,), w, b) for i in range(2)])
    np.testing.assert_allclose(batched.numpy(), looped.numpy(), atol=1e-12)


@pytest.mark.parametrize("dims, stat_shape", [((2,), (3, 4, 1)), ((1, 2), (3, 1, 1))])
def test_the_input_gradient_node_differentiates_in_each_argument(dims, stat_shape):
    """layer_norm's ∂L/∂x is a node of (g, x̂, rstd) with its own rules: first and second order against finite
    differences, and its tangent, with the three as independent values."""
    from minigrad.nn.functional._normalization import layer_norm_input_grad

    def input_grad(g, xhat, rstd):
        return layer_norm_input_grad(g, xhat, rstd, dims)

    args = (rand64(3, 4, 5), rand64(3, 4, 5), rand64(*stat_shape))
    assert input_grad(*args).op == "layer_norm_input_grad"
    assert gradcheck(input_grad, args)
    assert gradgradcheck(input_grad, args)
    primals = tuple(a.detach() for a in args)
    tangents = tuple(mg.tensor(np.random.default_rng(6).standard_normal(a.shape)) for a in args)
    _, tangent = mf.jvp(input_grad, primals, tangents)
    np.testing.assert_allclose(tangent.numpy(), _central_difference(input_grad, primals, tangents), atol=1e-7)


def test_the_rule_gives_x_its_gradient_through_the_input_gradient_node():
    x, w, b = rand64(3, 5), rand64(5), rand64(5)
    (dx,) = mg.autograd.grad(F.layer_norm(x, (5,), w, b).sum(), x, create_graph=True)
    assert dx.op == "layer_norm_input_grad"
