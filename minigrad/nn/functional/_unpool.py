"""max_unpool1d/2d: each pooled value put back where ``max_pool(..., return_indices=True)`` took it from.

Built from Tensor ops (a zero plane and ``scatter``), so the gradient is scatter's: each input
value's gradient is the output gradient at its position.
"""

from __future__ import annotations

from ... import backend as B
from ...creation import zeros
from ...ops.declare import op
from ...ops.types import Dims, Padding, Size
from ...tensor import Tensor
from .._im2col import pair
from ._batch_rules import unpool_rule
from ._conv1d import one

__all__ = ["max_unpool1d", "max_unpool2d"]


@op(batch=unpool_rule(2))
def max_unpool2d(
    input: Tensor,  # noqa: A002
    indices: Tensor,
    kernel_size: Size,
    stride: Dims | None = None,
    padding: Padding = 0,
    output_size=None,
) -> Tensor:
    """A zero ``[N, C, H, W]`` with each value of ``input`` ``[N, C, h, w]`` at the flat ``H * W`` position
    ``indices`` gives it (as ``max_pool2d(..., return_indices=True)`` returns them).

    ``H, W`` default to ``(h - 1) * stride - 2 * padding + kernel_size``; ``output_size`` (``(H, W)`` or
    ``(N, C, H, W)``) picks another size within a stride of that, as the pooled input's size may have been.
    """
    if input.array.ndim not in (3, 4):
        raise RuntimeError(
            f"Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with {input.array.ndim} dimensions."
        )
    if indices.array.dtype.kind not in "iu" or indices.array.dtype.itemsize != 8:
        raise RuntimeError(
            f"elements in indices should be type int64 but got: {B.scalar_type_name(indices.array.dtype)}"
        )
    if indices.array.shape != input.array.shape:
        raise RuntimeError(
            f"Expected shape of indices to be same as that of the input tensor ({list(input.array.shape)}) but got "
            f"indices tensor with shape: {list(indices.array.shape)}"
        )
    kernel, pad = pair(kernel_size, "kernel_size"), pair(padding, "padding")
    step = pair(kernel_size if stride is None else stride, "stride")
    height, width = _output_size(output_size, input.array.shape[-2:], kernel, step, pad)
    lead = input.array.shape[:-2]
    flat = indices.array.reshape(*lead, -1)
    bad = (flat < 0) | (flat >= height * width)
    if bad.any():
        raise RuntimeError(
            f"Found an invalid max index: {int(flat[bad][-1])} (output volumes are of size {height}x{width})"
        )
    plane = zeros(*lead, height * width, dtype=input.dtype, device=input.device)
    return plane.scatter(-1, indices.reshape(*lead, -1), input.reshape(*lead, -1)).reshape(*lead, height, width)


@op(batch=unpool_rule(1))
def max_unpool1d(
    input: Tensor,  # noqa: A002
    indices: Tensor,
    kernel_size: Size,
    stride: Dims | None = None,
    padding: Padding = 0,
    output_size=None,
) -> Tensor:
    """``max_unpool2d`` along the last dim of ``[N, C, l]`` (or ``[C, l]``): the inverse of ``max_pool1d``'s selection."""
    k, p = one(kernel_size, "kernel_size"), one(padding, "padding")
    s = k if stride is None else one(stride, "stride")
    (length,) = _output_size(output_size, input.array.shape[-1:], (k,), (s,), (p,))
    out = max_unpool2d(input.unsqueeze(-2), indices.unsqueeze(-2), (1, k), (1, s), (0, p), (1, length))
    return out.squeeze(-2)


def _output_size(output_size, sizes: tuple, kernel: tuple, step: tuple, pad: tuple) -> tuple:
    """The unpooled sizes: the default ``(n - 1) * stride - 2 * padding + kernel`` of each pooled size ``n``,
    or ``output_size`` (with or without the leading ``N, C``) when it lies within a stride of it."""
    default = tuple((n - 1) * s - 2 * p + k for n, k, s, p in zip(sizes, kernel, step, pad))
    if output_size is None:
        return default
    size = tuple(output_size)
    if len(size) == len(default) + 2:
        size = size[2:]
    if len(size) != len(default):
        raise ValueError(
            f"output_size should be a sequence containing {len(default)} or {len(default) + 2} elements, but it "
            f"has a length of '{len(tuple(output_size))}'"
        )
    for d, (want, n, s) in enumerate(zip(size, default, step)):
        if not n - s < want < n + s:
            raise ValueError(
                f'invalid output_size "{tuple(output_size)}" (dim {d} must be between {n - s} and {n + s})'
            )
    return size
