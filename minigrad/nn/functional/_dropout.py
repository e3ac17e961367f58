"""dropout: zero elements at random while training, scaling the rest by 1 / (1 - p)."""

from __future__ import annotations

from ...creation import generator_for
from ...tensor import Tensor, make_leaf

__all__ = ["dropout"]


def dropout(x: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Keep each element with probability ``1 - p`` (scaled up by ``1 / (1 - p)``) when ``training``.

    The random mask comes from minigrad's generator for the tensor's device, seeded
    by ``minigrad.manual_seed``. The identity when not training or when ``p == 0``. ``inplace`` writes
    the result into ``x`` and returns it.
    """
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return x
    if inplace:  # written into x after the op read a clone, so its saved values are not what the write changes
        return x.copy_(dropout(x.clone(), p, training))
    if p == 1.0:
        return x * 0.0
    keep = generator_for(x.device).random(x.array.shape) >= p
    mask = keep.astype(x.array.dtype) * (1.0 / (1.0 - p))
    return x * make_leaf(mask.astype(x.array.dtype, copy=False), x.device)
