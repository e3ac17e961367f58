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
    return primal.array, (np.zeros_like(primal.array) if tangent is None else tangent.array)


def check_forward_rule(fn, arrays, seed=0, eps=1e-6):
    """Forward mode == finite differences, and <J v, u> == <v, Jᵀ u>."""
    rng = np.random.default_rng(seed)
    xs = [mg.tensor(a, dtype=mg.float64) for a in arrays]
    vs = [mg.tensor(rng.standard_normal(a.shape), dtype=mg.float64) for a in arrays]
    value, jv = _jvp(fn, xs, vs)
    np.testing.assert_allclose(value, fn(*xs).array, rtol=1e-12, atol=1e-12)

    def shifted(sign):
        return fn(*[mg.tensor(x.array + sign * eps * v.array, dtype=mg.float64) for x, v in zip(xs, vs)]).array

    np.testing.assert_allclose(jv, (shifted(1) - shifted(-1)) / (2 * eps), rtol=1e-5, atol=1e-6)

    leaves = [mg.tensor(a, dtype=mg.float64, requires_grad=True) for a in arrays]
    out = fn(*leaves)
    u = rng.standard_normal(out.shape)
    grads = autograd.grad(out, leaves, mg.tensor(u, dtype=mg.float64), allow_unused=True, materialize_grads=True)
    lhs = float((jv * u).sum())
    rhs = sum(float((v.array * g.array).sum()) for v, g in zip(vs, grads))
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


def test_an_op_without_a_rule_says_so():
    from minigrad.tensor import make

    def backward(g):
        return (g,)

    with fwAD.dual_level():
        plain = mg.tensor([1.0, 2.0])
        make(plain.array * 1.0, (plain,), backward, "ruleless")  # no tangent reaches it: no rule needed
        x = fwAD.make_dual(plain, mg.ones(2))
        with pytest.raises(RuntimeError, match="Trying to use forward AD with ruleless that does not support it"):
            make(x.array * 2.0, (x,), backward, "ruleless")


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


def _labels():
    return mg.tensor(np.array([0, 2, 1]))


