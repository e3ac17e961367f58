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

#: What a convolution layer's ``padding_mode`` may be, as torch's.
PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def check_padding_mode(padding_mode: str) -> None:
    """PyTorch's refusal of a ``padding_mode`` it does not know."""
    if padding_mode not in PADDING_MODES:
        raise ValueError(f"padding_mode must be one of {list(PADDING_MODES)}, but got padding_mode='{padding_mode}'")


def padding_widths(padding, kernel_size: tuple, dilation: tuple) -> tuple:
    """A layer's ``padding`` (numbers per dim, "valid" or "same") as the widths ``F.pad`` takes, the last
    dim first: what torch pads with a ``padding_mode`` other than zeros before convolving unpadded.
    "same" puts the odd element of ``dilation * (kernel - 1)`` on the far side, as torch."""
    if padding == "valid":
        return (0,) * (2 * len(kernel_size))
    if padding == "same":
        totals = [d * (k - 1) for d, k in zip(dilation, kernel_size)]
        return tuple(w for total in reversed(totals) for w in (total // 2, total - total // 2))
    return tuple(p for p in reversed(padding) for _ in range(2))


class Conv2d(Module):
    """2-D convolution (cross-correlation) with ``out_channels`` filters of ``[in_channels, kh, kw]``.

    ``padding_mode`` other than "zeros" ("reflect", "replicate", "circular") pads the input with
    ``F.pad`` in that mode, then convolves without padding, as torch.
    """

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
        super().__init__()
        check_padding_mode(padding_mode)
        if in_channels % groups or out_channels % groups:
            raise ValueError("in_channels and out_channels must be divisible by groups")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = pair(kernel_size, "kernel_size")
        self.stride = pair(stride, "stride")
        self.padding = padding if isinstance(padding, str) else pair(padding, "padding")
        self.dilation = pair(dilation, "dilation")
        self.groups = groups
        self.padding_mode = padding_mode
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
        if self.padding_mode != "zeros":
            widths = padding_widths(self.padding, self.kernel_size, self.dilation)
            padded = F.pad(x, widths, mode=self.padding_mode)
            return F.conv2d(padded, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)
        return F.conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self) -> str:
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding not in ((0, 0), "valid"):
            s += f", padding={self.padding}"
        if self.dilation != (1, 1):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class MaxPool2d(_MaxPool):
    """Max over ``kernel_size`` windows of ``[N, C, H, W]`` (``stride`` defaults to ``kernel_size``); with
    ``return_indices``, also where each maximum was (for ``MaxUnpool2d``)."""
