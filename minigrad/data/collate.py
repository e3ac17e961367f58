"""default_collate and default_convert, as ``torch.utils.data``'s: how a DataLoader makes one batch of
items (tensors, arrays, numbers, strings, and dicts, tuples and lists of them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from .. import backend as B
from ..tensor import Tensor, make_leaf

__all__ = ["default_collate", "default_convert"]

_COLLATE_ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def _leaf(array) -> Tensor:
    return make_leaf(array, B.device_of_array(array))


def _is_namedtuple(value) -> bool:
    return isinstance(value, tuple) and hasattr(value, "_fields")


def default_collate(batch):
    """Stack a list of items into a batch: tensors and arrays become one tensor with a new first dim,
    numbers a float64/int64/bool tensor, strings stay a list; dicts, tuples and lists are collated field
    by field (a tuple's fields come back as a list, a namedtuple as its type), as PyTorch does."""
    first = batch[0]
    if isinstance(first, Tensor):
        return _leaf(first.device.xp.stack([item.array for item in batch]))
    if isinstance(first, np.ndarray) or B.is_cupy_array(first):
        if first.dtype.kind in "SUO":
            raise TypeError(_COLLATE_ERROR.format(first.dtype))
        return _leaf(B.device_of_array(first).xp.stack(batch))
    if isinstance(first, np.generic):
        return _leaf(np.array(batch))
    if isinstance(first, float):
        return _leaf(np.array(batch, dtype=np.float64))
    if isinstance(first, bool):
        return _leaf(np.array(batch, dtype=np.bool_))
    if isinstance(first, int):
        return _leaf(np.array(batch, dtype=np.int64))
    if isinstance(first, (str, bytes)):
        return batch
    if isinstance(first, Mapping):
        return {key: default_collate([item[key] for item in batch]) for key in first}
    if _is_namedtuple(first):
        return type(first)(*(default_collate(list(field)) for field in zip(*batch)))
    if isinstance(first, Sequence):
        if any(len(item) != len(first) for item in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        columns = [default_collate(list(field)) for field in zip(*batch)]
        return columns if isinstance(first, (tuple, list)) else type(first)(columns)
    raise TypeError(_COLLATE_ERROR.format(type(first)))


def default_convert(data):
    """An item as a DataLoader without batching (``batch_size=None``) gives it: arrays become tensors,
    containers are converted field by field, anything else is left as it is."""
    if isinstance(data, np.ndarray) and data.dtype.kind not in "SUO":
        return _leaf(data)
    if B.is_cupy_array(data):
        return _leaf(data)
    if isinstance(data, np.generic) and data.dtype.kind in "biufc":
        return _leaf(np.asarray(data))
    if isinstance(data, Mapping):
        return {key: default_convert(value) for key, value in data.items()}
    if _is_namedtuple(data):
        return type(data)(*(default_convert(v) for v in data))
    if isinstance(data, (tuple, list)):  # a tuple comes back as a list, as in PyTorch
        return [default_convert(v) for v in data]
    return data