STRUCTURAL_CASES = {
    "reshape": (lambda a: a.reshape(4, 3), [_arr((3, 4))]),
    "unsqueeze": (lambda a: a.unsqueeze(1), [_arr((3, 4))]),
    "squeeze": (lambda a: a.squeeze(), [_arr((3, 1, 4))]),
    "permute": (lambda a: a.permute(2, 0, 1), [_arr((2, 3, 4))]),
    "transpose": (lambda a: a.transpose(0, 1), [_arr((3, 4))]),
    "expand": (lambda a: a.expand(3, 4), [_arr((1, 4))]),
    "repeat": (lambda a: a.repeat(2, 3), [_arr((2, 2))]),
    "cat": (lambda a, b: mg.cat([a, b], 1), [_arr((2, 3)), _arr((2, 2), 2)]),
    "stack": (lambda a, b: mg.stack([a, b], 0), [_arr((2, 3)), _arr((2, 3), 2)]),
    "flip": (lambda a: a.flip(0), [_arr((3, 4))]),
    "pad_constant": (lambda a: F.pad(a, (1, 2), value=3.0), [_arr((2, 3))]),
    "pad_crop": (lambda a: F.pad(a, (-1, 1)), [_arr((2, 3))]),
    "pad_reflect": (lambda a: F.pad(a, (2, 1), mode="reflect"), [_arr((2, 4))]),
    "index_slice": (lambda a: a[1:, ::2], [_arr((3, 4))]),
    "index_repeated": (lambda a: a[[0, 0, 2]], [_arr((3, 4))]),
    "masked_fill": (lambda a: a.masked_fill(a > 0, 2.0), [_arr((3, 4), away=0.1)]),
    "matmul": (lambda a, b: a @ b, [_arr((3, 4)), _arr((4, 2), 2)]),
    "matmul_vec": (lambda a, b: a @ b, [_arr((3, 4)), _arr((4,), 2)]),
    "matmul_batched": (lambda a, b: a @ b, [_arr((2, 3, 4)), _arr((4, 2), 2)]),
    "outer": (lambda a, b: mg.outer(a, b), [_arr((3,)), _arr((4,), 2)]),
    "einsum": (lambda a, b: mg.einsum("ij,jk->ik", a, b), [_arr((3, 4)), _arr((4, 2), 2)]),
    "tril": (lambda a: a.tril(), [_arr((3, 3))]),
    "triu": (lambda a: a.triu(1), [_arr((3, 3))]),
    "diag_of_vector": (lambda a: mg.diag(a), [_arr((3,))]),
    "diag_of_matrix": (lambda a: mg.diag(a), [_arr((3, 3))]),
    "trace": (lambda a: a.trace(), [_arr((3, 3))]),
    "cross": (lambda a, b: mg.cross(a, b, dim=1), [_arr((2, 3)), _arr((2, 3), 2)]),
    "sinh": (lambda a: a.sinh(), [_arr((3,))]),
    "cosh": (lambda a: a.cosh(), [_arr((3,))]),
    "expm1": (lambda a: a.expm1(), [_arr((3,))]),
    "tan": (lambda a: a.tan(), [_arr((3,)) * 0.5]),
    "asin": (lambda a: a.asin(), [_arr((3,)) * 0.3]),
    "acos": (lambda a: a.acos(), [_arr((3,)) * 0.3]),
    "atan": (lambda a: a.atan(), [_arr((3,))]),
    "atan2": (lambda a, b: mg.atan2(a, b), [_arr((3,)), _arr((3,), 2)]),
    "logaddexp": (lambda a, b: mg.logaddexp(a, b), [_arr((3,)), _arr((3,), 2)]),
    "lerp": (lambda a, b: mg.lerp(a, b, 0.3), [_arr((3,)), _arr((3,), 2)]),
    "lerp_tensor_weight": (lambda a, b, w: mg.lerp(a, b, w), [_arr((3,)), _arr((3,), 2), _arr((3,), 3)]),
    "hardtanh": (lambda a: F.hardtanh(a), [_arr((6,), away=0.05) * 0.8 + 0.011]),
    "relu6": (lambda a: F.relu6(a * 4), [_arr((6,), away=0.05)]),
    "hardsigmoid": (lambda a: F.hardsigmoid(a * 3), [_arr((6,), away=0.05)]),
    "hardswish": (lambda a: F.hardswish(a * 3), [_arr((6,), away=0.05)]),
    "mish": (lambda a: F.mish(a), [_arr((4,))]),
    "softsign": (lambda a: F.softsign(a), [_arr((4,), away=0.05)]),
    "logsigmoid": (lambda a: F.logsigmoid(a), [_arr((4,))]),
    "cumprod": (lambda a: a.cumprod(1), [_arr((2, 4))]),
    "cumprod_with_zero": (lambda a: a.cumprod(0), [np.array([1.5, 0.0, -2.0, 0.5])]),
    "roll": (lambda a: a.roll(1, 0), [_arr((3, 2))]),
    "to_copy": (lambda a: a.to(mg.float64, copy=True), [_arr((3,))]),
    "clone": (lambda a: a.clone(), [_arr((3,))]),
    "linear": (lambda x, w, b: F.linear(x, w, b), [_arr((2, 3)), _arr((4, 3), 2), _arr((4,), 3)]),
    "embedding": (lambda w: F.embedding(mg.tensor(np.array([[0, 2], [2, 1]])), w), [_arr((3, 4))]),
    "softmax_f": (lambda a: F.softmax(a, dim=1), [_arr((2, 3))]),
    "cross_entropy": (lambda a: F.cross_entropy(a, _labels()), [_arr((3, 4))]),
    "cross_entropy_none": (lambda a: F.cross_entropy(a, _labels(), reduction="none"), [_arr((3, 4))]),
    "cross_entropy_prob_target": (
        lambda a, q: F.cross_entropy(a, q.softmax(1)),
        [_arr((3, 4)), _arr((3, 4), 2)],
    ),
    "binary_cross_entropy": (lambda a: F.binary_cross_entropy(a.sigmoid(), mg.tensor([0.0, 1.0, 1.0])), [_arr((3,))]),
    "conv2d": (lambda x, w: F.conv2d(x, w, padding=1), [_arr((1, 2, 4, 4)), _arr((3, 2, 3, 3), 2)]),
    "mse_loss": (lambda a, b: F.mse_loss(a, b), [_arr((3, 2)), _arr((3, 2), 2)]),
}


