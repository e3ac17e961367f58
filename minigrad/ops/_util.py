"""Helpers shared by the ops: operand coercion, dtype promotion, dims, broadcast shapes."""

from __future__ import annotations

import numpy as np

from .. import backend as B
from ..tensor import Tensor, make_leaf, shape_str, tensor

__all__ = [
    "as_tensor",
    "binary_arrays",
    "python_number",
    "scalar_array",
    "normalize_dims",
    "check_same_device",
    "check_tensor",
    "check_int",
    "refuse_dtype",
]

_SCALARS = (int, float, bool)


def type_name(x) -> str:
    """A value's type as PyTorch's argument errors name it (``list``, ``NoneType``, ``Tensor``)."""
    return type(x).__name__


def check_tensor(x, op: str, arg: str = "input") -> Tensor:
    """``x`` itself if it is a Tensor, else PyTorch's TypeError naming the op, the argument and its type."""
    if isinstance(x, Tensor):
        return x
    raise TypeError(f"{op}(): argument '{arg}' must be Tensor, not {type_name(x)}")


def check_int(x, op: str, arg: str) -> int:
    """``x`` as an int (bools refused), else a TypeError naming the op and the argument."""
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise TypeError(f"{op}(): argument '{arg}' must be int, not {type_name(x)}")
    return int(x)


def refuse_dtype(a: Tensor, kernel: str, kinds: str) -> None:
    """PyTorch's NotImplementedError for an op that has no kernel for ``a``'s dtype kind (one of ``kinds``)."""
    if a.array.dtype.kind in kinds:
        name = B.scalar_type_name(a.array.dtype)
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")


def check_same_device(a: Tensor, b: Tensor, op: str) -> None:
    if a.device is not b.device:
        raise RuntimeError(
            f"Expected all tensors to be on the same device, but found at least two devices, "
            f"{a.device} and {b.device}! (in {op})"
        )


def python_number(x):
    """``x`` as the Python number it holds when it is a real NumPy scalar (``np.float64(2)`` -> ``2.0``), else
    ``x``: PyTorch promotes a NumPy scalar as that number (``float32 * np.float64`` stays float32)."""
    if isinstance(x, (np.number, np.bool_)) and not isinstance(x, np.complexfloating):
        return x.item()
    return x


def as_tensor(x, like: Tensor) -> Tensor:
    """Turn a Python scalar or array operand into a constant tensor on ``like``'s device."""
    if isinstance(x, Tensor):
        return x
    if not isinstance(like, Tensor):
        raise TypeError(f"expected at least one Tensor operand, got {type_name(x)} and {type_name(like)}")
    x = python_number(x)
    if isinstance(x, _SCALARS):
        dt = B.result_dtype(like, x)
        return make_leaf(like.device.xp.asarray(x, dtype=dt), like.device)
    if isinstance(x, np.ndarray) or B.is_cupy_array(x) or isinstance(x, (list, tuple, np.generic)):
        return tensor(x, device=like.device)
    raise TypeError(f"unsupported operand type for a tensor op: {type(x).__name__}")


def binary_arrays(a: Tensor, b: Tensor, op: str):
    """The two operands' arrays, cast to PyTorch's promoted dtype, after a device check."""
    ad, bd = a.array, b.array
    if a.device is not b.device:
        check_same_device(a, b, op)
    if ad.dtype is not bd.dtype:
        dt = B.result_dtype(a, b)
        if ad.dtype != dt:
            ad = ad.astype(dt)
        if bd.dtype != dt:
            bd = bd.astype(dt)
    return ad, bd


def scalar_array(a: Tensor, s):
    """``a``'s array, promoted as PyTorch does for ``a <op> s`` with a Python scalar ``s``."""
    ad = a.array
    kind = ad.dtype.kind
    if kind == "f" or (kind != "b" and not isinstance(s, float)) or isinstance(s, bool):
        return ad
    return ad.astype(B.result_dtype(a, s))


def normalize_dims(dim, ndim: int) -> tuple:
    """``dim`` (None, int, or sequence) as a sorted tuple of non-negative axes, with PyTorch's error."""
    if dim is None:
        return tuple(range(ndim))
    if type(dim) is int and -ndim <= dim < ndim:  # the common case, without the checks below
        return (dim % ndim,)
    if type(dim) is tuple and all(type(d) is int and 0 <= d < ndim for d in dim) and list(dim) == sorted(set(dim)):
        return dim  # already normalized (the engine's and the rules' own calls)
    dims = (dim,) if isinstance(dim, (int, np.integer)) else tuple(dim)
    low, high = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    for d in dims:  # every dim's type and range before any repetition, as PyTorch checks them
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
            raise TypeError(f"dim must be an int or a tuple of ints, got {type(d).__name__}")
        if d < low or d > high:
            raise IndexError(f"Dimension out of range (expected to be in range of [{low}, {high}], but got {d})")
    out = []
    for d in dims:
        d = int(d) % ndim if ndim else 0
        if d in out:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        out.append(d)
    return tuple(sorted(out)) if ndim else ()


def broadcast_shapes(*shapes) -> tuple:
    """The broadcast of several shapes, or PyTorch's error naming them."""
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        names = " and ".join(shape_str(s) for s in shapes)
        raise RuntimeError(f"shapes {names} cannot be broadcast together") from None
