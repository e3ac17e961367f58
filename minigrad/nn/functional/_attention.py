"""scaled_dot_product_attention, composed of differentiable ops (matmul, softmax, masking)."""

from __future__ import annotations

import math

from ...ops.declare import BatchedCall, op
from ...tensor import Tensor, make_leaf, shape_str
from ._dropout import dropout

__all__ = ["scaled_dot_product_attention"]


RANDOMNESS_ERROR = (
    "vmap: called random operation while in randomness error mode. Please either use the 'same' or "
    "'different' randomness flags on vmap or perform the randomness operation out of vmap"
)


def _attention_rule(call: BatchedCall):
    """``scaled_dot_product_attention`` batches over every dim before the last two: query, key, value and
    the mask repeated over the batch where unbatched, padded to one rank. Dropout follows ``randomness``
    (one mask per entry with "different"; "same" loops)."""
    names = ("query", "key", "value", "attn_mask")
    tensors = {n: call.get(n) for n in names}
    present = {n: t for n, t in tensors.items() if isinstance(t, Tensor)}
    size = call.size
    if call.get("dropout_p"):
        mode = call.randomness
        if mode == "error":
            raise RuntimeError(RANDOMNESS_ERROR)
        if mode == "same":
            return call.loop()
    rank = max(call.rank(t) for t in present.values())
    changes = {n: call.padded(call.expanded(t, size), rank) for n, t in present.items()}
    args, kwargs = call.replaced(**changes)
    return call.wrap(call.run(call.fn, *args, **kwargs))


@op(batch=_attention_rule)
def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Tensor:
    """softmax(query @ key^T * scale + mask) @ value over ``[..., L, E]``, ``[..., S, E]``, ``[..., S, Ev]``.

    ``scale`` defaults to 1/sqrt(E). A boolean ``attn_mask`` marks the positions that may
    be attended to (False ones are masked out); a float mask is added to the scores.
    ``is_causal`` lets position i attend to keys 0..i only. With ``enable_gqa`` the
    key/value heads (dim -3) are shared by groups of query heads.
    """
    for name, t in (("query", query), ("key", key), ("value", value)):
        if not isinstance(t, Tensor):
            raise TypeError(f"scaled_dot_product_attention(): argument '{name}' must be Tensor, not {type(t).__name__}")
    if query.array.ndim < 2 or key.array.ndim < 2 or value.array.ndim < 2:
        raise RuntimeError("scaled_dot_product_attention(): query, key and value need at least 2 dims")
    if query.array.shape[-1] != key.array.shape[-1] or key.array.shape[-2] != value.array.shape[-2]:
        raise RuntimeError(
            f"scaled_dot_product_attention(): query {shape_str(query.shape)}, key {shape_str(key.shape)} and "
            f"value {shape_str(value.shape)} do not fit: query and key need one embedding size, key and value "
            "one sequence length"
        )
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    if enable_gqa and query.array.ndim >= 3 and key.array.shape[-3] != query.array.shape[-3]:
        repeat = query.array.shape[-3] // key.array.shape[-3]
        key = key.repeat_interleave(repeat, dim=-3)
        value = value.repeat_interleave(repeat, dim=-3)
    xp = query.device.xp
    length, source = query.array.shape[-2], key.array.shape[-2]
    scores = (query @ key.transpose(-2, -1)) * (1 / math.sqrt(query.array.shape[-1]) if scale is None else scale)
    if is_causal:
        allowed = make_leaf(xp.tril(xp.ones((length, source), dtype=bool)), query.device)
        scores = scores.masked_fill(allowed.logical_not(), float("-inf"))
    elif attn_mask is not None:
        if attn_mask.array.dtype.kind == "b":
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    weights = scores.softmax(dim=-1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, training=True)
    return weights @ value
