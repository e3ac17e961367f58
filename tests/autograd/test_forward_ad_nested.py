"""Nested forward levels: a tensor carries one tangent per level, and the rule of a level runs with the
levels outside it active, so ``func.jvp`` of ``func.jvp`` gives second derivatives (float64 throughout).

The public ``forward_ad.dual_level`` still refuses to nest, with PyTorch's text; ``minigrad.func`` nests."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad as mg
from minigrad import func
from minigrad.autograd import Function
from minigrad.autograd import forward_ad as fwAD

from .test_forward_rules import CASES, MORE_CASES, REDUCTION_CASES, STRUCTURAL_CASES, UNARY_ANY_SHAPE, _arr

ALL_CASES = {**CASES, **REDUCTION_CASES, **STRUCTURAL_CASES, **MORE_CASES}


def _t(a):
    return mg.tensor(np.asarray(a, dtype=np.float64))


def _second_directional(fn, xs, us, vs):
    """``d/de [J_f(x + e u) v]`` at e = 0 by jvp of jvp, and by a central difference of the inner jvp."""

    def inner(*xs):
        return func.jvp(fn, tuple(xs), tuple(vs))[1]

    nested = func.jvp(inner, tuple(xs), tuple(us))[1].numpy()
    eps = 1e-5

    def shifted(sign):
        return inner(*[_t(x.numpy() + sign * eps * u.numpy()) for x, u in zip(xs, us)]).numpy()

    return nested, (shifted(1) - shifted(-1)) / (2 * eps)


@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_every_forward_rule_nests(name):
    """Each rule's own Tensor ops carry the outer level's tangent: jvp of jvp == d/de of the jvp."""
    fn, arrays = ALL_CASES[name]
    rng = np.random.default_rng(0)
    xs = [_t(a) for a in arrays]
    us = [_t(rng.standard_normal(a.shape)) for a in arrays]
    vs = [_t(rng.standard_normal(a.shape)) for a in arrays]
    nested, numeric = _second_directional(fn, xs, us, vs)
    np.testing.assert_allclose(nested, numeric, rtol=1e-5, atol=1e-6)


@settings(max_examples=15, deadline=None)
@given(name=st.sampled_from(UNARY_ANY_SHAPE), shape=hnp.array_shapes(min_dims=0, max_dims=3, max_side=4))
def test_elementwise_rules_nest_on_any_shape(name, shape):
    rng = np.random.default_rng(1)
    x, u, v = _t(_arr(shape)), _t(rng.standard_normal(shape)), _t(rng.standard_normal(shape))
    nested, numeric = _second_directional(CASES[name][0], [x], [u], [v])
    np.testing.assert_allclose(nested, numeric, rtol=1e-5, atol=1e-6)


def test_mixed_second_derivatives_are_symmetric():
    def f(x):
        return (x.sin() * x.exp()).sum() * x.tanh().prod()

    x, u, v = _t([0.3, -0.7, 1.1]), _t([1.0, 0.5, -2.0]), _t([0.2, 1.0, 0.4])

    def second(a, b):
        return func.jvp(lambda x: func.jvp(f, (x,), (b,))[1], (x,), (a,))[1].item()

    assert second(u, v) == pytest.approx(second(v, u), rel=1e-12)


def test_no_perturbation_confusion():
    """d/dx [x * d/dy (x + y)] = d/dx [x * 1] = 1: the inner level must not read x's outer tangent (2 if it did)."""
    one = _t(1.0)

    def outer(x):
        y = _t(2.0)
        return x * func.jvp(lambda y: x + y, (y,), (one,))[1]

    assert func.jvp(outer, (_t(3.0),), (one,))[1].item() == 1.0

    def outer_product(x):  # d/dx [x * d/dy (x y)] = d/dx [x * x] = 2x
        return x * func.jvp(lambda y: x * y, (_t(2.0),), (one,))[1]

    assert func.jvp(outer_product, (_t(3.0),), (one,))[1].item() == 6.0


def test_the_inner_primal_keeps_the_outer_tangent():
    def inner_value(x):
        value, _ = func.jvp(lambda x: x.sin(), (x,), (_t([1.0]),))
        return value

    x = _t([0.4])
    assert func.jvp(inner_value, (x,), (_t([2.0]),))[1].item() == pytest.approx(2 * np.cos(0.4))


def test_three_levels_give_a_third_derivative():
    one = _t(1.0)

    def d(f):
        return lambda x: func.jvp(f, (x,), (one,))[1]

    x = _t(0.7)
    assert d(d(d(lambda x: x.sin() * x)))(x).item() == pytest.approx(-3 * np.sin(0.7) - 0.7 * np.cos(0.7), rel=1e-12)


