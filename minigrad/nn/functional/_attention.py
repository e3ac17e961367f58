"""scaled_dot_product_attention: one graph node, softmax(Q K^T * scale + M) V with its closed-form rule."""

from __future__ import annotations

import functools
import math
import weakref

from ..._state import extras, grad
from ...ops.declare import RANDOMNESS_ERROR, BatchedCall, op, rules_saving
from ...tensor import Tensor, make, make_leaf, shape_str
from ._dropout import dropout
from ._trailing_sums import trailing_sums

__all__ = ["scaled_dot_product_attention"]


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


@op(
    batch=_attention_rule,
    saves={
        "backward": ("key", "query", "scale", "value", "weights"),
        "backward_masked": ("key", "query", "scale", "value", "weights"),
    },
)
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
    scale = 1 / math.sqrt(query.array.shape[-1]) if scale is None else scale
    if dropout_p > 0.0:
        return _attention_with_dropout(query, key, value, attn_mask, dropout_p, is_causal, scale)
    weights = _attention_weights(query, key, attn_mask, is_causal, scale)
    out = weights.array @ value.array
    if not (grad.enabled or extras.on):  # no graph, no tangents: the rules are not kept
        return make(out, (query, key, value), None, "scaled_dot_product_attention")
    if not _adds_float_mask(attn_mask):

        def backward(g):
            ds = scores_grad(g @ value.mT, weights)
            return lambda: ds @ key * scale, lambda: ds.mT @ query * scale, lambda: weights.mT @ g

        def jvp(tq, tk, tv):
            ts = (tq @ key.mT + query @ tk.mT) * scale
            tp = weights * (ts - (ts * weights).sum(dim=-1, keepdim=True))
            return tp @ value + weights @ tv

        return make(out, (query, key, value), backward, "scaled_dot_product_attention", jvp)

    # the float mask is added to the scores: its gradient is dS (the engine sums its broadcast dims)
    def backward_masked(g):
        ds = scores_grad(g @ value.mT, weights)
        return lambda: ds @ key * scale, lambda: ds.mT @ query * scale, lambda: weights.mT @ g, lambda: ds

    def jvp_masked(tq, tk, tv, tm):
        ts = (tq @ key.mT + query @ tk.mT) * scale + tm
        tp = weights * (ts - (ts * weights).sum(dim=-1, keepdim=True))
        return tp @ value + weights @ tv

    parents = (query, key, value, attn_mask)
    return make(out, parents, backward_masked, "scaled_dot_product_attention", jvp_masked)


def _adds_float_mask(mask: Tensor | None) -> bool:
    """Whether ``mask`` is added to the scores (a float mask), rather than choosing positions (a bool one)."""
    return mask is not None and mask.array.dtype.kind != "b"


@rules_saving(
    {"backward": ("key", "query", "scale", "weights_ref"), "backward_masked": ("key", "query", "scale", "weights_ref")}
)
def _attention_weights(query: Tensor, key: Tensor, mask: Tensor | None, is_causal: bool, scale: float) -> Tensor:
    """P = softmax(query @ key^T * scale + mask) over the last dim, the softmax in place on one scores array.

    Its own rule is needed only to differentiate attention's rule (double backward): softmax's through the
    scores S, dS = P * (dP - rowsum(dP * P)), then dQ = dS K * scale, dK = dS^T Q * scale and, for a float
    mask, dM = dS. A masked position has P = 0, so dS is 0 there."""
    xp = query.device.xp
    scores = _scores(query, key, mask, is_causal, scale)
    if not _softmax_shifted_by_matrices(xp, scores):
        scores = _scores(query, key, mask, is_causal, scale)
        _softmax_shifted_by_rows(xp, scores)
    if not (grad.enabled or extras.on):
        return make(scores, (query, key), None, "attention_weights")
    if not _adds_float_mask(mask):

        def backward(dp):
            ds = scores_grad(dp, weights_ref())
            return lambda: ds @ key * scale, lambda: ds.mT @ query * scale

        def jvp(tq, tk):  # made before the result exists: P again, as a tensor of query and key
            weights = _attention_weights(query, key, mask, is_causal, scale)
            ts = (tq @ key.mT + query @ tk.mT) * scale
            return weights * (ts - (ts * weights).sum(dim=-1, keepdim=True))

        weights = make(scores, (query, key), backward, "attention_weights", jvp)
    else:

        def backward_masked(dp):
            ds = scores_grad(dp, weights_ref())
            return lambda: ds @ key * scale, lambda: ds.mT @ query * scale, lambda: ds

        def jvp_masked(tq, tk, tm):
            weights = _attention_weights(query, key, mask, is_causal, scale)
            ts = (tq @ key.mT + query @ tk.mT) * scale + tm
            return weights * (ts - (ts * weights).sum(dim=-1, keepdim=True))

        weights = make(scores, (query, key, mask), backward_masked, "attention_weights", jvp_masked)
    weights_ref = weakref.ref(weights)
    return weights


