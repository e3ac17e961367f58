"""trailing_sums: the sums and means over trailing dims that attention's softmax and layer norm take as a
product with a column; past 4 096 values a row keeps NumPy's pairwise accuracy (BLAS adds in order)."""

from __future__ import annotations

import numpy as np
import pytest

from minigrad.nn.functional import _attention, _normalization
from minigrad.nn.functional._trailing_sums import trailing_sums

_FLOAT32_EPS = float(np.finfo(np.float32).eps)


def test_attention_and_layer_norm_share_the_helper():
    assert _attention.trailing_sums is _normalization.trailing_sums is trailing_sums


@pytest.mark.parametrize("length", [5_000, 65_536])
@pytest.mark.parametrize("mean", [False, True])
def test_a_long_float32_row_sums_to_numpys_pairwise_accuracy(length, mean):
    """A row of 0.1s added in order drifts (BLAS's product: 6.9e-7 relative at 5 000 values, 9.7e-6 at 65 536);
    NumPy's pairwise sum stays within about one float32 epsilon."""
    rows = np.full((3, length), 0.1, np.float32)
    exact = rows.astype(np.float64).sum(axis=-1, keepdims=True) / (length if mean else 1)
    ours = trailing_sums(np, rows, mean=mean)
    assert ours.dtype == np.float32 and ours.shape == (3, 1)
    assert np.max(np.abs(ours - exact) / exact) <= 2 * _FLOAT32_EPS


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_short_rows_over_several_trailing_dims_match_numpy(dtype):
    a = np.random.default_rng(0).standard_normal((2, 3, 8, 16)).astype(dtype)
    tolerance = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(trailing_sums(np, a), a.sum(axis=-1, keepdims=True), rtol=tolerance)
    means = trailing_sums(np, a, 2, mean=True)
    assert means.shape == (2, 3, 1, 1) and means.dtype == dtype
    np.testing.assert_allclose(means, a.mean(axis=(-2, -1), keepdims=True), rtol=tolerance, atol=tolerance)


def test_other_dtypes_and_empty_arrays_take_numpys_sum():
    ints = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(trailing_sums(np, ints), ints.sum(axis=-1, keepdims=True))
    halves = np.linspace(0, 1, 12, dtype=np.float16).reshape(3, 4)
    assert trailing_sums(np, halves).dtype == np.float16
    np.testing.assert_array_equal(trailing_sums(np, np.ones((0, 4), np.float32)), np.ones((0, 1), np.float32))
