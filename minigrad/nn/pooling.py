"""Pooling layers beyond MaxPool2d: AvgPool1d, AvgPool2d, MaxPool1d, and MaxUnpool1d/2d."""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["AvgPool1d", "AvgPool2d", "MaxPool1d", "MaxUnpool1d", "MaxUnpool2d", "FractionalMaxPool2d"]


class AvgPool2d(Module):
    """Mean over ``kernel_size`` windows of ``[N, C, H, W]`` (``stride`` defaults to ``kernel_size``)."""

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override=None,
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, x: Tensor) -> Tensor:
        return F.avg_pool2d(
            x,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(Module):
    """Mean over ``kernel_size`` windows along the last dim of ``[N, C, L]``."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False, count_include_pad: bool = True):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding, self.ceil_mode, self.count_include_pad = padding, ceil_mode, count_include_pad

    def forward(self, x: Tensor) -> Tensor:
        return F.avg_pool1d(x, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _MaxPool(Module):
    """Max over ``kernel_size`` windows (``stride`` defaults to ``kernel_size``); with ``return_indices``,
    also where each maximum was (for the matching ``MaxUnpool``)."""

    dims = 2

    def __init__(
        self, kernel_size, stride=None, padding=0, dilation=1, return_indices: bool = False, ceil_mode: bool = False
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, x: Tensor):
        pool = F.max_pool2d if self.dims == 2 else F.max_pool1d
        return pool(x, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode, self.return_indices)

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, dilation={self.dilation}, "
            f"ceil_mode={self.ceil_mode}"
        )


class MaxPool1d(_MaxPool):
    """Max over ``kernel_size`` windows along the last dim of ``[N, C, L]``; with ``return_indices``, also
    where each maximum was (for ``MaxUnpool1d``)."""

    dims = 1


class _MaxUnpool(Module):
    """Puts each value of a max pool's output back where its ``indices`` say it was, zeros elsewhere."""

    dims = 2

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = _sizes(kernel_size, self.dims)
        self.stride = self.kernel_size if stride is None else _sizes(stride, self.dims)
        self.padding = _sizes(padding, self.dims)

    def forward(self, x: Tensor, indices: Tensor, output_size=None) -> Tensor:
        unpool = F.max_unpool2d if self.dims == 2 else F.max_unpool1d
        return unpool(x, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool2d(_MaxUnpool):
    """Puts each value of a ``MaxPool2d(..., return_indices=True)`` output back where it was, zeros elsewhere."""


class MaxUnpool1d(_MaxUnpool):
    """Puts each value of a ``MaxPool1d(..., return_indices=True)`` output back where it was, zeros elsewhere."""

    dims = 1


def _sizes(value, dims: int) -> tuple:
    return (value,) * dims if isinstance(value, int) else tuple(value)


class FractionalMaxPool2d(Module):
    """Fractional max pooling (see ``functional.fractional_max_pool2d``): windows ``kernel_size`` whose
    starts step randomly, to ``output_size`` or ``output_ratio`` times the input's size. A given
    ``_random_samples`` (N x C x 2 in [0, 1)) is a buffer and fixes the windows, as torch's."""

    def __init__(
        self,
        kernel_size,
        output_size=None,
        output_ratio=None,
        return_indices: bool = False,
        _random_samples: Tensor | None = None,
    ):
        super().__init__()
        self.kernel_size, self.output_size, self.return_indices = kernel_size, output_size, return_indices
        self.register_buffer("_random_samples", _random_samples)
        if output_size is None and output_ratio is None:
            raise ValueError("FractionalMaxPool2d requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if output_ratio is not None:
            ratios = tuple(output_ratio) if isinstance(output_ratio, (tuple, list)) else (output_ratio, output_ratio)
            if not all(0 < r < 1 for r in ratios):
                raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")
            output_ratio = ratios
        self.output_ratio = output_ratio

    def forward(self, input: Tensor):  # noqa: A002
        return F.fractional_max_pool2d(
            input,
            self.kernel_size,
            self.output_size,
            self.output_ratio,
            self.return_indices,
            _random_samples=self._random_samples,
        )
