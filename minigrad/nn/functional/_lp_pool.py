"""lp_pool1d and lp_pool2d: the p-norm of each window, ``(sum x**p) ** (1/p)``, as PyTorch computes it from
the average pool of ``x**p``."""

from __future__ import annotations

import math

from ...ops import relu  # the public op: inside vmap it reaches its batching rule
from ...ops.declare import LOOP, op
from ...ops.types import Dims, Size
from ...tensor import Tensor
from ._conv1d import avg_pool1d
from ._pooling import avg_pool2d

__all__ = ["lp_pool1d", "lp_pool2d"]


def _norm_of_sums(means: Tensor, count: int, norm_type: float) -> Tensor:
    return (means.sign() * relu(means.abs()) * count) ** (1.0 / norm_type)


@op(batch=LOOP)
def lp_pool1d(
    input: Tensor,  # noqa: A002
    norm_type,
    kernel_size: int,
    stride: Dims | None = None,
    ceil_mode: bool = False,
) -> Tensor:
    """The ``norm_type``-norm of each ``kernel_size`` window along the last dim of ``[N, C, L]``."""
    means = avg_pool1d(input**norm_type, kernel_size, stride, 0, ceil_mode)
    return _norm_of_sums(means, kernel_size, norm_type)


@op(batch=LOOP)
def lp_pool2d(
    input: Tensor,  # noqa: A002
    norm_type,
    kernel_size: Size,
    stride: Dims | None = None,
    ceil_mode: bool = False,
) -> Tensor:
    """The ``norm_type``-norm of each ``kernel_size`` window of ``[N, C, H, W]``."""
    kernel = (kernel_size, kernel_size) if isinstance(kernel_size, int) else tuple(kernel_size)
    means = avg_pool2d(input**norm_type, kernel, stride, 0, ceil_mode)
    return _norm_of_sums(means, math.prod(kernel), norm_type)
