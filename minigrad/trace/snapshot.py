"""Host snapshots of tensor values: immutable NumPy copies, or a summary when large.

A :class:`Snapshot` is taken at the moment an event happens, so it never
changes afterwards. Tensors with more than ``max_values`` elements are
summarised (shape, dtype, min, max, mean, norm, NaN/Inf counts, first values);
for GPU tensors only the summary scalars and the first values cross to the host.
"""

from __future__ import annotations

import base64
import math
from dataclasses import dataclass

import numpy as np

from .. import backend as B
from ..tensor import Tensor, shape_str
from .summary import HEAD_VALUES, Stats, summarise, summary_fields
from .values import format_array, stats_mean

__all__ = ["Snapshot", "Stats", "snapshot", "snapshot_record", "built_snapshot", "DEFAULT_MAX_VALUES", "HEAD_VALUES"]

DEFAULT_MAX_VALUES = 1024


@dataclass(frozen=True, eq=False)
class Snapshot:
    """A tensor value at one moment: full values (``values``) or a summary (``stats``).

    ``values`` is a read-only NumPy array when the tensor had at most the
    recorder's ``max_values`` elements, else ``None`` and ``stats`` is set.
    ``tensor_id`` is the id of the tensor it was taken from (None when unknown).
    ``dropped``: only shape, dtype and device were kept (the recording went over
    its memory budget); ``stats`` is then empty.
    """

    shape: tuple
    dtype: str
    device: str
    values: np.ndarray | None
    stats: Stats | None = None
    tensor_id: int | None = None
    dropped: bool = False

    @property
    def summarised(self) -> bool:
        """True when only a summary was kept."""
        return self.values is None

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def array(self) -> np.ndarray:
        """The full values; a ValueError naming the shape when only a summary was kept."""
        if self.dropped:
            raise ValueError(
                f"the value of shape {shape_str(self.shape)} was dropped: the recording went over its memory "
                "budget; record with a larger max_bytes to keep it"
            )
        if self.values is None:
            raise ValueError(
                f"snapshot of shape {shape_str(self.shape)} was summarised (more values than the recorder's "
                "max_values); record with a larger max_values to keep it whole"
            )
        return self.values

    def describe(self) -> Stats:
        """Summary statistics (computed from the values when they were kept)."""
        if self.stats is not None:
            return self.stats
        return summarise(self.values)

    def has_nonfinite(self) -> bool:
        """True when some value is NaN or infinite."""
        if self.values is not None:
            return self.values.dtype.kind == "f" and not bool(np.isfinite(self.values).all())
        return self.stats.nan_count > 0 or self.stats.inf_count > 0

    def format(self, width: int = 60, summary_width: int | None = None) -> str:
        """A one-line text form: the values in the describer's number form when they fit ``width``,
        else dtype, shape and statistics. With a ``summary_width``, what does not fit it is left out: the
        norm first, then the dtype, the mean and the range; the shape and NaN and Inf counts stay."""
        if self.values is not None:
            text = format_array(self.values, width)
            if text is not None:
                return text
        s = self.describe()
        dropped = ["(value dropped: over the recording's memory budget)"] * bool(self.dropped)
        stats = []
        if s.min is not None:
            mean = stats_mean(s, self.dtype, self.size)  # 0 when zero up to rounding: the same on any machine
            stats = [f"min={s.min:.4g} max={s.max:.4g}", f"mean={mean:.4g}", f"norm={s.norm:.4g}"]
        counts = [f"nan={s.nan_count}"] * bool(s.nan_count) + [f"inf={s.inf_count}"] * bool(s.inf_count)

        def summary(dtype: str, kept: int) -> str:
            return " ".join([f"{dtype}{shape_str(self.shape)}", *dropped, *stats[:kept], *counts])

        if summary_width is None:
            return summary(self.dtype, 3)
        shorter = (summary(self.dtype, 3), summary(self.dtype, 2), summary("", 2), summary("", 1))
        return next((text for text in shorter if len(text) <= summary_width), summary("", 0))

    def __eq__(self, other) -> bool:
        if not isinstance(other, Snapshot):
            return NotImplemented
        if (self.shape, self.dtype, self.device, self.tensor_id, self.stats, self.dropped) != (
            other.shape,
            other.dtype,
            other.device,
            other.tensor_id,
            other.stats,
            other.dropped,
        ):
            return False
        if (self.values is None) != (other.values is None):
            return False
        return self.values is None or np.array_equal(self.values, other.values, equal_nan=self.values.dtype.kind == "f")

    __hash__ = None

    # ------------------------------------------------------------ JSON
    def to_json(self) -> dict:
        """A JSON-ready dict (trace format version 2: values as base64 of their little-endian bytes)."""
        d = {"shape": list(self.shape), "dtype": self.dtype, "device": self.device}
        if self.values is not None:
            little = np.ascontiguousarray(self.values, dtype=self.values.dtype.newbyteorder("<"))
            d["b64"] = base64.b64encode(little.tobytes()).decode("ascii")
        elif self.dropped:
            d["dropped"] = True
        else:
            s = self.stats
            d["stats"] = {
                "min": s.min,
                "max": s.max,
                "mean": s.mean,
                "norm": s.norm,
                "nan_count": s.nan_count,
                "inf_count": s.inf_count,
                "head": list(s.head),
            }
        if self.tensor_id is not None:
            d["tensor_id"] = self.tensor_id
        return d

    @classmethod
    def from_json(cls, d: dict) -> Snapshot:
        """The snapshot a dict from :meth:`to_json` (or a version 1 file) describes; every field is
        checked (:class:`~minigrad.trace.schema.SchemaError`, a ValueError, when one is wrong)."""
        from .schema import snapshot_from_json

        return snapshot_from_json(d)


