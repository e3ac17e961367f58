"""conv2d (one op, whose gradients are convolutions again) and max_pool2d, on ``[N, C, H, W]`` inputs."""

from __future__ import annotations

from ...backend import scalar_type_name
from ...ops._util import check_same_device
from ...ops.declare import op
from ...ops.shape import pad
from ...ops.types import Dims, Padding, Size
from ...tensor import Tensor, make, make_leaf, shape_str
from .._conv_padding import same_padding
from .._convolution import convolution
from .._im2col import Geometry, col2im, im2col, windows
from ._batch_rules import conv_rule, windowed_rule
from ._pooling import _pooled_size
from ._tiled_pool import max_pool2d_tiled

__all__ = ["conv2d", "max_pool2d"]


def _check_4d(x: Tensor, who: str) -> None:
    if x.array.ndim != 4:
        raise RuntimeError(f"{who}: expected a 4-D input [N, C, H, W], got input of shape {shape_str(x.array.shape)}")


def check_bias(weight: Tensor, bias: Tensor | None, channels: int, transposed: bool) -> None:
    """PyTorch's refusal of a bias that is not one value per output channel (a [3, 1] bias was broadcast)."""
    if bias is not None and bias.array.shape != (channels,):
        given = "Given transposed=1, weight" if transposed else "Given weight"
        raise RuntimeError(
            f"{given} of size {shape_str(weight.array.shape)}, expected bias to be 1-dimensional with {channels} "
            f"elements, but got bias of size {shape_str(bias.array.shape)} instead"
        )


@op(batch=conv_rule(2, (4,)))
def conv2d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Dims | None = 1,
    padding: Padding = 0,
    dilation: Size = 1,
    groups: int = 1,
) -> Tensor:
    """2-D cross-correlation of ``x`` ``[N, C, H, W]`` with ``weight`` ``[O, C/groups, kh, kw]``, plus ``bias`` ``[O]``.

    One op: its gradient wrt ``x`` is a transposed convolution of the output gradient with
    ``weight``, wrt ``weight`` the input correlated with the output gradient (:mod:`.._convolution`).
    ``padding`` is an int, a pair, "valid" or "same" (stride 1).
    """
    _check_4d(x, "conv2d()")
    if weight.array.ndim != 4:
        raise RuntimeError(f"conv2d(): expected a 4-D weight [O, C, kh, kw], got {shape_str(weight.array.shape)}")
    out_channels, group_channels, kh, kw = weight.array.shape
    in_channels = group_channels * groups
    if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1 or out_channels % groups:
        raise RuntimeError(
            f"conv2d(): groups must be a positive int dividing out_channels={out_channels}, got groups={groups}"
        )
    if x.array.shape[1] != in_channels:
        raise RuntimeError(
            f"conv2d(): input of shape {shape_str(x.array.shape)} has {x.array.shape[1]} channels, but weight of "
            f"shape {shape_str(weight.array.shape)} with groups={groups} expects {in_channels}"
        )
    check_bias(weight, bias, out_channels, transposed=False)
    if bias is not None and bias.array.dtype != x.array.dtype:
        raise RuntimeError(f"Input type ({x.array.dtype}) and bias type ({bias.array.dtype}) should be the same")
    if weight.array.dtype != x.array.dtype:
        raise RuntimeError(
            f"expected scalar type {scalar_type_name(x.array.dtype)} but found {scalar_type_name(weight.array.dtype)}"
        )
    check_same_device(x, weight, "conv2d")
    x, padding = same_padding(x, padding, (kh, kw), stride, dilation, "conv2d()")
    return convolution(x, weight, bias, Geometry((kh, kw), stride, padding, dilation), groups)