@pytest.mark.parametrize("name", sorted(STRUCTURAL_CASES))
def test_structural_forward_rule(name):
    fn, arrays = STRUCTURAL_CASES[name]
    check_forward_rule(fn, arrays)


def test_integer_results_carry_no_tangent():
    with fwAD.dual_level():
        x = fwAD.make_dual(mg.tensor([0.5, 2.5]), mg.tensor([1.0, 1.0]))
        assert fwAD.unpack_dual(x.to(mg.int64)).tangent is None
        assert fwAD.unpack_dual(x > 1).tangent is None
        assert fwAD.unpack_dual(x * 2).tangent.tolist() == [2.0, 2.0]


def test_forward_over_reverse_gives_the_hessian_vector_product():
    """The backward pass's own ops carry tangents: d/dε ∇f(x + ε v) = H v."""
    x0, v0 = _arr((4,)), _arr((4,), 2)
    W = mg.tensor(_arr((3, 4), 3))

    def f(x):
        return ((W @ x).tanh() ** 2).sum()

    with fwAD.dual_level():
        x = fwAD.make_dual(mg.tensor(x0, requires_grad=True), mg.tensor(v0))
        (g,) = autograd.grad(f(x), x, create_graph=True)
        hv = fwAD.unpack_dual(g).tangent.array
    xr = mg.tensor(x0, requires_grad=True)
    (gr,) = autograd.grad(f(xr), xr, create_graph=True)
    (hv_reverse,) = autograd.grad((gr * mg.tensor(v0)).sum(), xr)
    np.testing.assert_allclose(hv, hv_reverse.array, rtol=1e-10, atol=1e-12)


MORE_CASES = {
    "max_pool2d": (lambda x: F.max_pool2d(x, 2), [_arr((1, 2, 4, 4))]),
    "index_put": (lambda a, v: _put(a, v), [_arr((3, 4)), _arr((4,), 2)]),
    "scatter": (lambda a, s: a.scatter(1, mg.tensor(np.array([[0, 2], [1, 3]])), s), [_arr((2, 4)), _arr((2, 2), 2)]),
    "scatter_value": (lambda a: a.scatter(1, mg.tensor(np.array([[0], [3]])), 0.5), [_arr((2, 4))]),
    "scatter_add": (
        lambda a, s: a.scatter_add(0, mg.tensor(np.array([[0, 1, 0], [0, 1, 0]])), s),
        [_arr((2, 3)), _arr((2, 3), 2)],
    ),
    "contiguous": (lambda a: a.transpose(0, 1).contiguous() * 2, [_arr((2, 3))]),
    # each case of an op whose rules are picked when it is made (which operands are tensors, ranks, order)
    "index_put_scalar": (lambda a: _put(a, 0.5), [_arr((3, 4))]),
    "masked_fill_tensor": (lambda a, v: a.masked_fill(a > 0, v), [_arr((3, 4), away=0.1), _arr((), 2)]),
    "clamp_both_tensor_bounds": (
        lambda a, lo, hi: a.clamp(lo, hi),
        [_arr((6,), away=0.05), _arr((6,), 3) * 0.3 - 0.6, _arr((6,), 4) * 0.3 + 0.6],
    ),
    "clamp_tensor_max": (lambda a, hi: a.clamp(max=hi), [_arr((6,)), _arr((6,), 3) + 0.37]),
    "where_scalar_x": (lambda a, b: mg.where(a > 0, 2.0, b), [_arr((5,), away=0.1), _arr((5,), 2)]),
    "where_scalar_y": (lambda a: mg.where(a > 0, a, -1.0), [_arr((5,), away=0.1)]),
    "norm0": (lambda a: a.norm(0, dim=1), [_arr((3, 4), away=0.1)]),
    "norm_minus_inf": (lambda a: a.norm(float("-inf"), dim=0, keepdim=True), [_arr((3, 4))]),
    "linear_without_bias": (lambda x, w: F.linear(x, w), [_arr((2, 3)), _arr((4, 3), 2)]),
    "linear_of_a_batch": (lambda x, w, b: F.linear(x, w, b), [_arr((2, 2, 3)), _arr((4, 3), 2), _arr((4,), 3)]),
    "matmul_vector_matrix": (lambda a, b: a @ b, [_arr((3,)), _arr((3, 4), 2)]),
    "matmul_batch_vector": (lambda a, b: a @ b, [_arr((2, 4, 3)), _arr((3,), 2)]),
    "binary_cross_entropy_weighted": (
        lambda a: F.binary_cross_entropy(a.sigmoid(), mg.tensor([0.0, 1.0, 1.0]), weight=mg.tensor([0.5, 2.0, 1.0])),
        [_arr((3,))],
    ),
    "remainder": (lambda a, b: mg.remainder(a, b), [_arr((4,)) * 0.2, _arr((4,), 2) * 0.1 + 1.7]),
    "fmod": (lambda a, b: mg.fmod(a, b), [_arr((4,)) * 0.2, _arr((4,), 2) * 0.1 - 1.7]),
}


