"""gelu: float32 GELU worked in float32 with no erf of its own (more accurate than PyTorch's own GELU), the float32
erf within 2 ulp, and gelu's rule is one product with the slope Phi(a) + a phi(a) the forward computed, itself differentiable."""

from __future__ import annotations

import concurrent.futures
import math
import warnings

import numpy as np
import pytest
import scipy.special

import minigrad as mg
import minigrad.func as mf
from minigrad.autograd import gradcheck, gradgradcheck
from minigrad.ops._erf_float32 import erf_float32, gelu_float32

from ..conftest import rand64

_GRID = np.linspace(-8, 8, 400_001).astype(np.float32)


def _exact_gelu(x: np.ndarray) -> np.ndarray:
    wide = x.astype(np.float64)
    return wide * 0.5 * scipy.special.erfc(-wide / np.sqrt(2))


def test_float32_gelu_is_within_torchs_accuracy():
    """Within 5 float32 ulp of the exact GELU for x > 0 (torch 2.13's: 5.1) and 1.5e-6 absolute everywhere."""
    exact = _exact_gelu(_GRID)
    ours = mg.nn.functional.gelu(mg.tensor(_GRID)).numpy()
    assert ours.dtype == np.float32
    error = np.abs(ours.astype(np.float64) - exact)
    ulp = np.spacing(np.abs(exact).astype(np.float32)).astype(np.float64)
    assert np.max((error / ulp)[_GRID > 0]) <= 5
    assert np.max(error) <= 1.5e-6


def test_float32_gelu_matches_torch():
    torch = pytest.importorskip("torch")
    theirs = torch.nn.functional.gelu(torch.from_numpy(_GRID)).numpy()
    np.testing.assert_allclose(mg.nn.functional.gelu(mg.tensor(_GRID)).numpy(), theirs, rtol=0, atol=2e-6)


def test_float32_erf_stays_in_bounds_and_exact_at_the_ends():
    values = erf_float32(np.linspace(-10, 10, 200_001).astype(np.float32))
    assert np.max(np.abs(values)) <= 1.0
    special = erf_float32(np.array([0.0, -0.0, np.inf, -np.inf, np.nan], np.float32))
    np.testing.assert_array_equal(special[:4], [0.0, -0.0, 1.0, -1.0])
    assert np.signbit(special[1]) and np.isnan(special[4])


def test_float32_erf_is_within_2_ulp_of_math_erf():
    """Relative error against math.erf: near 0 (down to subnormals), through the bend and in the tails."""
    x = np.concatenate([np.geomspace(1e-40, 1e-3, 2_001), np.linspace(1e-3, 6, 200_001), [8.0, 30.0, 1e30, 3e38]])
    x = np.concatenate([x, -x]).astype(np.float32)
    exact = np.array([math.erf(float(v)) for v in x])
    ulp = np.spacing(np.abs(exact).astype(np.float32)).astype(np.float64)
    assert np.max(np.abs(erf_float32(x) - exact) / ulp) <= 2