@op(batch=windowed_rule(2, (4, 3)), saves=("n", "c", "oh", "ow", "kh", "kw", "mask", "shape", "geo"))
def max_pool2d(
    x: Tensor,
    kernel_size: Size,
    stride: Dims | None = None,
    padding: Padding = 0,
    dilation: Size = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
):
    """Max over each window (implicit -inf padding); the gradient goes to the first maximum.

    ``ceil_mode`` adds the partial windows at the end, as torch (a window never starts in the
    right padding). With ``return_indices``, also the int64 position of each maximum in its
    input plane (``row * W + column``, as torch; what ``max_unpool2d`` takes). An unbatched
    ``[C, H, W]`` input gives unbatched results.
    """
    if isinstance(x, Tensor) and x.array.ndim == 3:
        pooled = max_pool2d(x.unsqueeze(0), kernel_size, stride, padding, dilation, ceil_mode, return_indices)
        return tuple(t.squeeze(0) for t in pooled) if return_indices else pooled.squeeze(0)
    _check_4d(x, "max_pool2d()")
    width = x.array.shape[3]
    geo = Geometry(kernel_size, kernel_size if stride is None else stride, padding, dilation)
    (kh, kw), (ph, pw) = geo.kernel, geo.padding
    if ph > kh // 2 or pw > kw // 2:
        raise RuntimeError(
            f"max_pool2d(): pad should be at most half of effective kernel size, but got pad={geo.padding}, "
            f"kernel_size={geo.kernel}"
        )
    if geo.stride == geo.kernel and not any(geo.padding) and geo.dilation == (1, 1):
        pooled = max_pool2d_tiled(x, geo, ceil_mode, return_indices)
        if pooled is not None:
            return pooled
    if ceil_mode:
        x = _pad_for_ceil_mode(x, geo)
    xp = x.device.xp
    n, c = x.array.shape[:2]
    oh, ow = geo.out_hw(x.array.shape, "max_pool2d()")
    win = windows(xp, x.array, geo, pad_value=-xp.inf).reshape(n, c, kh * kw, oh * ow)
    out = win.max(axis=2).reshape(n, c, oh, ow)
    first_max = win.argmax(axis=2)[:, :, None, :]
    mask = make_leaf((xp.arange(kh * kw)[:, None] == first_max).astype(x.array.dtype), x.device)
    shape = x.array.shape

    def backward(g):
        spread = g.reshape(n, c, 1, oh * ow) * mask
        return (col2im(spread.reshape(n, c * kh * kw, oh * ow), shape, (oh, ow), geo),)

    def jvp(t):
        picked = im2col(t, geo).reshape(n, c, kh * kw, oh * ow) * mask
        return picked.sum(2).reshape(n, c, oh, ow)

    pooled = make(out, (x,), backward, "max_pool2d", jvp)
    if not return_indices:
        return pooled
    return pooled, make_leaf(_plane_positions(xp, first_max[:, :, 0, :], geo, (oh, ow), width), x.device)


def _plane_positions(xp, in_window, geo: Geometry, out_hw: tuple, width: int):
    """``[N, C, oh, ow]`` int64: where in its (unpadded) input plane each window's element ``in_window`` lies."""
    kw = geo.kernel[1]
    (sh, sw), (ph, pw), (dh, dw) = geo.stride, geo.padding, geo.dilation
    oh, ow = out_hw
    rows = (xp.arange(oh) * sh - ph)[:, None] + (in_window // kw).reshape(*in_window.shape[:2], oh, ow) * dh
    cols = (xp.arange(ow) * sw - pw)[None, :] + (in_window % kw).reshape(*in_window.shape[:2], oh, ow) * dw
    return (rows * width + cols).astype(xp.int64)


def _pad_for_ceil_mode(x: Tensor, geo: Geometry) -> Tensor:
    """``x`` with -inf rows/columns at the end so that the floor-mode windows are ceil_mode's."""
    extra = []
    for size, k, s, p, d in zip(x.array.shape[2:], geo.kernel, geo.stride, geo.padding, geo.dilation):
        span = d * (k - 1) + 1
        out = _pooled_size(size, span, s, p, ceil_mode=True)
        extra.append(max(0, (out - 1) * s + span - size - 2 * p))
    if not any(extra):
        return x
    return pad(x, (0, extra[1], 0, extra[0]), value=-float("inf"))