def _put(a, v):
    from minigrad.ops.indexing import put

    return put(a, 1, v)


@pytest.mark.parametrize("name", sorted(MORE_CASES))
def test_more_forward_rules(name):
    fn, arrays = MORE_CASES[name]
    check_forward_rule(fn, arrays)


# Issue 14's ops a PyTorch user reaches for: sorting, pieces, grids, NaN reductions, distances,
# the robust losses and directions, the recurrent layers (compositions: their rules come free).
def _with_nan(a):
    return mg.where(mg.tensor(np.array([[False, True, False, False], [True, False, False, True]])), float("nan"), a)


def _lstm(x):
    mg.manual_seed(0)
    return mg.nn.LSTM(3, 2, num_layers=2, bidirectional=True, dtype=mg.float64)(x)[0]


NEW_OP_CASES = {
    "sort": (lambda a: mg.sort(a, 1, descending=True).values, [_arr((3, 4))]),
    "topk": (lambda a: mg.topk(a, 2, 0, largest=False).values, [_arr((3, 4))]),
    "msort": (lambda a: mg.msort(a), [_arr((3, 4))]),
    "tensor_split": (lambda a: mg.tensor_split(a, [1, 3], 1)[1], [_arr((3, 4))]),
    "meshgrid": (
        lambda a, b: mg.meshgrid(a, b, indexing="xy")[0] * mg.meshgrid(a, b, indexing="ij")[1].T,
        [_arr((3,)), _arr((2,), 2)],
    ),
    "nansum": (lambda a: mg.nansum(_with_nan(a), 1), [_arr((2, 4))]),
    "nanmean": (lambda a: mg.nanmean(_with_nan(a), 0), [_arr((2, 4))]),
    "cdist": (lambda a, b: mg.cdist(a, b, p=3.0), [_arr((3, 2)), _arr((4, 2), 2)]),
    "huber_loss": (lambda a, b: F.huber_loss(a, b, reduction="none", delta=0.7), [_arr((3, 4)), _arr((3, 4), 2)]),
    "smooth_l1_loss": (lambda a, b: F.smooth_l1_loss(a, b, reduction="sum", beta=0.5), [_arr((5,)), _arr((5,), 2)]),
    "kl_div": (lambda a, b: F.kl_div(a, b, reduction="batchmean", log_target=True), [_arr((2, 3)), _arr((2, 3), 2)]),
    "cosine_similarity": (lambda a, b: F.cosine_similarity(a, b, dim=1), [_arr((3, 4)), _arr((3, 4), 2)]),
    "normalize": (lambda a: F.normalize(a, p=3.0, dim=0), [_arr((3, 4))]),
    "lstm": (_lstm, [_arr((4, 2, 3))]),
}


@pytest.mark.parametrize("name", sorted(NEW_OP_CASES))
def test_new_op_forward_rules(name):
    fn, arrays = NEW_OP_CASES[name]
    check_forward_rule(fn, arrays)
