"""Convolution and pooling layers: Conv2d and MaxPool2d (on ``[N, C, H, W]`` inputs)."""

from __future__ import annotations

import math

from ..creation import zeros
from ..tensor import Tensor, shape_str
from . import functional as F
from . import init
from ._im2col import pair
from .module import Module
from .parameter import Parameter
from .pooling import _MaxPool

__all__ = ["Conv2d", "MaxPool2d"]


class Conv2d(Module):
    """2-D convolution (cross-correlation) with ``out_channels`` filters of ``[in_channels, kh, kw]``."""

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
        device=None,
        dtype=None,
    ):
        super().__init__()
        if in_channels % groups or out_channels % groups:
            raise ValueError("in_channels and out_channels must be divisible by groups")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = pair(kernel_size, "kernel_size")
        self.stride = pair(stride, "stride")
        self.padding = padding if isinstance(padding, str) else pair(padding, "padding")
        self.dilation = pair(dilation, "dilation")
        self.groups = groups
        shape = (out_channels, in_channels // groups, *self.kernel_size)
        self.weight = Parameter(zeros(*shape, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(zeros(out_channels, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Kaiming uniform with a = sqrt(5) and a bias in ±1/sqrt(fan_in), as torch.nn.Conv2d."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_channels // self.groups * self.kernel_size[0] * self.kernel_size[1]
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, x: Tensor) -> Tensor:
        if x.dim() != 4 or x.shape[1] != self.in_channels:  # one entry's, inside vmap
            raise RuntimeError(
                f"{self._label()}: expected input [N, {self.in_channels}, H, W] with in_channels={self.in_channels}, "
                f"got input of shape {shape_str(x.shape)}"
            )
        return F.conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self) -> str:
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding not in ((0, 0), "valid"):
            s += f", padding={self.padding!r}"
        if self.dilation != (1, 1):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class MaxPool2d(_MaxPool):
    """Max over ``kernel_size`` windows of ``[N, C, H, W]`` (``stride`` defaults to ``kernel_size``); with
    ``return_indices``, also where each maximum was (for ``MaxUnpool2d``)."""
