"""group_norm, composed of differentiable ops (so every order of derivative works)."""

from __future__ import annotations

from ...ops.declare import op
from ...tensor import Tensor, shape_str
from ._batch_rules import batch_of_samples_rule

__all__ = ["group_norm"]


@op(batch=batch_of_samples_rule)
def group_norm(
    input: Tensor,  # noqa: A002  (torch's argument name)
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise ``[N, C, *]`` over each group of ``C / num_groups`` channels (and all positions), then scale
    and shift each channel by ``weight`` and ``bias`` ``[C]``."""
    if not isinstance(input, Tensor):
        raise TypeError(f"group_norm(): argument 'input' must be Tensor, not {type(input).__name__}")
    shape = input.array.shape
    if len(shape) < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {len(shape)}")
    n, c = shape[0], shape[1]
    if isinstance(num_groups, bool) or not isinstance(num_groups, int) or num_groups < 1 or c % num_groups:
        raise RuntimeError(
            f"Expected number of channels in input to be divisible by num_groups, but got input of shape "
            f"{shape_str(shape)} and num_groups={num_groups}"
        )
    grouped = input.reshape(n, num_groups, -1)
    centered = grouped - grouped.mean(dim=2, keepdim=True)
    var = (centered * centered).mean(dim=2, keepdim=True)
    y = (centered * (var + eps).rsqrt()).reshape(shape)
    per_channel = (1, c) + (1,) * (len(shape) - 2)
    if weight is not None:
        y = y * weight.reshape(per_channel)
    if bias is not None:
        y = y + bias.reshape(per_channel)
    return y
