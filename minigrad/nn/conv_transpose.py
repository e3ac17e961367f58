"""Conv1d and the transposed convolutions ConvTranspose1d and ConvTranspose2d."""

from __future__ import annotations

import math

from ..creation import zeros
from ..tensor import Tensor
from . import functional as F
from . import init
from .conv import check_padding_mode, padding_widths
from .module import Module
from .parameter import Parameter

__all__ = ["Conv1d", "ConvTranspose1d", "ConvTranspose2d"]


def _tuple(value, n: int) -> tuple:
    return (value,) * n if isinstance(value, int) else tuple(value)


class _ConvNd(Module):
    """Parameters and initialisation shared by the layers here (as torch's ``_ConvNd``)."""

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride,
        padding,
        dilation,
        groups,
        bias,
        transposed,
        n,
        device,
        dtype,
        output_padding=0,
    ):
        super().__init__()
        if in_channels % groups or out_channels % groups:
            raise ValueError("in_channels and out_channels must be divisible by groups")
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size = _tuple(kernel_size, n)
        self.stride = _tuple(stride, n)
        self.padding = padding if isinstance(padding, str) else _tuple(padding, n)
        self.dilation = _tuple(dilation, n)
        self.output_padding = _tuple(output_padding, n)
        first, second = (in_channels, out_channels // groups) if transposed else (out_channels, in_channels // groups)
        self.weight = Parameter(zeros(first, second, *self.kernel_size, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(zeros(out_channels, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Kaiming uniform with a = sqrt(5) and a bias in ±1/sqrt(fan_in), as PyTorch's convolutions."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.weight.array.shape[1] * math.prod(self.kernel_size)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding not in ((0,) * len(self.kernel_size), "valid"):
            s += f", padding={self.padding}"
        if any(d != 1 for d in self.dilation):
            s += f", dilation={self.dilation}"
        if any(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class Conv1d(_ConvNd):
    """1-D convolution (cross-correlation) of ``[N, C, L]`` with ``out_channels`` filters of ``[C/groups, k]``.

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
        check_padding_mode(padding_mode)
        super().__init__(
            in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias, False, 1, device, dtype
        )
        self.padding_mode = padding_mode

    def forward(self, x: Tensor) -> Tensor:
        if self.padding_mode != "zeros":
            widths = padding_widths(self.padding, self.kernel_size, self.dilation)
            padded = F.pad(x, widths, mode=self.padding_mode)
            return F.conv1d(padded, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)
        return F.conv1d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self) -> str:
        extra = "" if self.padding_mode == "zeros" else f", padding_mode={self.padding_mode}"
        return super().extra_repr() + extra


class _ConvTransposeNd(_ConvNd):
    """The transposed convolutions: PyTorch's argument order; ``_n`` dims, computed by ``_functional``.
    Their ``padding_mode`` is "zeros" only, as torch's."""

    _n: int
    _functional = None

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        groups: int = 1,
        bias: bool = True,
        dilation=1,
        padding_mode: str = "zeros",
        device=None,
        dtype=None,
    ):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            bias,
            True,
            self._n,
            device,
            dtype,
            output_padding,
        )
        self.padding_mode = padding_mode

    def forward(self, x: Tensor) -> Tensor:
        return type(self)._functional(
            x, self.weight, self.bias, self.stride, self.padding, self.output_padding, self.groups, self.dilation
        )


class ConvTranspose1d(_ConvTransposeNd):
    """Transposed 1-D convolution; ``weight`` is ``[in_channels, out_channels/groups, k]``."""

    _n = 1
    _functional = staticmethod(F.conv_transpose1d)


class ConvTranspose2d(_ConvTransposeNd):
    """Transposed 2-D convolution; ``weight`` is ``[in_channels, out_channels/groups, kh, kw]``."""

    _n = 2
    _functional = staticmethod(F.conv_transpose2d)
