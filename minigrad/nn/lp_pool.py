"""LPPool1d and LPPool2d: the p-norm of each window (see ``functional.lp_pool1d``/``lp_pool2d``)."""

from __future__ import annotations

from ..tensor import Tensor
from .functional import _lp_pool
from .module import Module

__all__ = ["LPPool1d", "LPPool2d"]


class _LPPool(Module):
    _FUNCTION = staticmethod(_lp_pool.lp_pool2d)

    def __init__(self, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return self._FUNCTION(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
            f"ceil_mode={self.ceil_mode}"
        )


class LPPool1d(_LPPool):
    """The ``norm_type``-norm of each window along the last dim of ``[N, C, L]``."""

    _FUNCTION = staticmethod(_lp_pool.lp_pool1d)


class LPPool2d(_LPPool):
    """The ``norm_type``-norm of each window of ``[N, C, H, W]``."""

    _FUNCTION = staticmethod(_lp_pool.lp_pool2d)
