"""Short text for values: small arrays inline, large ones summarised (diagram boxes, edge labels, and
the describer's short form of an event)."""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "format_value",
    "format_number",
    "mean_or_zero",
    "stats_mean",
    "rounding_zone",
    "format_array",
    "parse_index",
    "indexed_lines",
    "VIEW_LIMIT",
]


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


#: How many elements a whole-value view prints at once (``minigrad trace show --values``, the debugger's value
#: view); a larger value is shown a slice at a time.
VIEW_LIMIT = 10_000


def parse_index(text: str, ndim: int) -> tuple:
    """A NumPy-style index written as text (``"0:10, :"``, ``"3"``, ``"-1, ::2"``, ``"..., 0"``, ``"[2:]"``)
    as a tuple of ints, slices and Ellipsis, for an array of ``ndim`` dimensions. It is parsed, never run as
    Python: anything but integers, colons, commas and ``...`` is a ValueError naming what was wrong."""
    body = text.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1].strip()
    if not body:
        return ()
    index = []
    for part in (p.strip() for p in body.split(",")):
        if part == "...":
            index.append(Ellipsis)
        elif ":" in part:
            bounds = part.split(":")
            if len(bounds) > 3:
                raise ValueError(f"invalid slice {part!r}: at most start:stop:step")
            start, stop, step = (_index_int(b, part) if b.strip() else None for b in bounds + [""] * (3 - len(bounds)))
            if step == 0:
                raise ValueError(f"invalid slice {part!r}: slice step cannot be zero")
            index.append(slice(start, stop, step))
        else:
            index.append(_index_int(part, part))
    if index.count(Ellipsis) > 1:
        raise ValueError("an index can only have a single ellipsis ('...')")
    given = len(index) - index.count(Ellipsis)
    if given > ndim:
        raise ValueError(f"too many indices for array: array is {ndim}-dimensional, but {given} were indexed")
    return tuple(index)


def _index_int(word: str, part: str) -> int:
    word = word.strip()
    digits = word[1:] if word[:1] in "+-" else word
    if not digits.isdigit() or not digits.isascii():
        raise ValueError(f"invalid index {part!r}: expected an integer, a slice (start:stop:step) or '...'")
    return int(word)


def _full_index(index: tuple, shape: tuple) -> tuple:
    """``index`` with its Ellipsis expanded and trailing ``:`` added, one entry per axis of ``shape``."""
    if Ellipsis in index:
        at = index.index(Ellipsis)
        fill = len(shape) - (len(index) - 1)
        index = index[:at] + (slice(None),) * fill + index[at + 1 :]
    return index + (slice(None),) * (len(shape) - len(index))


def indexed_lines(arr, width: int = 80, index: tuple = ()) -> list:
    """``arr[index]`` as text lines, each led by where its values lie in ``arr`` (``[1, 0:6]  0.1 0.2 ...``:
    row 1, columns 0 to 5): NumPy's own number format (one precision and width for every value), as many
    values a line as fit ``width``. IndexError as NumPy raises it for an index out of range."""
    arr = np.asarray(arr)
    full = _full_index(index, arr.shape)
    part = arr[full]
    # where each axis of ``part`` lies in ``arr``: an int fixes an axis of ``arr``, a slice maps positions
    axes = [range(*e.indices(d)) if isinstance(e, slice) else (e + d if e < 0 else e) for e, d in zip(full, arr.shape)]
    if part.size == 0:
        return [f"(no values: the selection has shape {list(part.shape)})"]
    if part.ndim == 0:
        return [f"{_label(axes)}  {np.array2string(part)}" if axes else np.array2string(part)]
    # one line of NumPy's text, its values padded to one width (decimal points aligned) and cut at the bars
    flat = np.array2string(part.reshape(-1), threshold=part.size + 1, max_line_width=2**31, separator="|")
    words = flat[1:-1].split("|")
    cell = max(map(len, words))
    sliced = [i for i, a in enumerate(axes) if isinstance(a, range)]
    last, n = sliced[-1], part.shape[-1]
    widest = [max(a) if isinstance(a, range) else a for a in axes]  # the longest indices a line can show
    widest[last] = range(max(axes[last]), max(axes[last]) + 1)
    longest = len(_label(widest))
    per_line = max(1, (width - longest - 1) // (cell + 1))
    rows = []
    for row_number, row in enumerate(np.ndindex(part.shape[:-1])):
        fixed = list(axes)
        for i, position in zip(sliced[:-1], row):
            fixed[i] = axes[i][position]
        for a in range(0, n, per_line):
            b = min(a + per_line, n)
            fixed[last] = axes[last][a:b]
            values = " ".join(w.rjust(cell) for w in words[row_number * n + a : row_number * n + b])
            rows.append((_label(fixed), values))
    label_width = max(len(label) for label, _ in rows)
    return [f"{label:<{label_width}} {values}".rstrip() for label, values in rows]


def _label(axes: list) -> str:
    """``[i, j, a:b]``: a fixed axis by its index, a range of one as ``a:b`` (with its step when not 1)."""
    return "[" + ", ".join(_range_text(a) if isinstance(a, range) else str(a) for a in axes) + "]"


def _range_text(r: range) -> str:
    first, last = r[0], r[-1]
    if r.step == 1:
        return f"{first}:{last + 1}"
    end = last + (1 if r.step > 0 else -1)
    return f"{first}:{end if end >= 0 else ''}:{r.step}"
