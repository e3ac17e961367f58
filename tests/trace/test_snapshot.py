"""Snapshots: copies taken at that moment, summaries above the cap, text forms, GPU values."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.trace import Snapshot, snapshot
from minigrad.trace.values import format_value


def test_snapshot_is_a_frozen_copy():
    t = mg.tensor([1.0, 2.0])
    snap = snapshot(t)
    t.array[0] = 99.0
    assert snap.values[0] == 1.0 and snap.tensor_id == t.id
    with pytest.raises(ValueError):
        snap.values[0] = 5.0
    with pytest.raises(AttributeError):
        snap.shape = (3,)


def test_summary_counts_nonfinite_and_uses_finite_values():
    arr = np.array([1.0, np.nan, -3.0, np.inf, 2.0, -np.inf])
    snap = snapshot(arr, max_values=2)
    s = snap.stats
    assert (s.min, s.max, s.mean, s.nan_count, s.inf_count) == (-3.0, 2.0, 0.0, 1, 2)
    assert s.norm == pytest.approx(np.sqrt(14.0))
    assert np.isnan(s.head[1]) and len(s.head) == 6
    assert snap.has_nonfinite()
    assert "nan=1" in snap.format() and "inf=2" in snap.format()
    assert snapshot(np.full(5, np.nan), max_values=1).stats.min is None
    ints = snapshot(np.arange(6), max_values=2)
    assert (ints.stats.min, ints.stats.max, ints.dtype) == (0.0, 5.0, "int64")
    assert not ints.has_nonfinite()


def test_describe_and_format_of_full_values():
    snap = snapshot(np.array([[1.0, -2.0], [3.0, 4.0]]))
    assert snap.describe().max == 4.0 and snap.describe().head == (1.0, -2.0, 3.0, 4.0)
    assert snap.format() == "[[1, -2], [3, 4]]"
    tiny = snapshot(np.array([2.4557e-05, 0.0013412, 0.42]))
    assert tiny.format() == format_value(tiny) == "[2.456e-05, 0.001341, 0.42]"
    assert snapshot(np.arange(100)).format() == "[0, 1, 2, …, 97, 98, 99]"
    wide = snapshot(np.linspace(0, 1, 50))
    assert wide.format(width=20).startswith("float64[50] min=0 max=1")


def test_a_summary_gives_up_what_does_not_fit_its_width_norm_first_then_dtype_mean_and_range():
    snap = snapshot(np.array([0.5, -1.25, np.nan, 3.0, np.inf] * 20))
    full = "float64[100] min=-1.25 max=3 mean=0.75 norm=14.71 nan=20 inf=20"
    assert snap.format(20) == full  # no summary width: every statistic, as the describer writes it
    assert snap.format(20, summary_width=len(full)) == full
    assert snap.format(20, summary_width=60) == "float64[100] min=-1.25 max=3 mean=0.75 nan=20 inf=20"
    assert snap.format(20, summary_width=48) == "[100] min=-1.25 max=3 mean=0.75 nan=20 inf=20"
    assert snap.format(20, summary_width=40) == "[100] min=-1.25 max=3 nan=20 inf=20"
    assert snap.format(20, summary_width=10) == "[100] nan=20 inf=20"  # the shape and the counts stay
    assert snapshot(np.array([1.0, 2.0])).format(20, summary_width=5) == "[1, 2]"  # values that fit stay


def test_equality():
    a = snapshot(np.array([1.0, np.nan]))
    assert a == snapshot(np.array([1.0, np.nan]))
    assert a != snapshot(np.array([1.0, 2.0]))
    assert a != snapshot(np.array([1.0, np.nan], dtype=np.float32))
    assert a != snapshot(np.array([1.0, np.nan]), max_values=1)
    assert isinstance(a, Snapshot) and a.__hash__ is None


@pytest.mark.cuda
def test_gpu_values_come_to_the_host():
    t = mg.tensor(np.arange(10.0), device="cuda")
    full = snapshot(t)
    assert isinstance(full.values, np.ndarray) and full.device.startswith("cuda")
    np.testing.assert_array_equal(full.values, np.arange(10.0))
    summary = snapshot(t, max_values=4)
    assert (summary.stats.min, summary.stats.max, summary.stats.mean) == (0.0, 9.0, 4.5)
    assert summary.stats.head == tuple(float(v) for v in range(8))
