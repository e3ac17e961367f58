"""adaptive_avg_pool3d and adaptive_max_pool3d over ``[N, C, D, H, W]``, on PyTorch's bins, from the 2-D
adaptive pools' pieces: the mean pools one dim at a time; the max takes each depth bin's maximum, then the
2-D adaptive max of it, so its gradient goes to one element of each window."""

from __future__ import annotations

from ...ops import stack
from ...ops.declare import LOOP, op
from ...tensor import Tensor, shape_str
from ._adaptive_pool import _bins, _mean_over_bins, _output_size, adaptive_max_pool2d

__all__ = ["adaptive_avg_pool3d", "adaptive_max_pool3d"]


def _check(input: Tensor, op: str) -> None:  # noqa: A002
    if input.dim() not in (4, 5):
        raise RuntimeError(f"{op}(): Expected 4D or 5D tensor, but got: {shape_str(input.shape)}")
    if input.array.dtype.kind != "f":
        raise RuntimeError(f"{op}(): expected a floating-point input, got {input.array.dtype}")


@op(batch=LOOP)
def adaptive_avg_pool3d(input: Tensor, output_size) -> Tensor:  # noqa: A002
    """The mean of each of ``output_size`` (depth, height, width) bins of ``[N, C, D, H, W]`` (or ``[C, D, H, W]``)."""
    _check(input, "adaptive_avg_pool3d")
    depth, height, width = _output_size(output_size, tuple(input.shape[-3:]), "adaptive_avg_pool3d")
    x = _mean_over_bins(_mean_over_bins(input, -1, width), -2, height)
    return _mean_over_bins(x.transpose(-3, -1), -1, depth).transpose(-3, -1)


@op(batch=LOOP)
def adaptive_max_pool3d(input: Tensor, output_size, return_indices: bool = False) -> Tensor:  # noqa: A002
    """The maximum of each of ``output_size`` bins of ``[N, C, D, H, W]`` (or ``[C, D, H, W]``)."""
    if return_indices:
        raise NotImplementedError("adaptive_max_pool3d(): return_indices=True is not supported")
    _check(input, "adaptive_max_pool3d")
    sizes = _output_size(output_size, tuple(input.shape[-3:]), "adaptive_max_pool3d")
    planes = [
        adaptive_max_pool2d(input[..., start:end, :, :].max(-3)[0], sizes[1:])
        for start, end in _bins(input.shape[-3], sizes[0])
    ]
    return stack(planes, -3)
