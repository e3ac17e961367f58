"""conv1d and the 1-D pools, as their 2-D forms over a height of one."""

from __future__ import annotations

from ...ops.declare import op
from ...ops.types import Dims, Padding, Size
from ...tensor import Tensor, shape_str
from .._conv_padding import same_padding
from ._batch_rules import conv_rule, windowed_rule
from ._conv import check_bias, conv2d, max_pool2d
from ._pooling import avg_pool2d

__all__ = ["conv1d", "avg_pool1d", "max_pool1d"]


def one(value, name: str) -> int:
    """``3`` or ``(3,)`` -> ``3``; PyTorch's 1-D layers take either."""
    if isinstance(value, (tuple, list)) and len(value) == 1:
        value = value[0]
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int or a 1-tuple of ints, got {value!r}")
    return value


def batched(x: Tensor, who: str) -> tuple:
    """``x`` as ``[N, C, L]`` (an unbatched ``[C, L]`` gains N = 1) and whether it was unbatched."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{who}: argument 'input' must be Tensor, not {type(x).__name__}")
    if x.array.ndim == 2:
        return x.unsqueeze(0), True
    if x.array.ndim != 3:
        raise RuntimeError(f"{who}: expected a 2-D [C, L] or 3-D [N, C, L] input, got {shape_str(x.array.shape)}")
    return x, False


@op(batch=conv_rule(1, (3, 2)))
def conv1d(
    input: Tensor,  # noqa: A002  (torch's argument name)
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Dims | None = 1,
    padding: Padding = 0,
    dilation: Size = 1,
    groups: int = 1,
) -> Tensor:
    """1-D cross-correlation of ``input`` ``[N, C, L]`` with ``weight`` ``[O, C/groups, k]``, plus ``bias`` ``[O]``."""
    x, unbatched = batched(input, "conv1d()")
    if weight.array.ndim != 3:
        raise RuntimeError(f"conv1d(): expected a 3-D weight [O, C/groups, k], got {shape_str(weight.array.shape)}")
    check_bias(weight, bias, weight.array.shape[0], transposed=False)
    x, padding = same_padding(x, padding, (weight.array.shape[2],), stride, dilation, "conv1d()")
    out = conv2d(
        x.unsqueeze(2),
        weight.unsqueeze(2),
        bias,
        (1, one(stride, "stride")),
        (0, one(padding, "padding")),
        (1, one(dilation, "dilation")),
        groups,
    ).squeeze(2)
    return out.squeeze(0) if unbatched else out


@op(batch=windowed_rule(1, (3, 2)))
def avg_pool1d(
    input: Tensor,  # noqa: A002
    kernel_size: Size,
    stride: Dims | None = None,
    padding: Padding = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    """Mean over each window of ``kernel_size`` along the last dim (``stride`` defaults to ``kernel_size``)."""
    x, unbatched = batched(input, "avg_pool1d()")
    k = one(kernel_size, "kernel_size")
    s = k if stride is None or stride == () else one(stride, "stride")
    out = avg_pool2d(
        x.unsqueeze(2), (1, k), (1, s), (0, one(padding, "padding")), ceil_mode, count_include_pad
    ).squeeze(2)
    return out.squeeze(0) if unbatched else out


@op(batch=windowed_rule(1, (3, 2)))
def max_pool1d(
    input: Tensor,  # noqa: A002
    kernel_size: Size,
    stride: Dims | None = None,
    padding: Padding = 0,
    dilation: Size = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor:
    """Max over each window of ``kernel_size`` along the last dim (implicit -inf padding); with
    ``return_indices``, also the int64 position of each maximum along that dim."""
    x, unbatched = batched(input, "max_pool1d()")
    k = one(kernel_size, "kernel_size")
    s = k if stride is None or stride == () else one(stride, "stride")
    pooled = max_pool2d(
        x.unsqueeze(2),
        (1, k),
        (1, s),
        (0, one(padding, "padding")),
        (1, one(dilation, "dilation")),
        ceil_mode,
        return_indices,
    )
    results = tuple(t.squeeze(2) for t in (pooled if return_indices else (pooled,)))
    if unbatched:
        results = tuple(t.squeeze(0) for t in results)
    return results if return_indices else results[0]
