"""bilinear: ``y = x1^T A x2 + b`` for each output feature, one einsum (its rule is einsums too)."""

from __future__ import annotations

from ...ops import einsum  # the public op: inside vmap it reaches its batching rule
from ...ops.declare import COMPOSITE, op
from ...tensor import Tensor

__all__ = ["bilinear"]


@op(batch=COMPOSITE)
def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``y[..., o] = sum_ij input1[..., i] * weight[o, i, j] * input2[..., j] + bias[o]``."""
    if weight.dim() != 3:
        raise RuntimeError(f"bilinear(): weight must be three-dimensional, but got {weight.dim()} dimensions")
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}")
    for d in range(input1.dim() - 1):
        if input1.shape[d] != input2.shape[d]:
            raise RuntimeError(
                f"bilinear(): input batch dimensions do not match at dim {d}: got {input1.shape[d]} and "
                f"{input2.shape[d]}"
            )
    for name, x, axis in (("input1", input1, 1), ("input2", input2, 2)):
        if x.shape[-1] != weight.shape[axis]:
            raise RuntimeError(
                f"bilinear(): {name} size does not match weight size: got {x.shape[-1]} but expected "
                f"{weight.shape[axis]}"
            )
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError(
            f"bilinear(): bias size does not match weight size: got {bias.shape[-1]} but expected {weight.shape[0]}"
        )
    out = einsum("...i,oij,...j->...o", input1, weight, input2)
    return out if bias is None else out + bias
