"""scaled_dot_product_attention, composed of differentiable ops (matmul, softmax, masking)."""

from __future__ import annotations

import math

from ...tensor import Tensor, make_leaf, shape_str
from ._dropout import dropout

__all__ = ["scaled_dot_product_attention"]


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
