"""Elementwise ops and activations: gradients (first and second order), dtypes, edge values, errors."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck, gradgradcheck
from minigrad.ops import elementwise
from tests.conftest import rand64
from tests.ops.strategies import arrays, broadcastable_shapes, shapes, tensors, to_tensor, values

FEW = settings(max_examples=8, deadline=None)

# name -> (function, element strategy, twice differentiable at the sampled points)
POSITIVE = values(0.2, 4.0)
UNARY = {
    "exp": (mg.exp, values(), True),
    "log": (mg.log, POSITIVE, True),
    "log1p": (mg.log1p, values(-0.8, 4.0), True),
    "sqrt": (mg.sqrt, POSITIVE, True),
    "rsqrt": (mg.rsqrt, POSITIVE, True),
    "sin": (mg.sin, values(), True),
    "cos": (mg.cos, values(), True),
    "tanh": (mg.tanh, values(), True),
    "sigmoid": (mg.sigmoid, values(), True),
    "erf": (mg.erf, values(), True),
    "square": (mg.square, values(), True),
    "reciprocal": (mg.reciprocal, values(0.3, 4.0), True),
    "relu": (mg.relu, values(avoid=(0.0,)), True),
    "leaky_relu": (lambda t: mg.leaky_relu(t, 0.2), values(avoid=(0.0,)), True),
    "elu": (lambda t: mg.elu(t, alpha=1.5), values(avoid=(0.0,)), True),
    "gelu": (mg.gelu, values(), True),
    "gelu_tanh": (lambda t: mg.gelu(t, approximate="tanh"), values(), True),
    "silu": (mg.silu, values(), True),
    "softplus": (lambda t: mg.softplus(t, beta=2.0, threshold=4.0), values(avoid=(2.0,)), True),
    "clamp": (lambda t: mg.clamp(t, -1.0, 0.5), values(avoid=(-1.0, 0.5)), True),
    "clamp_min": (lambda t: t.clamp(min=0.25), values(avoid=(0.25,)), True),
    "clip_max": (lambda t: t.clip(max=-0.5), values(avoid=(-0.5,)), True),
    "abs_via_maximum": (lambda t: mg.maximum(t, -t), values(avoid=(0.0,)), True),
    "where_scalar": (lambda t: mg.where(t > 0, t * 2, 1.0), values(avoid=(0.0,)), True),
    "sign": (mg.sign, values(avoid=(0.0,)), True),
    "floor": (mg.floor, values(), True),
    "ceil": (mg.ceil, values(), True),
    "round": (mg.round, values(), True),
}

ROUNDING = {"sign", "floor", "ceil", "round"}


def _away_from_integers(t: mg.Tensor) -> mg.Tensor:
    """Move values off x.0 and x.5, where floor/ceil/round jump (finite differences would see the step)."""
    d = t.array
    frac = d - np.floor(d)
    d += np.where(np.abs(frac - 0.5) < 0.05, 0.1, 0) + np.where((frac < 0.05) | (frac > 0.95), 0.2, 0)
    return t


@pytest.mark.parametrize("name", sorted(UNARY))
@FEW
@given(data=st.data())
def test_unary_gradcheck(name, data):
    fn, elements, smooth = UNARY[name]
    x = data.draw(tensors(shapes(), elements))
    if name in ROUNDING:
        _away_from_integers(x)
    assert gradcheck(fn, (x,))
    if smooth:
        assert gradgradcheck(fn, (x,))


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_non_contiguous_input(name):
    fn, elements, _ = UNARY[name]
    base = to_tensor(np.array([[0.7, 1.3, 2.2], [0.45, 3.1, 0.9]]))
    if elements is not POSITIVE and name not in ("log1p", "reciprocal"):
        base.array[0] *= -1  # mixed signs where the op's domain allows them

    def through_transpose(t):
        tt = t.transpose(0, 1)
        assert not tt.array.flags.c_contiguous
        return fn(tt)

    assert gradcheck(through_transpose, (base,))
    expected = fn(to_tensor(base.array.T.copy(), requires_grad=False)).array
    np.testing.assert_allclose(through_transpose(base).array, expected)


# ---------------------------------------------------------------- values against NumPy / math
@pytest.mark.parametrize(
    "fn, ref",
    [
        (mg.exp, np.exp),
        (mg.log1p, np.log1p),
        (mg.rsqrt, lambda x: 1 / np.sqrt(x)),
        (mg.sin, np.sin),
        (mg.cos, np.cos),
        (mg.erf, np.vectorize(math.erf)),
        (mg.silu, lambda x: x / (1 + np.exp(-x))),
        (mg.gelu, lambda x: 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))),
        (
            lambda t: mg.gelu(t, approximate="tanh"),
            lambda x: 0.5 * x * (1 + np.tanh(0.7978845608 * (x + 0.044715 * x**3))),
        ),
        (lambda t: mg.elu(t, 2.0), lambda x: np.where(x > 0, x, 2.0 * (np.exp(x) - 1))),
        (lambda t: mg.leaky_relu(t, 0.1), lambda x: np.where(x > 0, x, 0.1 * x)),
        (mg.softplus, lambda x: np.log1p(np.exp(x))),
        (mg.reciprocal, lambda x: 1 / x),
    ],
)
def test_values_match_reference(fn, ref):
    x = np.linspace(0.1, 3.0, 7) * np.array([1, -1, 1, -1, 1, -1, 1])
    if fn in (mg.log1p, mg.rsqrt):
        x = np.abs(x)
    np.testing.assert_allclose(fn(mg.tensor(x, dtype=mg.float64)).array, ref(x), rtol=1e-7, atol=1e-9)


def test_erf_without_scipy_uses_exact_fallback(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.special", None)  # makes `from scipy.special import erf` fail
    x = np.linspace(-4, 4, 9)
    got = elementwise._erf_array(np, x)
    np.testing.assert_allclose(got, [math.erf(v) for v in x], rtol=0, atol=1e-15)
    assert got.dtype == np.float64
    assert elementwise._erf_array(np, x.astype(np.float32)).dtype == np.float32


def test_float32_erf_within_two_ulp_of_exact_erf():
    """float32 erf (and so GELU) comes from a rational function, not SciPy: within 2 float32 ulp of the
    exact erf on a dense grid over [-6, 6], on tiny magnitudes, and exact at 0, +-inf and NaN."""
    x = np.linspace(-6, 6, 400_001, dtype=np.float32)
    tiny = np.float32(10.0) ** np.linspace(-38, 0, 2_001, dtype=np.float32)
    x = np.concatenate([x, tiny, -tiny])
    exact = np.vectorize(math.erf)(x.astype(np.float64))
    got = mg.erf(mg.tensor(x)).numpy()
    assert got.dtype == np.float32
    ulps = np.abs(got.astype(np.float64) - exact) / np.spacing(np.abs(exact).astype(np.float32))
    assert ulps.max() <= 2.0
    special = mg.erf(mg.tensor([0.0, -0.0, np.inf, -np.inf, np.nan], dtype=mg.float32)).numpy()
    np.testing.assert_array_equal(special[:4], [0.0, -0.0, 1.0, -1.0])
    assert np.signbit(special[1]) and np.isnan(special[4])


def test_extreme_inputs_do_not_overflow():
    x = mg.tensor([-1000.0, -50.0, 0.0, 50.0, 1000.0], dtype=mg.float64)
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        s = mg.sigmoid(x).array
        sp = mg.softplus(x).array
        e = mg.elu(x).array
        si = mg.silu(x).array
    np.testing.assert_allclose(s, [0.0, 1.9287498479639178e-22, 0.5, 1.0, 1.0])
    np.testing.assert_allclose(sp, [0.0, 1.9287498479639178e-22, math.log(2), 50.0, 1000.0])
    np.testing.assert_allclose(e, [-1.0, -1.0, 0.0, 50.0, 1000.0])
    np.testing.assert_allclose(si, [-0.0, -50 * 1.9287498479639178e-22, 0.0, 50.0, 1000.0])


def test_softplus_threshold_is_linear_with_unit_gradient():
    x = mg.tensor([30.0, 2.0], dtype=mg.float64, requires_grad=True)
    y = mg.softplus(x, beta=1.0, threshold=20.0)
    y.sum().backward()
    assert y.array[0] == 30.0
    np.testing.assert_allclose(x.grad.array, [1.0, 1 / (1 + math.exp(-2.0))])


# ---------------------------------------------------------------- gradient rules at special points
def test_relu_gradient_is_zero_at_zero():
    x = mg.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    mg.relu(x).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 1.0]


def test_clamp_gradient_flows_to_input_at_the_bounds():
    x = mg.tensor([-2.0, -1.0, 0.0, 1.0, 2.0], requires_grad=True)
    x.clamp(-1.0, 1.0).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 1.0, 1.0, 0.0]


def test_clamp_tensor_bounds_route_gradient_to_the_winning_bound():
    # includes min > max, where the result is max (as in PyTorch)
    x = mg.tensor([0.0, 2.0, 5.0, 7.0], requires_grad=True)
    lo = mg.tensor([1.0, 2.0, 6.0, 8.0], requires_grad=True)
    hi = mg.tensor([3.0, 3.0, 5.5, 7.5], requires_grad=True)
    y = mg.clamp(x, lo, hi)
    assert y.tolist() == [1.0, 2.0, 5.5, 7.5]
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 0.0, 0.0]
    assert lo.grad.tolist() == [1.0, 0.0, 0.0, 0.0]
    assert hi.grad.tolist() == [0.0, 0.0, 1.0, 1.0]


@pytest.mark.parametrize("op", [mg.maximum, mg.minimum])
def test_ties_split_gradient_evenly(op):
    a = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = mg.tensor([1.0, 0.0, 5.0], requires_grad=True)
    op(a, b).sum().backward()
    if op is mg.maximum:
        assert a.grad.tolist() == [0.5, 1.0, 0.0]
        assert b.grad.tolist() == [0.5, 0.0, 1.0]
    else:
        assert a.grad.tolist() == [0.5, 0.0, 1.0]
        assert b.grad.tolist() == [0.5, 1.0, 0.0]


@pytest.mark.parametrize("op", [mg.sign, mg.floor, mg.ceil, mg.round])
def test_piecewise_constant_ops_have_zero_gradient(op):
    x = mg.tensor([-1.5, 0.2, 2.7], requires_grad=True)
    y = op(x)
    assert y.requires_grad
    (y * 3).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


# ---------------------------------------------------------------- broadcasting binary ops
@FEW
@given(data=st.data())
def test_maximum_minimum_broadcast_gradcheck(data):
    sa, sb = data.draw(broadcastable_shapes(2))
    a = to_tensor(data.draw(arrays(sa)))
    b = to_tensor(data.draw(arrays(sb)))
    assume(np.abs(a.array - b.array).min() > 0.01)  # ties are checked separately (gradient split 50/50)
    for op in (mg.maximum, mg.minimum):
        assert gradcheck(op, (a, b))


@FEW
@given(data=st.data())
def test_where_broadcast_gradcheck(data):
    sc, sa, sb = data.draw(broadcastable_shapes(3))
    cond = mg.tensor(data.draw(arrays(sc, values(-1, 1))) > 0)
    a = to_tensor(data.draw(arrays(sa)))
    b = to_tensor(data.draw(arrays(sb)))
    fn = lambda x, y: mg.where(cond, x, y)  # noqa: E731
    assert gradcheck(fn, (a, b))
    assert gradgradcheck(fn, (a, b))
    expected = np.where(cond.array, a.array, b.array)
    np.testing.assert_array_equal(fn(a, b).array, expected)


@FEW
@given(data=st.data())
def test_clamp_tensor_bounds_broadcast_gradcheck(data):
    sx, slo, shi = data.draw(broadcastable_shapes(3))
    lo = to_tensor(data.draw(arrays(slo, values(-3, -0.5))))
    hi = to_tensor(data.draw(arrays(shi, values(0.5, 3))))
    x = to_tensor(
        data.draw(arrays(sx, values(-4, 4, avoid=tuple(np.r_[lo.array.ravel(), hi.array.ravel()]), margin=0.02)))
    )
    assert gradcheck(lambda t, low, high: mg.clamp(t, low, high), (x, lo, hi))


def test_where_scalars_and_method_form():
    x = mg.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = x.where(x > 0, 0.0)
    assert y.tolist() == [1.0, 0.0, 3.0]
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 1.0]
    both = mg.where(mg.tensor([True, False]), 1.0, -1.0)
    assert both.tolist() == [1.0, -1.0] and both.dtype == mg.float32 and not both.requires_grad


def test_where_dtype_promotion_follows_torch():
    cond = mg.tensor([True, False])
    assert mg.where(cond, mg.tensor([1, 2]), 0.5).dtype == mg.float32
    assert mg.where(cond, mg.tensor([1, 2]), 0).dtype == mg.int64
    assert mg.where(cond, mg.tensor([1.0, 2.0], dtype=mg.float64), mg.tensor([1.0, 2.0])).dtype == mg.float64


# ---------------------------------------------------------------- dtypes
@pytest.mark.parametrize("fn", [mg.exp, mg.log, mg.sqrt, mg.rsqrt, mg.sin, mg.tanh, mg.sigmoid, mg.reciprocal])
def test_integer_input_gives_default_float(fn):
    assert fn(mg.tensor([1, 2, 3])).dtype == mg.float32


@pytest.mark.parametrize("fn", [mg.relu, mg.square, mg.sign, mg.floor, mg.round])
def test_integer_stays_integer(fn):
    out = fn(mg.tensor([-2, 3]))
    assert out.dtype == mg.int64


def test_float32_stays_float32_through_backward():
    x = mg.tensor([0.5, -1.0], requires_grad=True)
    for fn in (mg.gelu, mg.elu, mg.softplus, mg.silu, mg.erf):
        x.grad = None
        y = fn(x)
        assert y.dtype == mg.float32
        y.sum().backward()
        assert x.grad.dtype == mg.float32


def test_clamp_promotes_like_torch():
    assert mg.clamp(mg.tensor([1, 2, 3]), 1.5).tolist() == [1.5, 2.0, 3.0]
    assert mg.clamp(mg.tensor([1, 2, 3]), 1.5).dtype == mg.float32
    assert mg.clamp(mg.tensor([1, 5]), max=3).dtype == mg.int64


# ---------------------------------------------------------------- floor_divide and rounding
def test_floor_divide_rounds_down_and_is_constant():
    x = mg.tensor([5.0, -5.0, 7.5], requires_grad=True)
    y = x // 2
    assert y.tolist() == [2.0, -3.0, 3.0]
    assert not y.requires_grad
    assert (mg.tensor([5, -5]) // 2).tolist() == [2, -3]
    assert (7 // mg.tensor([2, -2])).tolist() == [3, -4]
    assert mg.div(mg.tensor([5.0, -5.0]), 2, rounding_mode="floor").tolist() == [2.0, -3.0]


def test_integer_floor_divide_by_zero_raises():
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        mg.tensor([1, 2]) // 0


def test_round_half_to_even_and_decimals():
    assert mg.round(mg.tensor([0.5, 1.5, 2.5, -0.5])).tolist() == [0.0, 2.0, 2.0, -0.0]
    np.testing.assert_allclose(mg.round(mg.tensor([1.2345, 2.5678], dtype=mg.float64), decimals=2).array, [1.23, 2.57])


# ---------------------------------------------------------------- errors
def test_clamp_needs_a_bound():
    with pytest.raises(RuntimeError, match="At least one of 'min' or 'max' must not be None"):
        mg.tensor([1.0]).clamp()


def test_where_condition_must_be_bool():
    with pytest.raises(
        RuntimeError, match="where expected condition to be a boolean tensor, but got a tensor with dtype Float"
    ):
        mg.where(mg.tensor([1.0]), mg.tensor([1.0]), 0.0)


def test_where_condition_must_be_a_tensor_in_both_forms():
    # as torch: where(): argument 'condition' (position 1) must be Tensor, not numpy.ndarray
    x = mg.tensor([1.0, -2.0])
    for condition in (np.array([True, False]), True):
        for form in (lambda c: mg.where(c, x, 0.0), lambda c: x.where(c, 0.0)):
            with pytest.raises(TypeError, match=r"where\(\): argument 'condition' \(position 1\) must be Tensor"):
                form(condition)


def test_where_shape_mismatch_names_shapes():
    with pytest.raises(RuntimeError, match=r"\[2\], \[3\], \[2\]"):
        mg.where(mg.tensor([True, False]), mg.tensor([1.0, 2.0, 3.0]), mg.tensor([1.0, 2.0]))


def test_maximum_shape_mismatch_names_shapes():
    with pytest.raises(RuntimeError, match=r"maximum: shapes \[2\] and \[3\] cannot be broadcast"):
        mg.maximum(mg.tensor([1.0, 2.0]), mg.tensor([1.0, 2.0, 3.0]))


def test_gelu_rejects_unknown_approximation():
    with pytest.raises(RuntimeError, match="approximate argument must be either none or tanh"):
        mg.gelu(mg.tensor([1.0]), approximate="fast")


def test_methods_are_bound():
    x = rand64(2, 3)
    for name in (
        "exp",
        "log1p",
        "rsqrt",
        "sin",
        "cos",
        "erf",
        "gelu",
        "silu",
        "softplus",
        "elu",
        "leaky_relu",
        "square",
    ):
        assert callable(getattr(x, name))
    assert x.clip(-1, 1).shape == (2, 3)
    assert mg.clip is mg.clamp


# ---------------------------------------------------------------- parity with PyTorch
TORCH_UNARY = [
    ("exp", lambda m, t: m.exp(t), False),
    ("log", lambda m, t: m.log(t), True),
    ("log1p", lambda m, t: m.log1p(t), True),
    ("sqrt", lambda m, t: m.sqrt(t), True),
    ("rsqrt", lambda m, t: m.rsqrt(t), True),
    ("sin", lambda m, t: m.sin(t), False),
    ("cos", lambda m, t: m.cos(t), False),
    ("tanh", lambda m, t: m.tanh(t), False),
    ("sigmoid", lambda m, t: m.sigmoid(t), False),
    ("erf", lambda m, t: m.erf(t), False),
    ("square", lambda m, t: m.square(t), False),
    ("reciprocal", lambda m, t: m.reciprocal(t), True),
    ("relu", lambda m, t: m.relu(t), False),
    ("sign", lambda m, t: m.sign(t), False),
    ("floor", lambda m, t: m.floor(t), False),
    ("clamp", lambda m, t: m.clamp(t, -0.5, 0.7), False),
]
TORCH_F = [
    ("leaky_relu", lambda F, t: F.leaky_relu(t, 0.3)),
    ("elu", lambda F, t: F.elu(t, 1.7)),
    ("gelu", lambda F, t: F.gelu(t)),
    ("gelu_tanh", lambda F, t: F.gelu(t, approximate="tanh")),
    ("silu", lambda F, t: F.silu(t)),
    ("softplus", lambda F, t: F.softplus(t, beta=1.5, threshold=3.0)),
]


def _torch_pair(data):
    torch = pytest.importorskip("torch")
    return torch, torch.tensor(data, requires_grad=True), mg.tensor(data, dtype=mg.float64, requires_grad=True)


def _compare(torch, ty, tx, my, mx, seed):
    np.testing.assert_allclose(my.array, ty.detach().numpy(), rtol=1e-10, atol=1e-12)
    ty.backward(torch.tensor(seed))
    my.backward(mg.tensor(seed, dtype=mg.float64))
    np.testing.assert_allclose(mx.grad.array, tx.grad.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name, call, positive", TORCH_UNARY, ids=[t[0] for t in TORCH_UNARY])
def test_torch_parity_unary(name, call, positive):
    rng = np.random.default_rng(1)
    data = rng.standard_normal((3, 4)) * 2
    if positive:
        data = np.abs(data) + 0.1
    torch, tx, mx = _torch_pair(data)
    seed = rng.standard_normal((3, 4))
    _compare(torch, call(torch, tx), tx, call(mg, mx), mx, seed)


@pytest.mark.parametrize("name, call", TORCH_F, ids=[t[0] for t in TORCH_F])
def test_torch_parity_activations(name, call):
    rng = np.random.default_rng(2)
    data = rng.standard_normal((5, 3)) * 3
    torch, tx, mx = _torch_pair(data)
    F = torch.nn.functional
    mine = {
        "leaky_relu": lambda t: mg.leaky_relu(t, 0.3),
        "elu": lambda t: mg.elu(t, 1.7),
        "gelu": mg.gelu,
        "gelu_tanh": lambda t: mg.gelu(t, approximate="tanh"),
        "silu": mg.silu,
        "softplus": lambda t: mg.softplus(t, beta=1.5, threshold=3.0),
    }[name]
    _compare(torch, call(F, tx), tx, mine(mx), mx, rng.standard_normal((5, 3)))


@pytest.mark.parametrize("op", ["maximum", "minimum"])
def test_torch_parity_extremum_with_ties_and_broadcast(op):
    torch = pytest.importorskip("torch")
    a = np.array([[1.0, 2.0, 3.0], [0.0, 5.0, -1.0]])
    b = np.array([1.0, 0.0, 3.0])
    ta, tb = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    ma, mb = mg.tensor(a, requires_grad=True), mg.tensor(b, requires_grad=True)
    getattr(torch, op)(ta, tb).sum().backward()
    getattr(mg, op)(ma, mb).sum().backward()
    np.testing.assert_array_equal(ma.grad.array, ta.grad.numpy())
    np.testing.assert_array_equal(mb.grad.array, tb.grad.numpy())


def test_torch_parity_clamp_tensor_bounds():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    x, lo, hi = rng.standard_normal((4, 3)), rng.standard_normal(3) - 0.5, rng.standard_normal((4, 1)) + 0.5
    t = [torch.tensor(v, requires_grad=True) for v in (x, lo, hi)]
    m = [mg.tensor(v, requires_grad=True) for v in (x, lo, hi)]
    torch.clamp(*t).sum().backward()
    mg.clamp(*m).sum().backward()
    np.testing.assert_array_equal(mg.clamp(*m).array, torch.clamp(*t).detach().numpy())
    for mt, tt in zip(m, t):
        np.testing.assert_array_equal(mt.grad.array, tt.grad.numpy())


@pytest.mark.cuda
def test_cuda_matches_cpu():
    x = np.linspace(-2, 2, 12).reshape(3, 4)
    for fn in (mg.exp, mg.gelu, mg.erf, mg.softplus, lambda t: mg.clamp(t, -1, 1), lambda t: mg.where(t > 0, t, 0.0)):
        cpu = fn(mg.tensor(x)).array
        gpu = fn(mg.tensor(x, device="cuda")).cpu().array
        np.testing.assert_allclose(gpu, cpu, rtol=1e-6)
