"""avg_pool2d: the mean of each window, as im2col, a sum and a division by a constant count (windows that
tile the input: the sum of each tile and a division)."""

from __future__ import annotations

from ...ops.declare import op
from ...ops.shape import pad
from ...ops.types import Dims, Padding, Size
from ...tensor import Tensor, make_leaf, shape_str
from .._im2col import Geometry, im2col, windows
from .._tiles import sum_tiles
from ._batch_rules import windowed_rule

__all__ = ["avg_pool2d"]


def _pooled_size(size: int, k: int, s: int, p: int, ceil_mode: bool) -> int:
    span = size + 2 * p - k
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= size + p:  # the last window must start inside the input or left padding
        out -= 1
    return out


@op(batch=windowed_rule(2, (4, 3)))
def avg_pool2d(
    input: Tensor,  # noqa: A002  (torch's argument name)
    kernel_size: Size,
    stride: Dims | None = None,
    padding: Padding = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override=None,
) -> Tensor:
    """Mean over each ``kernel_size`` window of ``[N, C, H, W]`` (or ``[C, H, W]``); ``stride`` defaults to it.

    Zero padding counts towards the mean when ``count_include_pad``; the extra windows
    of ``ceil_mode`` never do; ``divisor_override`` replaces the count. The gradient
    comes from im2col's rule: each window's share goes back to its elements.
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"avg_pool2d(): argument 'input' must be Tensor, not {type(input).__name__}")
    unbatched = input.array.ndim == 3
    x = input.unsqueeze(0) if unbatched else input
    if x.array.ndim != 4:
        raise RuntimeError(f"avg_pool2d(): expected a 3-D or 4-D input, got {shape_str(input.array.shape)}")
    geo = Geometry(kernel_size, kernel_size if stride is None or stride == () else stride, padding, 1)
    (kh, kw), (sh, sw), (ph, pw) = geo.kernel, geo.stride, geo.padding
    if ph > kh // 2 or pw > kw // 2:
        raise RuntimeError(
            f"avg_pool2d(): pad should be at most half of effective kernel size, but got pad={geo.padding}, "
            f"kernel_size={geo.kernel}"
        )
    if divisor_override is not None and (isinstance(divisor_override, bool) or divisor_override == 0):
        raise RuntimeError("divisor must be not zero")
    n, c, h, w = x.array.shape
    oh, ow = _pooled_size(h, kh, sh, ph, ceil_mode), _pooled_size(w, kw, sw, pw, ceil_mode)
    if oh < 1 or ow < 1:
        raise RuntimeError(f"avg_pool2d(): input of shape {shape_str(x.array.shape)} is too small for kernel {kh}x{kw}")
    extra_h, extra_w = max(0, (oh - 1) * sh + kh - h - 2 * ph), max(0, (ow - 1) * sw + kw - w - 2 * pw)
    if (sh, sw) == (kh, kw) and not any((ph, pw, extra_h, extra_w)):
        out = _mean_of_tiles(x, (kh, kw), (oh, ow), divisor_override)
        return out.squeeze(0) if unbatched else out
    xp = x.device.xp
    widths = (pw, pw + extra_w, ph, ph + extra_h)
    flat = x.reshape(n * c, 1, h, w)
    if any(widths):
        flat = pad(flat, widths)
    window = Geometry((kh, kw), (sh, sw), 0, 1)
    sums = im2col(flat, window).sum(1)
    if divisor_override is not None:
        out = sums / divisor_override
    else:
        counted = xp.zeros((1, 1) + flat.array.shape[2:], dtype=x.array.dtype)
        top, left = (0, 0) if count_include_pad else (ph, pw)
        counted[..., top : h + 2 * ph - top, left : w + 2 * pw - left] = 1
        counts = windows(xp, counted, window).reshape(1, kh * kw, oh * ow).sum(axis=1)
        out = sums / make_leaf(counts, x.device)
    out = out.reshape(n, c, oh, ow)
    return out.squeeze(0) if unbatched else out


def _mean_of_tiles(x: Tensor, kernel: tuple, out_hw: tuple, divisor_override) -> Tensor:
    """avg_pool2d when the windows tile the input (stride == kernel, no padding, no partial window): the sum
    of each ``kh x kw`` tile (``sum_tiles``: its gradient spreads g over the tile), divided. The rows and
    columns that fill no window are left out (their gradient is zero)."""
    (kh, kw), (oh, ow) = kernel, out_hw
    if x.array.shape[2:] != (oh * kh, ow * kw):
        x = x[:, :, : oh * kh, : ow * kw]
    return sum_tiles(x, kernel) / (kh * kw if divisor_override is None else divisor_override)
