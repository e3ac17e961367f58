"""Layers on ``[N, C, D, H, W]`` volumes: Conv3d, ConvTranspose3d, MaxPool3d, AvgPool3d, AdaptiveAvgPool3d,
AdaptiveMaxPool3d and BatchNorm3d."""

from __future__ import annotations

from ..ops import pad
from ..tensor import Tensor
from .conv_transpose import _ConvNd, _ConvTransposeNd
from .functional import _adaptive_pool3d as A
from .functional import _volumetric as V
from .module import Module
from .normalization import BatchNorm1d

__all__ = [
    "Conv3d",
    "ConvTranspose3d",
    "MaxPool3d",
    "AvgPool3d",
    "BatchNorm3d",
    "AdaptiveAvgPool3d",
    "AdaptiveMaxPool3d",
]


class Conv3d(_ConvNd):
    """3-D convolution (cross-correlation) with ``out_channels`` filters of ``[in_channels/groups, kd, kh, kw]``."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: str = "zeros",
        device=None,
        dtype=None,
    ):
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(
                "padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular'], "
                f"but got padding_mode='{padding_mode}'"
            )
        super().__init__(
            in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias, False, 3, device, dtype
        )
        self.padding_mode = padding_mode

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if self.padding_mode == "zeros" or isinstance(self.padding, str):
            return V.conv3d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
        widths = [p for p in reversed(self.padding) for _ in range(2)]
        padded = pad(input, widths, self.padding_mode)
        return V.conv3d(padded, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)

    def extra_repr(self) -> str:
        extra = "" if self.padding_mode == "zeros" else f", padding_mode={self.padding_mode}"
        return super().extra_repr() + extra


class ConvTranspose3d(_ConvTransposeNd):
    """Transposed 3-D convolution; ``weight`` is ``[in_channels, out_channels/groups, kd, kh, kw]``."""

    _n = 3
    _functional = staticmethod(V.conv_transpose3d)


class MaxPool3d(Module):
    """Max over ``kernel_size`` windows of ``[N, C, D, H, W]`` (``stride`` defaults to ``kernel_size``)."""

    def __init__(
        self, kernel_size, stride=None, padding=0, dilation=1, return_indices: bool = False, ceil_mode: bool = False
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return V.max_pool3d(
            input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode, self.return_indices
        )

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, dilation={self.dilation}, "
            f"ceil_mode={self.ceil_mode}"
        )


class AvgPool3d(Module):
    """Mean over ``kernel_size`` windows of ``[N, C, D, H, W]`` (``stride`` defaults to ``kernel_size``)."""

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return V.avg_pool3d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class BatchNorm3d(BatchNorm1d):
    """Batch normalisation of ``[N, C, D, H, W]`` volumes over each channel ``C``."""

    _INPUT_DIMS = {5: "[N, C, D, H, W]"}


class AdaptiveAvgPool3d(Module):
    """The mean of each of ``output_size`` bins of ``[N, C, D, H, W]``, whatever the input's size."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return A.adaptive_avg_pool3d(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool3d(Module):
    """The maximum of each of ``output_size`` bins of ``[N, C, D, H, W]``, whatever the input's size."""

    def __init__(self, output_size, return_indices: bool = False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return A.adaptive_max_pool3d(input, self.output_size, self.return_indices)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"
