"""Summary statistics in one pass: agreement with NumPy on every dtype, several blocks, views and non-finite values."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minigrad.trace import summary
from minigrad.trace.summary import BLOCK, device_moments, host_moments, summarise


def reference(arr):
    """The statistics the slow way: NumPy reductions over the finite values, in float64."""
    flat = arr.reshape(-1).astype(np.float64)
    finite = flat[np.isfinite(flat)]
    return finite.min(), finite.max(), finite.mean(), np.sqrt((finite * finite).sum())


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int64, np.int8, np.bool_])
@pytest.mark.parametrize("size", [1, 7, BLOCK, 3 * BLOCK + 5])
def test_summary_agrees_with_numpy(dtype, size):
    rng = np.random.default_rng(size)
    arr = (rng.standard_normal(size) * 50).astype(dtype)
    s = summarise(arr)
    lo, hi, mean, norm = reference(arr)
    assert (s.min, s.max) == (lo, hi)
    assert s.mean == pytest.approx(mean, rel=1e-5, abs=1e-5)
    assert s.norm == pytest.approx(norm, rel=1e-5)
    assert (s.nan_count, s.inf_count) == (0, 0)
    assert s.head == tuple(arr[:8].tolist())


def test_views_and_empty_arrays():
    base = np.arange(24.0).reshape(4, 6)
    view = base[:, ::2].T  # not contiguous
    s = summarise(view)
    assert (s.min, s.max, s.mean) == (0.0, 22.0, 11.0) and s.head == tuple(view.reshape(-1)[:8].tolist())
    empty = summarise(np.zeros((0, 3)))
    assert (empty.min, empty.mean, empty.nan_count, empty.head) == (None, None, 0, ())


@pytest.mark.parametrize("where", [0, BLOCK - 1, BLOCK, 2 * BLOCK + 3])
def test_nonfinite_in_any_block_is_counted(where):
    arr = np.ones(2 * BLOCK + 10, dtype=np.float32)
    arr[where] = np.nan
    arr[-1] = -np.inf
    s = summarise(arr)
    assert (s.nan_count, s.inf_count, s.min, s.max, s.mean) == (1, 1, 1.0, 1.0, 1.0)
    assert s.norm == pytest.approx(np.sqrt(arr.size - 2))


def test_overflowing_squares_fall_back_to_float64():
    arr = np.full(10, 1e30, dtype=np.float32)  # squares overflow float32, values are finite
    s = summarise(arr)
    assert (s.nan_count, s.inf_count) == (0, 0)
    assert s.norm == pytest.approx(np.sqrt(10) * 1e30, rel=1e-6)


def test_one_pass_per_block(monkeypatch):
    """Each block is reduced four ways and nothing else touches the array (no masks, copies or casts)."""
    arr = np.random.default_rng(0).standard_normal(3 * BLOCK).astype(np.float32)
    reads = []
    real_dot = np.dot

    def counting_dot(a, b):
        reads.append(a.size)
        return real_dot(a, b)

    monkeypatch.setattr(summary.np, "dot", counting_dot)
    assert host_moments(arr) is not None
    assert reads == [BLOCK] * 6  # sum and sum of squares of each block, while it is in cache


@settings(max_examples=40, deadline=None)
@given(
    hnp.arrays(
        np.float64,
        hnp.array_shapes(max_dims=3, max_side=6),
        elements=st.floats(-1e6, 1e6, width=32) | st.sampled_from([np.nan, np.inf, -np.inf]),
    ),
    st.sampled_from([np.float32, np.float64]),
)
def test_device_reductions_agree_with_host(arr, dtype):
    """The GPU path's reductions, run with NumPy as the array module, give the host path's statistics."""
    arr = arr.astype(dtype)
    flat = arr.reshape(-1)
    host, device = host_moments(flat), device_moments(flat, np)
    assert (host is None) == (device is None)
    if host is not None:
        np.testing.assert_allclose(device, host, rtol=1e-5, atol=1e-30)
    s = summarise(arr)
    assert s.nan_count == int(np.isnan(arr).sum()) and s.inf_count == int(np.isinf(arr).sum())