def test_float32_gelu_in_the_tails_near_0_and_at_the_ends():
    """Relative to the exact GELU near 0 (x / 2 + x^2 / sqrt(2 pi), subnormals included) and for x > 0 up to
    float32's largest (x itself past 5.7), absolute past the negative side's bend; inf, nan and -0 as torch."""
    tiny = np.geomspace(1e-40, 1e-3, 2_001).astype(np.float32)
    large = np.concatenate([np.linspace(1e-3, 100, 400_001), np.geomspace(100, 3e38, 1_001)]).astype(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning where x R(x^2) runs past float32's range
        near_0, near_0_neg = gelu_float32(tiny, False)[0], gelu_float32(-tiny, False)[0]
        positive, negative = gelu_float32(large, True), gelu_float32(-large, True)
    for x, ours in ((tiny, near_0), (-tiny, near_0_neg), (large, positive[0])):
        exact = _exact_gelu(x)
        ulp = np.spacing(np.abs(exact).astype(np.float32)).astype(np.float64)
        assert np.max(np.abs(ours - exact) / ulp) <= 3
    assert np.max(np.abs(negative[0] - _exact_gelu(-large))) <= 1.5e-6
    np.testing.assert_array_equal(positive[0][large > 6], large[large > 6])
    np.testing.assert_array_equal(positive[1][large > 6], 1.0)
    wide = -large.astype(np.float64)
    exact_slope = 0.5 * scipy.special.erfc(-wide / np.sqrt(2)) + wide * np.exp(-wide * wide / 2) / np.sqrt(2 * np.pi)
    np.testing.assert_allclose(negative[1], exact_slope, rtol=0, atol=2e-7)
    with mg.no_grad():
        special = mg.nn.functional.gelu(mg.tensor(np.array([0.0, -0.0, np.inf, np.nan], np.float32))).numpy()
    np.testing.assert_array_equal(special, [0.0, -0.0, np.inf, np.nan])
    assert np.signbit(special[1])


def test_gelu_rule_is_one_product_with_its_slope():
    a = rand64(3, 4)
    out = mg.nn.functional.gelu(a)
    (slope,) = [v for v in out._backward.__closure__ if isinstance(v.cell_contents, mg.Tensor)]
    x = a.detach().numpy()
    expected = 0.5 * scipy.special.erfc(-x / np.sqrt(2)) + x * np.exp(-x * x / 2) / np.sqrt(2 * np.pi)
    np.testing.assert_allclose(slope.cell_contents.detach().numpy(), expected, rtol=1e-14)


def test_gelu_gradcheck_gradgradcheck_and_third_order():
    a = rand64(3, 4)
    assert gradcheck(mg.nn.functional.gelu, (a,))
    assert gradgradcheck(mg.nn.functional.gelu, (a,))
    x = a.detach()

    def slope(t):
        return mf.grad(lambda u: mg.nn.functional.gelu(u).sum())(t).sum()

    third = mf.grad(lambda t: mf.grad(slope)(t).sum())(x)
    # the slope's derivative is phi(x) (2 - x^2), and that one's phi(x) (x^3 - 4x)
    v = x.numpy()
    phi = np.exp(-v * v / 2) / np.sqrt(2 * np.pi)
    np.testing.assert_allclose(third.numpy(), phi * (v**3 - 4 * v), rtol=1e-10, atol=1e-14)


def test_gelu_jvp_is_the_slope_times_the_tangent():
    x, t = (mg.tensor(np.random.default_rng(s).standard_normal((3, 4))) for s in (0, 1))
    _, tangent = mf.jvp(mg.nn.functional.gelu, (x,), (t,))
    v = x.numpy()
    slope = 0.5 * scipy.special.erfc(-v / np.sqrt(2)) + v * np.exp(-v * v / 2) / np.sqrt(2 * np.pi)
    np.testing.assert_allclose(tangent.numpy(), slope * t.numpy(), rtol=1e-12)


def test_gelu_without_grad_keeps_no_rule():
    with mg.no_grad():
        out = mg.nn.functional.gelu(rand64(3))
    assert out._backward is None


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_float32_gelu_and_its_gradient_stay_float32(approximate):
    x = mg.tensor(np.linspace(-3, 3, 7, dtype=np.float32), requires_grad=True)
    y = mg.nn.functional.gelu(x, approximate=approximate)
    y.sum().backward()
    assert y.dtype == mg.float32 and x.grad.dtype == mg.float32


def test_float32_gelu_slope_across_blocks_matches_the_exact_slope():
    """The float32 value and slope are worked block by block: a size past one block (and not a multiple of
    it) gives, everywhere, the float64 slope Phi(x) + x phi(x) to float32 accuracy."""
    x = np.random.default_rng(3).normal(0, 3, 65536 * 2 + 7).astype(np.float32)
    t = mg.tensor(x, requires_grad=True)
    y = mg.nn.functional.gelu(t)
    y.backward(mg.ones_like(y))
    wide = x.astype(np.float64)
    slope = 0.5 * scipy.special.erfc(-wide / np.sqrt(2)) + wide * np.exp(-wide * wide / 2) / np.sqrt(2 * np.pi)
    np.testing.assert_allclose(t.grad.numpy(), slope, rtol=0, atol=2e-6)
    np.testing.assert_allclose(y.detach().numpy(), _exact_gelu(x), rtol=0, atol=1.5e-6)
    with mg.no_grad():
        np.testing.assert_array_equal(mg.nn.functional.gelu(mg.tensor(x)).numpy(), y.detach().numpy())


def test_float32_gelu_from_several_threads_at_once_matches_one_thread():
    """gelu's work arrays are kept between calls, one pair per thread: threads running at once do not share them."""
    inputs = [np.random.default_rng(s).normal(0, 3, 65536 * 2 + 7 * s).astype(np.float32) for s in range(8)]
    alone = [gelu_float32(x, True) for x in inputs]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda x: gelu_float32(x, True), inputs * 4))
    for (value, slope), (expected_value, expected_slope) in zip(together, alone * 4):
        np.testing.assert_array_equal(value, expected_value)
        np.testing.assert_array_equal(slope, expected_slope)
