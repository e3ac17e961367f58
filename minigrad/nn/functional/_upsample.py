"""upsample, upsample_nearest and upsample_bilinear: PyTorch's deprecated names for ``interpolate``."""

from __future__ import annotations

import warnings

from ...ops.declare import LOOP, op
from ...tensor import Tensor
from ._interpolate import interpolate

__all__ = ["upsample", "upsample_nearest", "upsample_bilinear"]


def _deprecated(name: str) -> None:
    warnings.warn(
        f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` instead.", UserWarning, stacklevel=3
    )


@op(batch=LOOP)
def upsample(input: Tensor, size=None, scale_factor=None, mode: str = "nearest", align_corners=None) -> Tensor:  # noqa: A002
    """``interpolate(input, size, scale_factor, mode, align_corners)``, with PyTorch's deprecation warning."""
    _deprecated("upsample")
    return interpolate(input, size, scale_factor, mode, align_corners)


@op(batch=LOOP)
def upsample_nearest(input: Tensor, size=None, scale_factor=None) -> Tensor:  # noqa: A002
    """``interpolate(..., mode="nearest")``, with PyTorch's deprecation warning."""
    _deprecated("upsample_nearest")
    return interpolate(input, size, scale_factor, mode="nearest")


@op(batch=LOOP)
def upsample_bilinear(input: Tensor, size=None, scale_factor=None) -> Tensor:  # noqa: A002
    """``interpolate(..., mode="bilinear", align_corners=True)``, with PyTorch's deprecation warning."""
    _deprecated("upsample_bilinear")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
