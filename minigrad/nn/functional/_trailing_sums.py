"""Sums and means over an array's trailing dims as one matrix product, for the fused ops' short rows."""

from __future__ import annotations

import math

__all__ = ["trailing_sums"]

# Rows longer than this keep NumPy's pairwise sums: BLAS adds a row in order, its rounding grows with the length.
PRODUCT_ROWS_UP_TO = 4096


def trailing_sums(xp, a, ndims: int = 1, *, mean: bool = False):
    """The sums (or, with ``mean``, the means) of array ``a`` over its last ``ndims`` dims, kept as size 1.

    For float32 and float64 rows of up to 4 096 values, a product with a column of ones (or of 1/n), where
    NumPy's sum over a short last axis runs an inner loop per row (W11's attention, 2 048 rows of 64, one
    thread: 55 us, the product 9 us; its layer norm's [8, 64, 128], 53 us with mean's own overhead, the
    product 5 us). Longer rows, other dtypes and empty arrays take NumPy's own sum or mean, pairwise.
    """
    dims = tuple(range(a.ndim - ndims, a.ndim))
    n = math.prod(a.shape[a.ndim - ndims :])
    if not a.size or a.dtype.kind != "f" or a.dtype.itemsize < 4 or n > PRODUCT_ROWS_UP_TO:
        return a.mean(axis=dims, keepdims=True) if mean else a.sum(axis=dims, keepdims=True)
    rows = a.reshape(-1, n) @ xp.full((n, 1), 1 / n if mean else 1, dtype=a.dtype)
    return rows.reshape(a.shape[: a.ndim - ndims] + (1,) * ndims)
