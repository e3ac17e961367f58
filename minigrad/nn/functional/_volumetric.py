"""3-D convolution and pooling of ``[N, C, D, H, W]`` volumes, composed of their 2-D forms.

A window of depth ``kd`` is ``kd`` planes: the op runs its 2-D form once per kernel plane on every
output depth at once (the depths folded into the batch), and combines the planes: a sum for
conv3d and avg_pool3d, a maximum for max_pool3d, shifted placement for conv_transpose3d. Each
piece is a differentiable op, so the gradient is theirs and the debugger shows the pieces.
"""

from __future__ import annotations

import math

from ...creation import ones
from ...ops import pad, stack
from ...ops.declare import LOOP, op
from ...ops.types import Dims, Padding, Size
from ...tensor import Tensor, shape_str
from ._conv import conv2d, max_pool2d
from ._conv_transpose import conv_transpose2d
from ._pooling import avg_pool2d

__all__ = ["conv3d", "conv_transpose3d", "max_pool3d", "avg_pool3d"]


def _triple(value, name: str) -> tuple:
    if isinstance(value, int):
        return (value,) * 3
    value = tuple(value)
    if len(value) == 1:
        return value * 3
    if len(value) != 3 or not all(isinstance(v, int) for v in value):
        raise TypeError(f"{name} must be an int or a tuple of 3 ints, got {value!r}")
    return value


def _batched(input: Tensor, op: str) -> tuple:  # noqa: A002
    if input.dim() not in (4, 5):
        raise RuntimeError(
            f"{op}: Expected 4D (unbatched) or 5D (batched) input to {op}, but got input of size: "
            f"{shape_str(input.shape)}"
        )
    return (input.unsqueeze(0), True) if input.dim() == 4 else (input, False)


def _depth_planes(x: Tensor, start: int, step: int, count: int) -> Tensor:
    """Depth planes ``start, start + step, ...`` (``count`` of them) of ``[N, C, D, H, W]``, as
    ``[N * count, C, H, W]``."""
    n, c, _, h, w = x.shape
    planes = x[:, :, start : start + step * (count - 1) + 1 : step]
    return planes.permute(0, 2, 1, 3, 4).reshape(n * count, c, h, w)


def _unfold_depth(y: Tensor, n: int, depth: int) -> Tensor:
    """``[N * D, C, H, W]`` back to ``[N, C, D, H, W]``."""
    _, c, h, w = y.shape
    return y.reshape(n, depth, c, h, w).permute(0, 2, 1, 3, 4)


def _out_size(size: int, kernel: int, stride: int, dilation: int) -> int:
    return (size - dilation * (kernel - 1) - 1) // stride + 1


