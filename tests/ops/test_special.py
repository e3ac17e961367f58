"""Inverse hyperbolics, exp2/log2/log10, the gamma family, erfc, erfinv, logit, xlogy, sinc, hypot, fmax/fmin,
nan_to_num, trunc/frac/sgn, heaviside: torch's values and gradients, gradchecked in float64."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.autograd import gradcheck
from tests.autograd.test_forward_rules import check_forward_rule
from tests.ops.strategies import arrays, shapes, to_tensor, values
from tests.torch_oracle import arr, check

UNARY = {
    "asinh": arr(2, 3, low=-4, high=4),
    "acosh": arr(2, 3, low=1.1, high=4),
    "atanh": arr(2, 3, low=-0.9, high=0.9),
    "arcsinh": arr(3),
    "arccosh": arr(3, low=1.2, high=3),
    "arctanh": arr(3, low=-0.8, high=0.8),
    "exp2": arr(2, 3),
    "log2": arr(2, 3, low=0.1, high=4),
    "log10": arr(2, 3, low=0.1, high=4),
    "frac": arr(2, 3, low=-3.9, high=3.9),
    "logit": arr(2, 3, low=0.05, high=0.95),
    "erfc": arr(2, 3, low=-3, high=5),
    "erfinv": arr(2, 3, low=-0.95, high=0.95),
    "lgamma": arr(2, 3, low=0.2, high=5),
    "digamma": arr(2, 3, low=0.2, high=5),
    "sinc": arr(2, 3, low=-2.5, high=2.5),
    "nan_to_num": arr(2, 3),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_matches_torch(name):
    pytest.importorskip("torch")
    check(lambda lib, x: getattr(lib, name)(x), UNARY[name])
    check(lambda lib, x: getattr(x, name)(), UNARY[name])


@pytest.mark.parametrize("name", ["trunc", "fix", "sgn"])
def test_piecewise_constant_values_and_zero_gradient(name):
    pytest.importorskip("torch")
    check(lambda lib, x: getattr(lib, name)(x), arr(2, 3, low=-3.9, high=3.9), grads=False)
    x = mg.tensor([-1.5, 2.5], requires_grad=True)
    getattr(x, name)().sum().backward()
    assert (x.grad.numpy() == 0).all()


@pytest.mark.parametrize("n", [1, 2, 3])
def test_polygamma_matches_torch(n):
    pytest.importorskip("torch")
    check(lambda lib, x: lib.polygamma(n, x), arr(2, 3, low=0.5, high=4), rtol=1e-6)
    check(lambda lib, x: x.polygamma(n), arr(3, low=0.5, high=4), rtol=1e-6)


def test_polygamma_zero_is_digamma_and_negative_n_is_refused():
    x = mg.tensor([0.5, 2.0])
    np.testing.assert_allclose(mg.polygamma(0, x).array, mg.digamma(x).array)
    with pytest.raises(RuntimeError, match="does not support negative n"):
        mg.polygamma(-1, x)


def test_digamma_at_zero_is_minus_inf_as_torch():
    torch = pytest.importorskip("torch")
    np.testing.assert_array_equal(mg.digamma(mg.tensor([0.0])).numpy(), torch.digamma(torch.tensor([0.0])).numpy())


def test_logit_with_eps_clamps_and_zeroes_the_gradient_outside():
    pytest.importorskip("torch")
    check(lambda lib, x: lib.logit(x, eps=0.2), arr(2, 4, low=0.01, high=0.99, seed=3), gradcheck_=False)
    check(lambda lib, x: lib.logit(x, 0.1), arr(5, low=0.15, high=0.85))


@pytest.mark.parametrize("name", ["hypot", "fmax", "fmin", "xlogy"])
def test_binary_broadcasts_like_torch(name):
    pytest.importorskip("torch")
    low = 0.1 if name == "xlogy" else -2.0
    check(lambda lib, a, b: getattr(lib, name)(a, b), arr(2, 3), arr(3, seed=1, low=low))
    check(lambda lib, a, b: getattr(a, name)(b), arr(2, 1), arr(1, 4, seed=1, low=low))


def test_xlogy_is_zero_where_x_is_zero_even_at_log_zero():
    torch = pytest.importorskip("torch")
    x, y = [0.0, 0.0, 2.0, 0.0], [0.0, np.nan, 3.0, 2.0]
    mx, my = mg.tensor(x, requires_grad=True), mg.tensor(y, requires_grad=True)
    tx, ty = torch.tensor(x, requires_grad=True), torch.tensor(y, requires_grad=True)
    mg.xlogy(mx, my).sum().backward()
    torch.xlogy(tx, ty).sum().backward()
    np.testing.assert_array_equal(mg.xlogy(mx, my).detach().numpy(), torch.xlogy(tx, ty).detach().numpy())
    np.testing.assert_array_equal(mx.grad.numpy(), tx.grad.numpy())
    np.testing.assert_array_equal(my.grad.numpy(), ty.grad.numpy())
    np.testing.assert_allclose(mg.xlogy(2, mg.tensor([3.0])).numpy(), torch.xlogy(2, torch.tensor([3.0])).numpy())


def test_fmax_and_fmin_ignore_nan_where_maximum_propagates_it():
    torch = pytest.importorskip("torch")
    a, b = [1.0, np.nan, np.nan, 4.0], [np.nan, 2.0, np.nan, 3.0]
    for name in ("fmax", "fmin"):
        ours = getattr(mg, name)(mg.tensor(a), mg.tensor(b)).numpy()
        np.testing.assert_array_equal(ours, getattr(torch, name)(torch.tensor(a), torch.tensor(b)).numpy())


def test_nan_to_num_replaces_and_passes_gradient_where_finite():
    torch = pytest.importorskip("torch")
    data = [np.nan, np.inf, -np.inf, 1.5]
    for kwargs in ({}, {"nan": 1.0, "posinf": 9.0, "neginf": -9.0}):
        x, t = mg.tensor(data, requires_grad=True), torch.tensor(data, requires_grad=True)
        mg.nan_to_num(x, **kwargs).sum().backward()
        torch.nan_to_num(t, **kwargs).sum().backward()
        np.testing.assert_array_equal(
            mg.nan_to_num(x, **kwargs).detach().numpy(), torch.nan_to_num(t, **kwargs).detach().numpy()
        )
        np.testing.assert_array_equal(x.grad.numpy(), t.grad.numpy())


def test_sgn_of_nan_is_zero_and_sinc_at_zero_is_one():
    torch = pytest.importorskip("torch")
    data = [np.nan, -2.0, 0.0, 3.0]
    np.testing.assert_array_equal(mg.sgn(mg.tensor(data)).numpy(), torch.sgn(torch.tensor(data)).numpy())
    x = mg.tensor([0.0], dtype=mg.float64, requires_grad=True)
    mg.sinc(x).sum().backward()
    assert mg.sinc(x).item() == 1.0 and x.grad.item() == 0.0


def test_heaviside_values_and_dtype_error():
    torch = pytest.importorskip("torch")
    x, v = [-1.0, 0.0, 2.0], [0.5]
    np.testing.assert_array_equal(
        mg.heaviside(mg.tensor(x), mg.tensor(v)).numpy(), torch.heaviside(torch.tensor(x), torch.tensor(v)).numpy()
    )
    with pytest.raises(RuntimeError, match="different dtypes"):
        mg.heaviside(mg.tensor(x), mg.tensor([1]))


@pytest.mark.parametrize("name", ["asinh", "exp2", "log2", "log10", "lgamma", "erfc", "erfinv", "sinc"])
def test_integers_compute_in_the_default_float(name):
    torch = pytest.importorskip("torch")
    data = [1, 0] if name != "lgamma" else [1, 2]
    out = getattr(mg, name)(mg.tensor(data))
    assert out.dtype == mg.float32
    np.testing.assert_allclose(out.numpy(), getattr(torch, name)(torch.tensor(data)).numpy(), rtol=1e-6)


def test_outside_the_domain_is_nan_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(mg.acosh(mg.tensor([0.5])).numpy()).all()
        assert np.isnan(mg.log2(mg.tensor([-1.0])).numpy()).all()
        assert np.isnan(mg.erfinv(mg.tensor([2.0])).numpy()).all()


@settings(max_examples=25, deadline=None)
@given(arrays(shapes(max_dims=2), values(-0.9, 0.9)))
def test_inverse_pairs_round_trip_and_gradcheck(a):
    x = to_tensor(a)
    np.testing.assert_allclose(x.atanh().tanh().array, a, atol=1e-12)
    np.testing.assert_allclose(x.asinh().sinh().array, a, atol=1e-12)
    np.testing.assert_allclose(x.erfinv().erf().array, a, atol=1e-12)
    assert gradcheck(lambda t: (t.atanh() + t.asinh() + t.erfinv() + t.exp2()).sum(), (x,))


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_hypot_is_the_norm_of_its_pair(data):
    shape = data.draw(shapes(max_dims=2))
    a, b = (to_tensor(data.draw(arrays(shape, values(avoid=(0.0,), margin=0.1)))) for _ in range(2))
    np.testing.assert_allclose(mg.hypot(a, b).array, np.sqrt(a.array**2 + b.array**2))
    assert gradcheck(lambda x, y: mg.hypot(x, y), (a, b))


def test_second_derivatives_gradcheck():
    x = mg.tensor([1.3, 2.2, 3.1], dtype=mg.float64, requires_grad=True)

    def first(t):
        (g,) = mg.autograd.grad((t.lgamma() + t.log2() + t.acosh()).sum(), (t,), create_graph=True)
        return g

    assert gradcheck(first, (x,))


@pytest.mark.parametrize("name", ["erfc", "erfinv", "gammaln", "digamma", "psi", "logit", "sinc", "exp2", "round"])
def test_torch_special_names_match_torch(name):
    torch = pytest.importorskip("torch")
    from minigrad.compat import torch_special

    data = np.array([0.2, 0.45, 0.7])
    np.testing.assert_allclose(
        getattr(torch_special, name)(mg.tensor(data)).numpy(), getattr(torch.special, name)(torch.tensor(data)).numpy()
    )
    np.testing.assert_allclose(
        torch_special.polygamma(2, mg.tensor(data)).numpy(), torch.special.polygamma(2, torch.tensor(data)).numpy()
    )
    np.testing.assert_allclose(
        torch_special.xlogy(mg.tensor(data), 3.0).numpy(), torch.special.xlogy(torch.tensor(data), 3.0).numpy()
    )


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_erfc_keeps_its_precision_where_one_minus_erf_is_zero(dtype):
    x = np.array([-2.0, 0.5, 4.0, 6.0, 9.0, 12.0])
    x = x if dtype == "float64" else x[:4]  # float32's erfc underflows past 9
    exact = np.array([math.erfc(v) for v in x])
    out = mg.erfc(mg.tensor(x, dtype=getattr(mg, dtype)))
    assert out.dtype == getattr(mg, dtype)
    np.testing.assert_allclose(out.numpy(), exact, rtol=1e-14 if dtype == "float64" else 1e-6)
    assert (1 - mg.erf(mg.tensor([9.0, 12.0], dtype=mg.float64))).numpy().tolist() == [0.0, 0.0]  # what erfc avoids


@settings(max_examples=25, deadline=None)
@given(arrays(shapes(max_dims=2), values(-3, 3)))
def test_erfc_is_one_minus_erf_and_gradchecks(a):
    x = to_tensor(a)
    np.testing.assert_allclose(x.erfc().array, 1 - x.erf().array, atol=1e-15)
    assert gradcheck(lambda t: t.erfc().sum(), (x,))


def test_erfc_forward_rule_and_second_derivative():
    x = mg.tensor([-1.5, 0.3, 2.2], dtype=mg.float64, requires_grad=True)
    check_forward_rule(lambda t: t.erfc(), [x.detach().numpy()])

    def first(t):
        (g,) = mg.autograd.grad(t.erfc().sum(), (t,), create_graph=True)
        return g

    assert gradcheck(first, (x,))


def test_erfc_in_place_and_under_vmap():
    x = mg.tensor([0.5, 1.5], dtype=mg.float64)
    expected = mg.erfc(x).numpy()
    assert x.erfc_() is x and x._version == 1
    np.testing.assert_array_equal(x.numpy(), expected)
    batch = mg.tensor(np.random.default_rng(0).normal(size=(4, 3)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a batching rule, not the loop fallback
        batched = mg.func.vmap(mg.erfc)(batch)
    np.testing.assert_array_equal(batched.numpy(), mg.erfc(batch).numpy())
