"""Every op's forward-mode rule (JVP) against finite differences and against its backward rule.

For inputs x, tangents v and a cotangent u: ``J v`` from forward mode must match the central
difference ``(f(x + e v) - f(x - e v)) / 2e``, and ``<J v, u>`` must equal ``<v, Jᵀ u>`` from
reverse mode (the two rules of an op describe one Jacobian). float64 throughout; shapes drawn
by hypothesis where the op takes any shape.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import autograd
from minigrad.autograd import forward_ad as fwAD


def _jvp(fn, xs, vs):
    with fwAD.dual_level():
        out = fn(*[fwAD.make_dual(x, v) for x, v in zip(xs, vs)])
        primal, tangent = fwAD.unpack_dual(out)
    return primal.data, (np.zeros_like(primal.data) if tangent is None else tangent.data)


def check_forward_rule(fn, arrays, seed=0, eps=1e-6):
    """Forward mode == finite differences, and <J v, u> == <v, Jᵀ u>."""
    rng = np.random.default_rng(seed)
    xs = [mg.tensor(a, dtype=mg.float64) for a in arrays]
    vs = [mg.tensor(rng.standard_normal(a.shape), dtype=mg.float64) for a in arrays]
    value, jv = _jvp(fn, xs, vs)
    np.testing.assert_allclose(value, fn(*xs).data, rtol=1e-12, atol=1e-12)

    def shifted(sign):
        return fn(*[mg.tensor(x.data + sign * eps * v.data, dtype=mg.float64) for x, v in zip(xs, vs)]).data

    np.testing.assert_allclose(jv, (shifted(1) - shifted(-1)) / (2 * eps), rtol=1e-5, atol=1e-6)

    leaves = [mg.tensor(a, dtype=mg.float64, requires_grad=True) for a in arrays]
    out = fn(*leaves)
    u = rng.standard_normal(out.shape)
    grads = autograd.grad(out, leaves, mg.tensor(u, dtype=mg.float64), allow_unused=True, materialize_grads=True)
    lhs = float((jv * u).sum())
    rhs = sum(float((v.data * g.data).sum()) for v, g in zip(vs, grads))
    assert lhs == pytest.approx(rhs, rel=1e-9, abs=1e-9)


def _arr(shape, seed=1, positive=False, away=0.0):
    a = np.random.default_rng(seed).standard_normal(shape)
    if positive:
        a = np.abs(a) + 0.5
    if away:
        a = np.where(np.abs(a) < away, away * np.sign(a + 1e-300), a)
    return a


# name -> (fn, input arrays): one case per rule; differentiable away from kinks.
CASES = {
    "add": (lambda a, b: a + b, [_arr((3, 4)), _arr((4,), 2)]),
    "add_scalar": (lambda a: a + 2.5, [_arr((3,))]),
    "sub": (lambda a, b: a - b, [_arr((2, 3)), _arr((2, 1), 2)]),
    "rsub": (lambda a: 1.5 - a, [_arr((3,))]),
    "mul": (lambda a, b: a * b, [_arr((3, 4)), _arr((1, 4), 2)]),
    "mul_scalar": (lambda a: a * -3.0, [_arr((3,))]),
    "div": (lambda a, b: a / b, [_arr((3,)), _arr((3,), 2, positive=True)]),
    "div_scalar": (lambda a: a / 4.0, [_arr((3,))]),
    "rdiv": (lambda a: 2.0 / a, [_arr((3,), positive=True)]),
    "pow": (lambda a, b: a**b, [_arr((3,), positive=True), _arr((3,), 2)]),
    "pow_scalar": (lambda a: a**3, [_arr((3,))]),
    "rpow": (lambda a: 2.0**a, [_arr((3,))]),
    "neg": (lambda a: -a, [_arr((3,))]),
    "abs": (lambda a: a.abs(), [_arr((5,), away=0.1)]),
    "exp": (lambda a: a.exp(), [_arr((2, 3))]),
    "log": (lambda a: a.log(), [_arr((3,), positive=True)]),
    "log1p": (lambda a: a.log1p(), [_arr((3,), positive=True)]),
    "sqrt": (lambda a: a.sqrt(), [_arr((3,), positive=True)]),
    "rsqrt": (lambda a: a.rsqrt(), [_arr((3,), positive=True)]),
    "square": (lambda a: a.square(), [_arr((3,))]),
    "reciprocal": (lambda a: a.reciprocal(), [_arr((3,), positive=True)]),
    "sin": (lambda a: a.sin(), [_arr((3,))]),
    "cos": (lambda a: a.cos(), [_arr((3,))]),
    "tanh": (lambda a: a.tanh(), [_arr((3,))]),
    "sigmoid": (lambda a: a.sigmoid(), [_arr((3,))]),
    "erf": (lambda a: mg.erf(a), [_arr((3,))]),
    "relu": (lambda a: a.relu(), [_arr((6,), away=0.1)]),
    "leaky_relu": (lambda a: F.leaky_relu(a, 0.2), [_arr((6,), away=0.1)]),
    "elu": (lambda a: mg.elu(a), [_arr((6,), away=0.1)]),
    "gelu": (lambda a: F.gelu(a), [_arr((4,))]),
    "gelu_tanh": (lambda a: F.gelu(a, approximate="tanh"), [_arr((4,))]),
    "silu": (lambda a: F.silu(a), [_arr((4,))]),
    "softplus": (lambda a: F.softplus(a), [_arr((4,))]),
    "clamp": (lambda a: a.clamp(-0.5, 0.5), [_arr((8,), away=0.05) * 0.9 + 0.013]),
    "clamp_tensor_bounds": (lambda a, lo: a.clamp(min=lo), [_arr((6,)), _arr((6,), 3) + 0.37]),
    "maximum": (lambda a, b: mg.maximum(a, b), [_arr((5,)), _arr((5,), 2)]),
    "minimum": (lambda a, b: mg.minimum(a, b), [_arr((5,)), _arr((5,), 2)]),
    "where": (lambda a, b: mg.where(a > 0, a, b), [_arr((5,), away=0.1), _arr((5,), 2)]),
    "sign": (lambda a: a.sign(), [_arr((4,), away=0.1)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_rule(name):
    fn, arrays = CASES[name]
    check_forward_rule(fn, arrays)


UNARY_ANY_SHAPE = ["exp", "tanh", "sigmoid", "sin", "neg", "square", "gelu", "silu"]


@settings(max_examples=15, deadline=None)
@given(name=st.sampled_from(UNARY_ANY_SHAPE), shape=hnp.array_shapes(min_dims=0, max_dims=3, max_side=4))
def test_elementwise_rules_on_any_shape(name, shape):
    check_forward_rule(CASES[name][0], [_arr(shape)])


@settings(max_examples=15, deadline=None)
@given(
    op=st.sampled_from(["add", "sub", "mul", "maximum"]),
    shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3),
)
def test_binary_rules_broadcast(op, shapes):
    check_forward_rule(CASES[op][0], [_arr(shapes.input_shapes[0]), _arr(shapes.input_shapes[1], 2)])


def test_ops_without_a_rule_say_so():
    with fwAD.dual_level():
        x = fwAD.make_dual(mg.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]), mg.ones(1, 1, 2, 2))
        with pytest.raises(RuntimeError, match="Trying to use forward AD with \\w+ that does not support it"):
            F.max_pool2d(x, 2)


REDUCTION_CASES = {
    "sum": (lambda a: a.sum(), [_arr((3, 4))]),
    "sum_dim": (lambda a: a.sum(dim=1, keepdim=True), [_arr((3, 4))]),
    "mean": (lambda a: a.mean(dim=(0, 2)), [_arr((2, 3, 4))]),
    "var": (lambda a: a.var(dim=1), [_arr((3, 4))]),
    "std": (lambda a: a.std(), [_arr((3, 4))]),
    "amax": (lambda a: a.amax(dim=0), [_arr((3, 4))]),
    "max_all": (lambda a: a.max(), [_arr((3, 4))]),
    "max_dim": (lambda a: a.max(dim=1).values, [_arr((3, 4))]),
    "min_dim_keepdim": (lambda a: a.min(dim=0, keepdim=True).values, [_arr((3, 4))]),
    "prod": (lambda a: a.prod(dim=1), [_arr((3, 4))]),
    "prod_with_zero": (lambda a: a.prod(), [np.array([0.0, 2.0, -1.5])]),
    "logsumexp": (lambda a: a.logsumexp(1), [_arr((3, 4))]),
    "norm2": (lambda a: a.norm(), [_arr((3, 4))]),
    "norm1": (lambda a: a.norm(1, dim=1), [_arr((3, 4), away=0.1)]),
    "norm3": (lambda a: a.norm(3, dim=0), [_arr((3, 4), away=0.1)]),
    "norm_inf": (lambda a: a.norm(float("inf"), dim=1), [_arr((3, 4))]),
    "softmax": (lambda a: a.softmax(1), [_arr((3, 4))]),
    "log_softmax": (lambda a: a.log_softmax(0), [_arr((3, 4))]),
    "cumsum": (lambda a: a.cumsum(1), [_arr((3, 4))]),
}


@pytest.mark.parametrize("name", sorted(REDUCTION_CASES))
def test_reduction_forward_rule(name):
    fn, arrays = REDUCTION_CASES[name]
    check_forward_rule(fn, arrays)
