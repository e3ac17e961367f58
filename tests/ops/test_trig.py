"""Hyperbolic and inverse trig functions, atan2, expm1, logaddexp, lerp (and erf, log1p): torch's values and gradients."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg
from tests.torch_oracle import arr, check

UNARY = {
    "sinh": arr(2, 3),
    "cosh": arr(2, 3),
    "tan": arr(2, 3, low=-1.2, high=1.2),
    "asin": arr(2, 3, low=-0.9, high=0.9),
    "acos": arr(2, 3, low=-0.9, high=0.9),
    "atan": arr(2, 3, low=-4, high=4),
    "arcsin": arr(3, low=-0.9, high=0.9),
    "arccos": arr(3, low=-0.9, high=0.9),
    "arctan": arr(3),
    "expm1": arr(4, low=-1e-3, high=3),
    "erf": arr(2, 3),
    "log1p": arr(2, 3, low=-0.9, high=3),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_matches_torch(name):
    pytest.importorskip("torch")
    check(lambda lib, x: getattr(lib, name)(x), UNARY[name])
    check(lambda lib, x: getattr(x, name)(), UNARY[name])


@pytest.mark.parametrize("name", ["sinh", "cosh", "tan", "asin", "acos", "atan", "expm1", "erf", "log1p"])
def test_unary_of_integers_is_default_float(name):
    torch = pytest.importorskip("torch")
    out = getattr(mg, name)(mg.tensor([0, 1]))
    assert out.dtype == mg.float32
    np.testing.assert_allclose(out.array, getattr(torch, name)(torch.tensor([0, 1])).numpy(), rtol=1e-6)


def test_outside_the_domain_is_nan_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(mg.asin(mg.tensor([2.0])).array).all()
        assert np.isnan(mg.acos(mg.tensor([-1.5])).array).all()


@pytest.mark.parametrize("name", ["atan2", "arctan2", "logaddexp"])
def test_binary_broadcasts_like_torch(name):
    pytest.importorskip("torch")
    check(lambda lib, a, b: getattr(lib, name)(a, b), arr(2, 3), arr(3, seed=1))
    check(lambda lib, a, b: getattr(a, name)(b), arr(2, 1), arr(1, 4, seed=1))


def test_logaddexp_is_stable_for_large_inputs():
    out = mg.logaddexp(mg.tensor([1000.0, -1000.0]), mg.tensor([1000.0, -1000.0]))
    np.testing.assert_allclose(out.array, [1000 + np.log(2), -1000 + np.log(2)])


def test_lerp_scalar_and_tensor_weight():
    pytest.importorskip("torch")
    check(lambda lib, s, e: lib.lerp(s, e, 0.3), arr(2, 3), arr(2, 3, seed=1))
    check(lambda lib, s, e, w: lib.lerp(s, e, w), arr(2, 3), arr(3, seed=1), arr(2, 1, seed=2))
    check(lambda lib, s, e: s.lerp(e, weight=0.75), arr(3), arr(3, seed=1))


def test_lerp_errors():
    a = mg.tensor([1.0, 2.0])
    with pytest.raises(TypeError, match="lerp.*weight"):
        mg.lerp(a, a, "x")
    with pytest.raises(RuntimeError, match="dtype"):
        mg.lerp(a, a.double(), 0.5)
    with pytest.raises(TypeError, match="lerp.*end.*Tensor.*list"):
        mg.lerp(a, [1.0, 2.0], 0.5)


@pytest.mark.parametrize("name", ["sinh", "atan2", "logaddexp"])
def test_non_tensor_argument_is_a_type_error(name):
    fn = getattr(mg, name)
    with pytest.raises(TypeError, match=rf"{name}\(\): argument 'input' \(position 1\) must be Tensor, not list"):
        fn([1.0], mg.tensor([1.0])) if name != "sinh" else fn([1.0])
