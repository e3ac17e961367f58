"""Upsample (and UpsamplingNearest2d/UpsamplingBilinear2d), PixelShuffle, PixelUnshuffle and ChannelShuffle."""

from __future__ import annotations

from ..tensor import Tensor
from .functional import _pixel_shuffle as P
from .functional._interpolate import interpolate
from .module import Module

__all__ = ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle"]
__all__ += ["ChannelShuffle"]


def _float_factors(scale_factor):
    if scale_factor is None:
        return None
    if isinstance(scale_factor, (tuple, list)):
        return tuple(float(f) for f in scale_factor)
    return float(scale_factor)


class Upsample(Module):
    """Resize ``[N, C, *spatial]`` to ``size`` or by ``scale_factor`` (``F.interpolate``): ``mode`` "nearest",
    "linear", "bilinear" or "trilinear", ``align_corners`` for the linear modes."""

    def __init__(
        self,
        size=None,
        scale_factor=None,
        mode: str = "nearest",
        align_corners: bool | None = None,
        recompute_scale_factor: bool | None = None,
    ):
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        self.scale_factor = _float_factors(scale_factor)
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return interpolate(
            input,
            self.size,
            self.scale_factor,
            self.mode,
            self.align_corners,
            recompute_scale_factor=self.recompute_scale_factor,
        )

    def extra_repr(self) -> str:
        info = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else f"size={self.size!r}"
        return f"{info}, mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """Nearest-neighbour upsampling of ``[N, C, H, W]``."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Bilinear upsampling of ``[N, C, H, W]`` with ``align_corners=True``."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class PixelShuffle(Module):
    """``[*, C * r**2, H, W]`` to ``[*, C, H * r, W * r]``."""

    def __init__(self, upscale_factor: int):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return P.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """``[*, C, H * r, W * r]`` to ``[*, C * r**2, H, W]``."""

    def __init__(self, downscale_factor: int):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return P.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class ChannelShuffle(Module):
    """The channels of ``[N, C, *]``, seen as ``groups`` rows, read column by column."""

    def __init__(self, groups: int):
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return P.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"
