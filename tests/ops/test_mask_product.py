"""A floating tensor times a bool mask of its shape (a ReLU's or a max pool's gradient): NumPy's values, dtype and
signs, in either order, and the product's gradient."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck
from tests.conftest import rand64


@pytest.mark.parametrize("tiles", [(1, 1), (32, 32)], ids=["8 values", "8 192 values"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mask_first", [False, True], ids=["values*mask", "mask*values"])
def test_product_with_a_mask_is_numpys(dtype, mask_first, tiles):
    values = np.tile(np.array([[1.5, -2.0, np.nan, -np.inf], [np.inf, -0.0, 3.0, -7.25]], dtype=dtype), tiles)
    mask = np.tile(np.array([[True, False, False, False], [True, True, False, True]]), tiles)
    a, m = mg.tensor(values), mg.tensor(mask)
    with np.errstate(invalid="ignore"):  # inf * False is NaN
        product = (m * a) if mask_first else (a * m)
        expected = (mask * values) if mask_first else (values * mask)
    assert product.array.dtype == expected.dtype
    np.testing.assert_array_equal(product.array, expected)
    np.testing.assert_array_equal(np.signbit(product.array), np.signbit(expected))


@pytest.mark.parametrize("shape", [(3, 4), (64, 80)])
def test_product_with_a_mask_leaves_its_operands_and_differentiates(shape):
    x = rand64(*shape)
    mask = mg.tensor(np.arange(x.numel()).reshape(shape) % 3 == 0)
    kept = mask.array.copy()
    assert gradcheck(lambda t: t * mask, (x,))
    assert gradcheck(lambda t: mask * t, (x,))
    np.testing.assert_array_equal(mask.array, kept)
    assert mask.dtype == mg.bool