DROPPED_STATS = Stats(None, None, None, None, 0, 0, ())
_outlines: dict = {}  # (shape, dtype, device) -> the one dropped Snapshot of that kind


def outline(snap: Snapshot) -> Snapshot:
    """The snapshot with its values and statistics dropped (shared by every value of its shape and dtype)."""
    if snap.dropped:
        return snap
    key = (snap.shape, snap.dtype, snap.device)
    out = _outlines.get(key)
    if out is None:
        out = _outlines[key] = Snapshot(snap.shape, snap.dtype, snap.device, None, DROPPED_STATS, None, True)
    return out


def summary_of(snap: Snapshot) -> Snapshot:
    """The snapshot with its full values replaced by their summary (itself when already summarised)."""
    if snap.values is None:
        return snap
    return Snapshot(snap.shape, snap.dtype, snap.device, None, summarise(snap.values), snap.tensor_id)


_names: dict = {}  # id of a dtype or Device -> (it, its string): str(dtype) is slow in NumPy, hashing one too


def type_name(x) -> str:
    """``str(x)`` of a dtype or Device, cached."""
    hit = _names.get(id(x))
    if hit is None or hit[0] is not x:
        hit = _names[id(x)] = (x, str(x))
    return hit[1]


def snapshot(t, max_values: int = DEFAULT_MAX_VALUES) -> Snapshot:
    """Snapshot a Tensor (or a raw NumPy/CuPy array) now."""
    return built_snapshot(snapshot_record(t, max_values))


SNAPSHOT_TAG = "$snap"


def snapshot_record(t, max_values: int = DEFAULT_MAX_VALUES) -> tuple:
    """What a snapshot of ``t`` needs, taken now, as a compact record for :func:`built_snapshot`:
    ``("$snap", shape, dtype, device, values (a private copy) or None, stats or None, tensor_id)``, the
    stats as the plain tuple of :class:`Stats`'s fields.

    A recording keeps these and makes the :class:`Snapshot` when a viewer reads the event. A tuple of
    plain values: once the garbage collector has seen it, it stops tracking it (a Stats object in it
    would keep it and every event record holding it tracked, and each full collection of a long
    recording would walk them all)."""
    if isinstance(t, Tensor):
        arr, tensor_id, dev = t.array, t.id, t.device
    else:
        arr, tensor_id, dev = t, None, B.device_of_array(t)
    dtype = arr.dtype
    hit = _names.get(id(dtype))  # type_name's cache read here: two calls less for each value recorded
    dtype_name = hit[1] if hit is not None and hit[0] is dtype else type_name(dtype)
    hit = _names.get(id(dev))
    device_name = hit[1] if hit is not None and hit[0] is dev else type_name(dev)
    if arr.size <= max_values:
        values = arr.copy() if type(arr) is np.ndarray else np.array(B.to_host(arr), copy=True)
        return (SNAPSHOT_TAG, arr.shape, dtype_name, device_name, values, None, tensor_id)
    return (SNAPSHOT_TAG, arr.shape, dtype_name, device_name, None, summary_fields(arr, dev.xp), tensor_id)


def built_snapshot(record: tuple, memo: dict | None = None) -> Snapshot:
    """The :class:`Snapshot` of a record from :func:`snapshot_record`. ``memo`` (id of a record -> (record,
    snapshot)): events that shared a record share its snapshot."""
    if memo is not None:
        hit = memo.get(id(record))
        if hit is not None and hit[0] is record:
            return hit[1]
    _, shape, dtype, device, values, stats, tensor_id = record
    if values is not None:
        values.flags.writeable = False
    snap = Snapshot(shape, dtype, device, values, None if stats is None else Stats(*stats), tensor_id)
    if memo is not None:
        memo[id(record)] = (record, snap)
    return snap
