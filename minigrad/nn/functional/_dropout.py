"""dropout: zero elements at random while training, scaling the rest by 1 / (1 - p)."""

from __future__ import annotations

from ... import _upcalls
from ...creation import generator_for, rand
from ...ops.declare import BatchedCall, op
from ...tensor import Tensor, make_leaf

__all__ = ["dropout"]


def _random_op(call: BatchedCall):
    """``dropout``: its mask is a random tensor of one entry's shape, drawn as :func:`random_factory` draws."""
    x, p, training = call.args[0], call.get("p"), call.get("training")
    if call.value(x) is None or call.batched_among(list(call.args[1:]) + list(call.kwargs.values())):
        return call.loop()
    if not training or p == 0.0 or not 0.0 <= p <= 1.0:
        return call.fn(*call.args, **call.kwargs)  # the identity, or dropout's own error
    if p == 1.0:
        return x * 0.0
    draw = _upcalls.vmap_random_factory
    uniform = draw(rand.__wrapped__, (tuple(x.shape),), {"dtype": x.dtype, "device": x.device})
    return x * ((uniform >= p).to(x.dtype) * (1.0 / (1.0 - p)))


@op(batch=_random_op)
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
