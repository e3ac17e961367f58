"""PyTorch's type promotion as functions: result_type, promote_types, can_cast."""

from __future__ import annotations

import numpy as np

from .. import backend as B
from ..tensor import Tensor
from .declare import LOOP, op
from .types import Number

__all__ = ["result_type", "promote_types", "can_cast"]

_RANK = {"b": 0, "u": 1, "i": 1, "f": 2}  # bool < integer < floating


@op(batch=LOOP)
def result_type(tensor: Tensor, other: Tensor | Number):
    """The dtype an arithmetic op of ``tensor`` and ``other`` (tensors or numbers) gives."""
    if not isinstance(tensor, Tensor) and not isinstance(other, Tensor):
        raise TypeError("result_type() received an invalid combination of arguments: expected at least one Tensor")
    return B.result_dtype(tensor, other)


@op(batch=LOOP)
def promote_types(type1, type2):
    """The smallest dtype both dtypes convert to without losing their kind (bool < integer < floating)."""
    a, b = B.to_dtype(type1), B.to_dtype(type2)
    if _RANK[a.kind] != _RANK[b.kind]:
        return a if _RANK[a.kind] > _RANK[b.kind] else b
    return np.promote_types(a, b)  # one kind: the wider; uint8 with int8 is int16, as torch


@op(batch=LOOP)
def can_cast(from_, to) -> bool:
    """Whether PyTorch's casting rules allow ``from_`` to ``to``: never to a lower kind (float to int, int to bool)."""
    return _RANK[B.to_dtype(from_).kind] <= _RANK[B.to_dtype(to).kind]
