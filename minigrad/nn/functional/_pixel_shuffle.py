"""pixel_shuffle and pixel_unshuffle (channels traded for spatial resolution) and channel_shuffle (channels
interleaved across groups): each a reshape, a permute and a reshape (their rules move the gradient back
the same way)."""

from __future__ import annotations

from ...ops.declare import COMPOSITE, op
from ...tensor import Tensor

__all__ = ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle"]


def _check(input: Tensor, factor: int, op: str, what: str) -> None:  # noqa: A002
    if input.dim() < 3:
        raise RuntimeError(
            f"{op} expects input to have at least 3 dimensions, but got input with {input.dim()} dimension(s)"
        )
    if factor <= 0:
        raise RuntimeError(f"{op} expects a positive {what}, but got {factor}")


@op(batch=COMPOSITE)
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:  # noqa: A002
    """``[*, C * r**2, H, W]`` to ``[*, C, H * r, W * r]`` with ``r = upscale_factor``."""
    r = upscale_factor
    _check(input, r, "pixel_shuffle", "upscale_factor")
    *batch, c, h, w = input.shape
    if c % (r * r):
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, "
            f"but input.size(-3)={c} is not divisible by {r * r}"
        )
    n = len(batch)
    x = input.reshape(*batch, c // (r * r), r, r, h, w)
    x = x.permute(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return x.reshape(*batch, c // (r * r), h * r, w * r)


@op(batch=COMPOSITE)
def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:  # noqa: A002
    """``[*, C, H * r, W * r]`` to ``[*, C * r**2, H, W]`` with ``r = downscale_factor``: the inverse of
    pixel_shuffle."""
    r = downscale_factor
    _check(input, r, "pixel_unshuffle", "downscale_factor")
    *batch, c, h, w = input.shape
    for name, size, dim in (("height", h, -2), ("width", w, -1)):
        if size % r:
            raise RuntimeError(
                f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but input.size({dim})={size} "
                f"is not divisible by {r}"
            )
    n = len(batch)
    x = input.reshape(*batch, c, h // r, r, w // r, r)
    x = x.permute(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return x.reshape(*batch, c * r * r, h // r, w // r)


@op(batch=COMPOSITE)
def channel_shuffle(input: Tensor, groups: int) -> Tensor:  # noqa: A002
    """``[N, C, *]`` with its channels, seen as ``groups`` rows of ``C / groups``, read column by column
    (ShuffleNet's shuffle)."""
    if input.dim() < 3:
        raise RuntimeError(
            f"channel_shuffle expects input to have at least 3 dimensions, but got input with {input.dim()} "
            "dimension(s)"
        )
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    n, c, *rest = input.shape
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups.")
    return input.reshape(n, groups, c // groups, *rest).transpose(1, 2).reshape(n, c, *rest)