@rules_saving(("dp", "weights"))
def scores_grad(dp: Tensor, weights: Tensor) -> Tensor:
    """dS = P * (dP - rowsum(dP * P)): softmax's input gradient from ``dp``, the gradient of its output
    ``weights`` P, the sum over the last dim (kept).

    One node that makes one array of the scores' size, where written as Tensor ops it made four, each paged
    in fresh a step (W11's [8, 4, 64, 64] float32). Its rule: the softmax Jacobian diag(P) - P P^T is
    symmetric, so ``∂/∂dP = scores_grad(G, P)``, this op again; ``∂/∂P = G * (dP - rowsum(dP * P)) - dP *
    rowsum(G * P)``."""
    xp, d, p = dp.device.xp, dp.array, weights.array
    ds = d * p
    xp.subtract(d, trailing_sums(xp, ds), out=ds)
    ds *= p

    def backward(G):
        return (
            lambda: scores_grad(G, weights),
            lambda: G * (dp - (dp * weights).sum(dim=-1, keepdim=True)) - dp * (G * weights).sum(dim=-1, keepdim=True),
        )

    def jvp(tdp, tweights):
        return (
            scores_grad(tdp, weights)
            + tweights * (dp - (dp * weights).sum(dim=-1, keepdim=True))
            - weights * (tweights * dp).sum(dim=-1, keepdim=True)
        )

    return make(ds, (dp, weights), backward, "attention_scores_grad", jvp)


def _scores(query: Tensor, key: Tensor, mask: Tensor | None, is_causal: bool, scale: float):
    """The array query @ key^T * scale with the mask applied: masked-out positions -inf, a float mask added."""
    xp = query.device.xp
    scores = query.array @ xp.swapaxes(key.array, -1, -2)
    scores *= scale
    if is_causal:
        scores += _causal_bias(query.device, scores.shape[-2], scores.shape[-1], scores.dtype)
    elif mask is not None and not _adds_float_mask(mask):
        scores = xp.where(mask.array, scores, -xp.inf)
    elif mask is not None:
        scores = scores + mask.array
    return scores


@functools.lru_cache(maxsize=16)
def _causal_bias(device, length: int, source: int, dtype):
    """The causal mask as scores to add, 0 where position i may attend to key j <= i and -inf above, as
    PyTorch's math attention adds it (W11, one thread: 23 us, copying -inf where masked 47 us); one read-only
    array per (device, length, source, dtype)."""
    xp = device.xp
    bias = xp.triu(xp.full((length, source), -xp.inf, dtype=dtype), 1)
    if xp.__name__ == "numpy":
        bias.flags.writeable = False
    return bias


def _softmax_shifted_by_matrices(xp, scores) -> bool:
    """``scores`` -> softmax over the last dim in place, exp shifted by each matrix's maximum; False (and
    ``scores`` spoilt) where that loses precision.

    The shift that keeps exp from overflowing cancels in the quotient, so any shift at or above a row's own
    maximum serves; each matrix's maximum is one reduction over contiguous memory, where the rows' maxima
    are an argmax, a take and a subtraction broadcast over short rows (W11's 2 048 rows of 64, one thread:
    about 20 us against 127 us). It loses precision only where all of a row's terms lie far below the
    matrix's maximum: a row whose sum is under sqrt(tiny) (its largest term under sqrt(tiny) times the row
    length) or NaN returns False."""
    if scores.size == 0:
        return False
    matrices = scores.reshape(-1, scores.shape[-2] * scores.shape[-1])
    scores -= matrices.max(axis=-1).reshape(scores.shape[:-2] + (1, 1))
    xp.exp(scores, out=scores)
    sums = trailing_sums(xp, scores)
    if not sums.min() >= math.sqrt(xp.finfo(scores.dtype).tiny):
        return False
    scores /= sums
    return True


def _softmax_shifted_by_rows(xp, scores) -> None:
    """``scores`` -> softmax over the last dim in place, exp shifted by each row's maximum (read at the
    row's argmax: NumPy's max over a short last axis runs an inner loop per row, W11's rows 122 us, argmax
    and take 60 us)."""
    scores -= xp.take_along_axis(scores, scores.argmax(axis=-1)[..., None], axis=-1)
    xp.exp(scores, out=scores)
    scores /= trailing_sums(xp, scores)


def _attention_with_dropout(query, key, value, attn_mask, dropout_p, is_causal, scale) -> Tensor:
    """Attention with dropout on the weights, composed of differentiable ops (matmul, masking, softmax, dropout)."""
    xp = query.device.xp
    length, source = query.array.shape[-2], key.array.shape[-2]
    scores = (query @ key.transpose(-2, -1)) * scale
    if is_causal:
        allowed = make_leaf(xp.tril(xp.ones((length, source), dtype=bool)), query.device)
        scores = scores.masked_fill(allowed.logical_not(), float("-inf"))
    elif attn_mask is not None:
        if attn_mask.array.dtype.kind == "b":
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    return dropout(scores.softmax(dim=-1), dropout_p, training=True) @ value
