"""batch_norm in training with a weight and a bias is one node with its closed-form rule: against finite
differences (first, second order), torch's values, gradients and running statistics (float64 and float32),
forward mode (and forward over reverse) and vmap."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
import minigrad.func as mf
import minigrad.nn.functional as F
from minigrad.autograd import gradcheck, gradgradcheck

from ..conftest import rand64

torch = pytest.importorskip("torch")

SHAPES = {"[N, C]": (5, 3), "[N, C, L]": (4, 3, 2), "[N, C, H, W]": (3, 2, 3, 2)}


def _train(x, w, b):
    return F.batch_norm(x, None, None, w, b, training=True)


@pytest.mark.parametrize("case", SHAPES)
def test_batch_norm_gradcheck_and_gradgradcheck(case):
    shape = SHAPES[case]
    args = (rand64(*shape), rand64(shape[1]), rand64(shape[1]))
    assert gradcheck(_train, args)
    assert gradgradcheck(_train, args)


def test_batch_norm_is_one_node_of_input_weight_and_bias():
    x, w, b = rand64(4, 3, 2, 2), rand64(3), rand64(3)
    out = _train(x, w, b)
    assert out.op == "batch_norm"
    assert out.parents == (x, w, b)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", SHAPES)
def test_batch_norm_matches_torch_values_gradients_and_statistics(dtype, case):
    shape = SHAPES[case]
    g = np.random.default_rng(0)
    arrays = [g.standard_normal(s).astype(dtype) * 3 + 1 for s in (shape, shape[1:2], shape[1:2])]
    seed = g.standard_normal(shape).astype(dtype)
    ours = [mg.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    stats = [mg.zeros(shape[1], dtype=dtype), mg.ones(shape[1], dtype=dtype)]
    their_stats = [
        torch.zeros(shape[1], dtype=getattr(torch, dtype)),
        torch.ones(shape[1], dtype=getattr(torch, dtype)),
    ]
    out = F.batch_norm(ours[0], *stats, ours[1], ours[2], training=True, momentum=0.3)
    expected = torch.nn.functional.batch_norm(
        theirs[0], *their_stats, theirs[1], theirs[2], training=True, momentum=0.3
    )
    out.backward(mg.tensor(seed))
    expected.backward(torch.tensor(seed))
    tol = {"float64": 1e-12, "float32": 3e-5}[dtype]
    assert out.dtype == getattr(mg, dtype)
    assert all(a.grad.dtype == getattr(mg, dtype) for a in ours)
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), atol=tol)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=tol * 10)
    for a, b in zip(stats, their_stats):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=tol * 10)


def _central_difference(f, primals, tangents, eps=1e-6):
    plus, minus = (
        f(*(mg.tensor(p.numpy() + s * eps * t.numpy()) for p, t in zip(primals, tangents))).numpy() for s in (1, -1)
    )
    return (plus - minus) / (2 * eps)


def test_batch_norm_jvp_matches_finite_differences():
    g = np.random.default_rng(1)
    primals = tuple(mg.tensor(g.standard_normal(s)) for s in ((4, 3, 2, 2), (3,), (3,)))
    tangents = tuple(mg.tensor(g.standard_normal(p.shape)) for p in primals)
    _, tangent = mf.jvp(_train, primals, tangents)
    np.testing.assert_allclose(tangent.numpy(), _central_difference(_train, primals, tangents), atol=1e-7)


def test_batch_norm_hvp_through_the_rule():
    """Forward over reverse differentiates the rule, whose x̂ and rstd carry their own tangents."""
    g = np.random.default_rng(2)
    x, w, b = (mg.tensor(g.standard_normal(s)) for s in ((4, 3, 2, 2), (3,), (3,)))

    def loss(x):
        return (_train(x, w, b) ** 3).sum()

    direction = mg.tensor(g.standard_normal(x.shape))
    _, hvp = mf.jvp(mf.grad(loss), (x,), (direction,))
    expected = _central_difference(mf.grad(loss), (x,), (direction,))
    np.testing.assert_allclose(hvp.numpy(), expected, atol=1e-6)


def test_batch_norm_under_vmap_equals_the_loop():
    x, w, b = (t.detach() for t in (rand64(2, 4, 3, 2), rand64(3), rand64(3)))
    batched = mf.vmap(lambda entry: _train(entry, w, b))(x)
    looped = mg.stack([_train(x[i], w, b) for i in range(2)])
    np.testing.assert_allclose(batched.numpy(), looped.numpy(), atol=1e-12)


def test_batch_norm_without_a_graph_gives_the_same_values():
    x, w, b = rand64(4, 3, 2, 2), rand64(3), rand64(3)
    with mg.no_grad():
        quiet = _train(x, w, b)
    assert quiet.grad_fn is None
    np.testing.assert_allclose(quiet.numpy(), _train(x, w, b).detach().numpy(), atol=1e-15)


def test_the_input_gradient_node_differentiates_in_each_argument():
    """batch_norm's ∂L/∂x is a node of (g, x̂, rstd, weight) with its own rules: first and second order against
    finite differences, and its tangent, with the four as independent values."""
    from minigrad.nn.functional._normalization import batch_norm_input_grad

    args = (rand64(4, 3, 2, 2), rand64(4, 3, 2, 2), rand64(1, 3, 1, 1), rand64(3))
    assert batch_norm_input_grad(*args).op == "batch_norm_input_grad"
    assert gradcheck(batch_norm_input_grad, args)
    assert gradgradcheck(batch_norm_input_grad, args)
    primals = tuple(a.detach() for a in args)
    tangents = tuple(mg.tensor(np.random.default_rng(6).standard_normal(a.shape)) for a in args)
    _, tangent = mf.jvp(batch_norm_input_grad, primals, tangents)
    expected = _central_difference(batch_norm_input_grad, primals, tangents)
    np.testing.assert_allclose(tangent.numpy(), expected, atol=1e-7)