@op(batch=LOOP)
def conv3d(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Dims | None = 1,
    padding: Padding = 0,
    dilation: Size = 1,
    groups: int = 1,
) -> Tensor:
    """3-D cross-correlation of ``[N, C, D, H, W]`` (or ``[C, D, H, W]``) with ``weight``
    ``[O, C/groups, kd, kh, kw]``, plus ``bias`` ``[O]``; ``padding`` an int, a triple, "valid" or "same"."""
    x, unbatched = _batched(input, "conv3d")
    if weight.dim() != 5:
        raise RuntimeError(f"conv3d(): expected a 5-D weight [O, C, kd, kh, kw], got {shape_str(weight.shape)}")
    out_channels, group_channels, kd, kh, kw = weight.shape
    if x.shape[1] != group_channels * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {shape_str(weight.shape)}, expected input{shape_str(x.shape)} to "
            f"have {group_channels * groups} channels, but got {x.shape[1]} channels instead"
        )
    stride, dilation = _triple(stride, "stride"), _triple(dilation, "dilation")
    kernel = (kd, kh, kw)
    if padding == "same":
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        totals = [d * (k - 1) for d, k in zip(dilation, kernel)]
        widths = [(t // 2, t - t // 2) for t in totals]
    elif padding == "valid":
        widths = [(0, 0)] * 3
    elif isinstance(padding, str):
        raise ValueError(f"Invalid padding string '{padding}', should be one of ['valid', 'same']")
    else:
        widths = [(p, p) for p in _triple(padding, "padding")]
    if any(lo or hi for lo, hi in widths):
        x = pad(x, [v for pair in reversed(widths) for v in pair])
    n, _, depth = x.shape[0], x.shape[1], x.shape[2]
    out_depth = _out_size(depth, kd, stride[0], dilation[0])
    if out_depth < 1:
        raise RuntimeError(
            f"conv3d(): input of shape {shape_str(input.shape)} is too small for kernel {kd}x{kh}x{kw} "
            f"(padding {widths}, dilation {dilation})"
        )
    out = None
    for i in range(kd):
        planes = _depth_planes(x, i * dilation[0], stride[0], out_depth)
        y = conv2d(planes, weight[:, :, i], None, stride[1:], 0, dilation[1:], groups)
        out = y if out is None else out + y
    out = _unfold_depth(out, n, out_depth)
    if bias is not None:
        out = out + bias.reshape(1, out_channels, 1, 1, 1)
    return out.squeeze(0) if unbatched else out


@op(batch=LOOP)
def conv_transpose3d(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Dims | None = 1,
    padding: Padding = 0,
    output_padding=0,
    groups: int = 1,
    dilation: Size = 1,
) -> Tensor:
    """Transposed 3-D convolution of ``[N, C_in, D, H, W]`` with ``weight`` ``[C_in, C_out/groups, kd, kh, kw]``:
    each input plane's 2-D transposed convolution by kernel plane ``i`` lands ``i * dilation`` deep from
    ``stride`` times its own depth."""
    x, unbatched = _batched(input, "conv_transpose3d")
    if weight.dim() != 5:
        raise RuntimeError(f"conv_transpose3d(): expected a 5-D weight, got {shape_str(weight.shape)}")
    if x.shape[1] != weight.shape[0]:
        raise RuntimeError(
            f"Given transposed=1, weight of size {shape_str(weight.shape)}, expected input{shape_str(x.shape)} to "
            f"have {weight.shape[0]} channels, but got {x.shape[1]} channels instead"
        )
    stride, padding = _triple(stride, "stride"), _triple(padding, "padding")
    output_padding, dilation = _triple(output_padding, "output_padding"), _triple(dilation, "dilation")
    for extra, s, d in zip(output_padding, stride, dilation):
        if extra >= s and extra >= d:
            raise RuntimeError("output padding must be smaller than either stride or dilation")
    n, _, depth, h, w = x.shape
    kd = weight.shape[2]
    sd, dd = stride[0], dilation[0]
    spread = (depth - 1) * sd + 1  # the input depths, stride apart
    full = spread + dd * (kd - 1) + output_padding[0]
    planes = x.permute(0, 2, 1, 3, 4).reshape(n * depth, x.shape[1], h, w)
    out = None
    for i in range(kd):
        y = conv_transpose2d(
            planes, weight[:, :, i], None, stride[1:], padding[1:], output_padding[1:], groups, dilation[1:]
        )
        y = y.reshape(n, depth, 1, *y.shape[1:])  # [N, D, 1, O, OH, OW]
        if sd > 1:
            y = pad(y, (0, 0, 0, 0, 0, 0, 0, sd - 1)).reshape(n, depth * sd, *y.shape[3:])[:, :spread]
        else:
            y = y.squeeze(2)
        y = pad(y, (0, 0, 0, 0, 0, 0, i * dd, full - i * dd - spread))
        out = y if out is None else out + y
    out = out[:, padding[0] : full - padding[0]].permute(0, 2, 1, 3, 4)
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1, 1)
    return out.squeeze(0) if unbatched else out


def _pool_geometry(kernel_size, stride, padding, dilation=1) -> tuple:
    kernel = _triple(kernel_size, "kernel_size")
    stride = (
        kernel if stride is None or (not isinstance(stride, int) and len(stride) == 0) else _triple(stride, "stride")
    )
    return kernel, stride, _triple(padding, "padding"), _triple(dilation, "dilation")


@op(batch=LOOP)
def max_pool3d(
    input: Tensor,  # noqa: A002
    kernel_size: Size,
    stride: Dims | None = None,
    padding: Padding = 0,
    dilation: Size = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor:
    """Max over each window of ``[N, C, D, H, W]`` (or ``[C, D, H, W]``), -inf padding; ``stride`` defaults to
    ``kernel_size``."""
    if ceil_mode or return_indices:
        raise NotImplementedError("max_pool3d(): ceil_mode and return_indices are not supported")
    x, unbatched = _batched(input, "max_pool3d")
    kernel, stride, padding, dilation = _pool_geometry(kernel_size, stride, padding, dilation)
    for p, k, d in zip(padding, kernel, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} and "
                f"dilation={d}"
            )
    if padding[0]:
        x = pad(x, (0, 0, 0, 0, padding[0], padding[0]), value=-math.inf)
    n, depth = x.shape[0], x.shape[2]
    out_depth = _out_size(depth, kernel[0], stride[0], dilation[0])
    pooled = [
        max_pool2d(
            _depth_planes(x, i * dilation[0], stride[0], out_depth), kernel[1:], stride[1:], padding[1:], dilation[1:]
        )
        for i in range(kernel[0])
    ]
    out = _unfold_depth(stack(pooled).max(0)[0], n, out_depth)
    return out.squeeze(0) if unbatched else out


@op(batch=LOOP)
def avg_pool3d(
    input: Tensor,  # noqa: A002
    kernel_size: Size,
    stride: Dims | None = None,
    padding: Padding = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """Mean over each window of ``[N, C, D, H, W]`` (or ``[C, D, H, W]``); zero padding counts towards the mean
    when ``count_include_pad``; ``divisor_override`` replaces the count."""
    if ceil_mode:
        raise NotImplementedError("avg_pool3d(): ceil_mode is not supported")
    x, unbatched = _batched(input, "avg_pool3d")
    kernel, stride, padding, _ = _pool_geometry(kernel_size, stride, padding)
    for p, k in zip(padding, kernel):
        if p > k // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} and dilation=1"
            )
    out = _window_means(x, kernel, stride, padding)
    if divisor_override is not None:
        out = out * (math.prod(kernel) / divisor_override)
    elif not count_include_pad and any(padding):
        out = out / _window_means(_ones_like_volume(x), kernel, stride, padding)
    return out.squeeze(0) if unbatched else out


def _ones_like_volume(x: Tensor) -> Tensor:
    return ones((1, 1, *x.shape[2:]), dtype=x.dtype, device=x.device)


def _window_means(x: Tensor, kernel, stride, padding) -> Tensor:
    """Each window's mean, zero padding counted."""
    if padding[0]:
        x = pad(x, (0, 0, 0, 0, padding[0], padding[0]))
    n, depth = x.shape[0], x.shape[2]
    out_depth = _out_size(depth, kernel[0], stride[0], 1)
    total = None
    for i in range(kernel[0]):
        y = avg_pool2d(_depth_planes(x, i, stride[0], out_depth), kernel[1:], stride[1:], padding[1:])
        total = y if total is None else total + y
    return _unfold_depth(total / kernel[0], n, out_depth)