def test_nested_dual_levels_stay_refused_in_the_public_api():
    """As in PyTorch: ``dual_level`` refuses to nest, also inside a ``func.jvp`` (torch's text)."""
    message = "^Nested forward mode AD is not supported at the moment$"

    def opens_a_level(x):
        with fwAD.dual_level():
            return x * 2

    with pytest.raises(RuntimeError, match=message):
        func.jvp(opens_a_level, (_t([1.0]),), (_t([1.0]),))
    torch = pytest.importorskip("torch")
    import torch.autograd.forward_ad as tfw

    def opens_a_torch_level(x):
        with tfw.dual_level():
            return x * 2

    with pytest.raises(RuntimeError, match=message):
        torch.func.jvp(opens_a_torch_level, (torch.ones(1),), (torch.ones(1),))


def test_func_jvp_inside_a_public_level_nests_under_it():
    """A ``func.jvp`` opened inside ``dual_level`` is a level inside it (PyTorch refuses this one)."""
    with fwAD.dual_level():
        x = fwAD.make_dual(_t([0.5]), _t([1.0]))
        _, jv = func.jvp(lambda x: x**3, (x,), (_t([1.0]),))
        assert jv.item() == pytest.approx(0.75)
        assert fwAD.unpack_dual(jv).tangent.item() == pytest.approx(3.0)  # d/dx 3x² = 6x
        assert fwAD.unpack_dual(x * 2).tangent.item() == 2.0  # the public level is back as it was


def test_a_level_forgets_its_tangents_on_exit():
    kept = []

    def f(x):
        y = x.exp()
        kept.append(y)
        return y

    func.jvp(f, (_t([0.0]),), (_t([1.0]),))
    with fwAD.dual_level():  # same depth, a new level: the old tangent is not read
        assert fwAD.unpack_dual(kept[0]).tangent is None


class _Exp(Function):
    """exp with its forward-mode rule written on the saved output."""

    @staticmethod
    def forward(x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, out):  # a transformable Function (func.jvp): forward without ctx
        ctx.save_for_forward(out)
        ctx.save_for_backward(out)

    @staticmethod
    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        return g * out

    @staticmethod
    def jvp(ctx, t):
        (out,) = ctx.saved_tensors
        return t * out


def test_a_custom_function_rule_on_its_saved_output_nests():
    """The saved output carries the outer levels' tangents when an inner level's rule reads it."""
    x, u, v = _t([0.3, -0.5]), _t([1.0, 2.0]), _t([0.5, 1.0])
    nested = func.jvp(lambda x: func.jvp(_Exp.apply, (x,), (v,))[1], (x,), (u,))[1]
    np.testing.assert_allclose(nested.numpy(), np.exp(x.numpy()) * u.numpy() * v.numpy(), rtol=1e-12)


class _Sin(Function):
    """Ported from functorch's test_jvp_inside_autograd_function: forward and backward call ``func.jvp``."""

    @staticmethod
    def forward(ctx, x):
        _, neg_sin = func.jvp(lambda x: x.cos(), (x,), (mg.ones_like(x),))
        ctx.save_for_backward(x)
        return -neg_sin

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        _, cos = func.jvp(lambda x: x.sin(), (x,), (mg.ones_like(x),))
        return g * cos


def test_jvp_inside_a_custom_function():
    x = mg.tensor(0.8, dtype=mg.float64, requires_grad=True)
    y = _Sin.apply(x)
    assert y.item() == pytest.approx(np.sin(0.8))
    (g,) = mg.autograd.grad(y, x)
    assert g.item() == pytest.approx(np.cos(0.8))
    with fwAD.dual_level():  # forward's jvp opens a level while apply hides the public one
        dual = fwAD.make_dual(_t(0.8), _t(1.0))
        _Sin.apply(_t(0.3))
        assert fwAD.unpack_dual(dual.sin()).tangent.item() == pytest.approx(np.cos(0.8))


def test_a_detached_value_is_a_constant_at_every_level():
    """Ported from functorch's test_disable_fwd_grad_inside (a detached square stands for the no-grad one)."""

    def f(x):
        return x**2 - x.detach() ** 2

    x, one = _t(1.3), _t(1.0)
    assert func.jvp(f, (x,), (one,))[1].item() == pytest.approx(2.6)
    assert func.jvp(lambda x: func.jvp(f, (x,), (one,))[1], (x,), (one,))[1].item() == pytest.approx(2.0)
