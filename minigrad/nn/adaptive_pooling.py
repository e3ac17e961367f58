"""Adaptive pooling layers: AdaptiveAvgPool1d/2d and AdaptiveMaxPool1d/2d (an output size, any input size)."""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d"]


class _AdaptiveAvgPool(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPool):
    """Mean over ``output_size`` bins of the last dim of ``[N, C, L]``, whatever ``L`` is."""

    def forward(self, x: Tensor) -> Tensor:
        return F.adaptive_avg_pool1d(x, self.output_size)


class AdaptiveAvgPool2d(_AdaptiveAvgPool):
    """Mean over bins of ``[N, C, H, W]`` into ``output_size`` (``AdaptiveAvgPool2d(1)``: global average pooling)."""

    def forward(self, x: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(x, self.output_size)


class _AdaptiveMaxPool(Module):
    def __init__(self, output_size, return_indices: bool = False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPool):
    """Max over ``output_size`` bins of the last dim of ``[N, C, L]``; ``return_indices`` adds where each max was."""

    def forward(self, x: Tensor):
        return F.adaptive_max_pool1d(x, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptiveMaxPool):
    """Max over bins of ``[N, C, H, W]`` into ``output_size``; ``return_indices`` adds where each max was."""

    def forward(self, x: Tensor):
        return F.adaptive_max_pool2d(x, self.output_size, self.return_indices)
