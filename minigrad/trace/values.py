"""Short text for values: small arrays inline, large ones summarised (diagram boxes, edge labels, and
the describer's short form of an event)."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["format_value", "format_number", "mean_or_zero", "stats_mean", "rounding_zone", "format_array"]


def format_number(x, precision: int = 4) -> str:
    """One number with ``precision`` significant digits (``2``, ``-0.3333``, ``1.5e+08``, ``nan``).

    A fraction within 0.01 of 1 or -1 keeps ``precision`` significant digits of its
    distance from it (``0.9999877``, not ``1``; ``-0.9993293``, not ``-0.9993``), up to
    ``precision + 3`` decimals: a learner who works tanh's ``1 - out**2`` or the
    sigmoid's ``out * (1 - out)`` by hand from the shown value should get the
    gradient shown (2.456e-05 and 0.001341, not 0 and 0.0014).
    """
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    distance = 1 - abs(x)
    if 0 < distance < 0.01:  # leading nines: the digits of 1 - |x| are what a rule like 1 - x**2 keeps
        decimals = min(precision - 1 - math.floor(math.log10(distance)), precision + 3)
        return f"{x:.{decimals}f}".rstrip("0").rstrip(".")
    return f"{x:.{precision}g}"


def rounding_zone(dtype, count: int, scale: float) -> float:
    """How far from zero the mean of ``count`` values of ``dtype``, none larger than ``scale`` in
    magnitude, can land by rounding alone: ``sqrt(count) * eps * scale``, ``eps`` the dtype's machine
    epsilon (0 for integers and booleans, whose sums are exact).

    Summing n such values in some order (BLAS kernels and thread counts choose it) rounds each
    partial sum; the error of the mean is at most ``(n - 1) * eps/2 * scale`` and is of size
    ``sqrt(n) * eps/2 * scale`` in practice (Higham and Mary's probabilistic bound). Values that
    cancel, such as a softmax gradient whose rows sum to 0, have a mean made of that error only:
    lesson 7's ``float32[100, 2]`` gradient, scale 0.006117, printed a mean of -4.657e-12,
    5.821e-12 or -1.397e-11 depending on the machine, all inside its zone of 1.0e-08.
    """
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        return 0.0
    if dtype.kind not in "fc":
        return 0.0
    return math.sqrt(count) * float(np.finfo(dtype).eps) * scale


def mean_or_zero(mean: float, *, dtype, count: int, scale: float) -> float:
    """The mean, or 0.0 when it is zero up to rounding (within :func:`rounding_zone` of zero): there
    the order of summation alone decides its digits, which differ from machine to machine, and the
    lesson texts and every view must print the same on any machine."""
    return 0.0 if abs(mean) <= rounding_zone(dtype, count, scale) else float(mean)


def stats_mean(stats, dtype, size: int) -> float:
    """:func:`mean_or_zero` of summary statistics (:class:`~minigrad.trace.summary.Stats` of ``size``
    values of ``dtype``, their mean over the finite ones)."""
    finite = size - stats.nan_count - stats.inf_count
    return mean_or_zero(stats.mean, dtype=dtype, count=finite, scale=max(-stats.min, stats.max))


def _summary(arr: np.ndarray, precision: int) -> str:
    """``mean/std/min/max`` of a large array, with counts of non-finite entries."""
    if arr.dtype.kind not in "fiub":
        return f"{arr.size} values"
    vals = arr.astype(np.float64, copy=False).ravel()
    finite = vals[np.isfinite(vals)]
    parts = []
    if finite.size:
        lo, hi = finite.min(), finite.max()
        mean = mean_or_zero(finite.mean(), dtype=arr.dtype, count=finite.size, scale=max(-lo, hi))
        parts.append(
            f"mean {format_number(mean, precision)} std {format_number(finite.std(), precision)} "
            f"min {format_number(lo, precision)} max {format_number(hi, precision)}"
        )
    n_nan = int(np.isnan(vals).sum())
    n_inf = int(np.isinf(vals).sum())
    if n_nan:
        parts.append(f"{n_nan} nan")
    if n_inf:
        parts.append(f"{n_inf} inf")
    return ", ".join(parts) or "empty"


def format_value(value, precision: int = 4, max_inline: int = 6) -> str:
    """Text for a value: a number, an array of at most ``max_inline`` elements in full, else a summary.

    Accepts Python numbers, NumPy arrays (any object with ``__array__``), text,
    and trace snapshots (objects with ``values`` and ``stats``: the values when
    kept, else the recorded statistics). Nested arrays are shown with their
    brackets: ``[[1, 2], [3, 4]]``.
    """
    if value is None:
        return "None"
    if isinstance(value, str):
        return value
    if hasattr(value, "values") and hasattr(value, "stats"):
        if getattr(value, "dropped", False):
            return "dropped (over the recording's memory budget)"
        if value.values is None:
            return _stats_summary(value, precision)
        value = value.values
    if isinstance(value, (bool, int, float, np.generic)):
        return format_number(value, precision)
    arr = np.asarray(value)
    if arr.ndim == 0:
        return format_number(arr.item(), precision)
    if arr.size <= max_inline:
        return _nested(arr, precision)
    return _summary(arr, precision)


def _stats_summary(snap, precision: int) -> str:
    """Text for a snapshot's recorded summary (min, max, mean, norm, NaN/Inf counts)."""
    stats, parts = snap.stats, []
    if stats.mean is not None:
        mean = stats_mean(stats, snap.dtype, math.prod(snap.shape))
        parts.append(
            f"mean {format_number(mean, precision)} min {format_number(stats.min, precision)} "
            f"max {format_number(stats.max, precision)} norm {format_number(stats.norm, precision)}"
        )
    if stats.nan_count:
        parts.append(f"{stats.nan_count} nan")
    if stats.inf_count:
        parts.append(f"{stats.inf_count} inf")
    return ", ".join(parts) or "empty"


def format_array(arr: np.ndarray, width: int, precision: int = 4) -> str | None:
    """An array in the describer's number form (``[0.9217, -0.999, 1]``) when it fits ``width``
    characters; a long vector as its first and last three entries (``[0, 1, 2, …, 97, 98, 99]``);
    None when neither fits (the caller summarises)."""
    if arr.ndim == 0:
        return format_number(arr.item(), precision)
    if arr.size <= 4 * width:
        text = _nested(arr, precision)
        if len(text) <= width:
            return text
    if arr.ndim == 1 and arr.size > 6:
        ends = [format_number(v, precision) for v in (*arr[:3].tolist(), *arr[-3:].tolist())]
        text = "[" + ", ".join(ends[:3]) + ", …, " + ", ".join(ends[3:]) + "]"
        if len(text) <= width:
            return text
    return None


def _nested(arr: np.ndarray, precision: int) -> str:
    if arr.ndim == 1:
        return "[" + ", ".join(format_number(v, precision) for v in arr.tolist()) + "]"
    return "[" + ", ".join(_nested(sub, precision) for sub in arr) + "]"
