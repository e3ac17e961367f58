"""Padding layers: ZeroPad, ConstantPad, ReflectionPad, ReplicationPad and CircularPad in 1d, 2d and 3d
(``F.pad`` with the layer's mode; an int pads every side by that much)."""

from __future__ import annotations

from ..ops.shape import pad
from ..tensor import Tensor
from .module import Module

__all__ = [
    "ZeroPad1d",
    "ZeroPad2d",
    "ZeroPad3d",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
    "CircularPad1d",
    "CircularPad2d",
    "CircularPad3d",
]


class _Pad(Module):
    _DIMS = 1
    _MODE = "constant"

    def __init__(self, padding):
        super().__init__()
        self.padding = (padding,) * (2 * self._DIMS) if isinstance(padding, int) else tuple(padding)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return pad(input, self.padding, self._MODE)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPad(_Pad):
    def __init__(self, padding, value: float):
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class _ZeroPad(_ConstantPad):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(_ZeroPad):
    """Pad the last dim (left, right) with zeros."""

    _DIMS = 1


class ZeroPad2d(_ZeroPad):
    """Pad the last 2 dims (left, right, top, bottom) with zeros."""

    _DIMS = 2


class ZeroPad3d(_ZeroPad):
    """Pad the last 3 dims (left, right, top, bottom, front, back) with zeros."""

    _DIMS = 3


class ConstantPad1d(_ConstantPad):
    """Pad the last dim (left, right) with ``value``."""

    _DIMS = 1


class ConstantPad2d(_ConstantPad):
    """Pad the last 2 dims (left, right, top, bottom) with ``value``."""

    _DIMS = 2


class ConstantPad3d(_ConstantPad):
    """Pad the last 3 dims (left, right, top, bottom, front, back) with ``value``."""

    _DIMS = 3


class ReflectionPad1d(_Pad):
    """Pad the last dim by reflecting the input at its edges (the edge itself not repeated)."""

    _DIMS, _MODE = 1, "reflect"


class ReflectionPad2d(_Pad):
    """Pad the last 2 dims by reflecting the input at its edges."""

    _DIMS, _MODE = 2, "reflect"


class ReflectionPad3d(_Pad):
    """Pad the last 3 dims by reflecting the input at its edges."""

    _DIMS, _MODE = 3, "reflect"


class ReplicationPad1d(_Pad):
    """Pad the last dim by repeating the edge values."""

    _DIMS, _MODE = 1, "replicate"


class ReplicationPad2d(_Pad):
    """Pad the last 2 dims by repeating the edge values."""

    _DIMS, _MODE = 2, "replicate"


class ReplicationPad3d(_Pad):
    """Pad the last 3 dims by repeating the edge values."""

    _DIMS, _MODE = 3, "replicate"


class CircularPad1d(_Pad):
    """Pad the last dim with the input wrapped around (periodic)."""

    _DIMS, _MODE = 1, "circular"


class CircularPad2d(_Pad):
    """Pad the last 2 dims with the input wrapped around (periodic)."""

    _DIMS, _MODE = 2, "circular"


class CircularPad3d(_Pad):
    """Pad the last 3 dims with the input wrapped around (periodic)."""

    _DIMS, _MODE = 3, "circular"
