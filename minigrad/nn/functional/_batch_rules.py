"""Batching rules that several nn.functional ops share, each op naming its rule in its ``@op(batch=...)``.

Ops that treat each of the N samples of ``[N, C, ...]`` on its own (``group_norm``, ``interpolate``, the
adaptive pools) fold a batched input into N. Pools, unpools and convolutions fold it into N too, or are
N for unbatched entries; a convolution with a batched weight or bias becomes one grouped convolution.
Those windowed ops declare their geometry with their rule: how many spatial dims they have and which
input ranks they take (the first is the rank with a batch dim N), as in ``conv_rule(2, (4, 3))``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from ...ops.declare import BatchedCall

_first_names: dict = {}


def _first_name(fn) -> str:
    """The name of ``fn``'s first argument (``x`` or ``input``)."""
    if fn not in _first_names:
        _first_names[fn] = next(iter(inspect.signature(fn).parameters))
    return _first_names[fn]


def batch_of_samples_rule(call: BatchedCall):
    """``group_norm``, ``interpolate``, the adaptive pools: each of the N samples of ``[N, C, ...]`` on its
    own, so a batched input folds into N (the other arguments unbatched)."""
    x = call.get(_first_name(call.fn))
    v = call.value(x)
    others = [a for a in list(call.args) + list(call.kwargs.values()) if a is not x]
    if v is None or v.dim() < 3 or call.batched_among(others):
        return call.loop()
    return call.into_n(**{_first_name(call.fn): v})


def _wrap_each(call: BatchedCall, result, shape_back):
    """The op's result (a tensor, or a tuple: a pool's values and indices) batched at the call's level."""
    if isinstance(result, tuple):
        return tuple(call.wrap(shape_back(out)) for out in result)
    return call.wrap(shape_back(result))


def _folded(call: BatchedCall, spatial: int, **batched):
    """Batched arguments (by name, all of one shape), the rest not: the batch folds into the op's N (or is
    N, for unbatched entries)."""
    if next(iter(batched.values())).dim() - 1 == spatial + 1:
        args, kwargs = call.replaced(**batched)
        return _wrap_each(call, call.run(call.fn, *args, **kwargs), lambda out: out)
    return call.into_n(**batched)


def unpool_rule(spatial: int) -> Callable:
    """The rule of a max_unpool over ``spatial`` dims."""

    def unpool(call: BatchedCall):
        """max_unpool of batched values and indices: the batch folds into the op's N (or is N, for
        unbatched entries), as for the pools that made them."""
        v = call.value(call.args[0])
        at = call.value(call.args[1]) if len(call.args) > 1 else call.value(call.kwargs.get("indices"))
        if v is None or at is None or v.shape != at.shape:
            return call.loop()
        return _folded(call, spatial, input=v, indices=at)

    return unpool


def windowed_rule(spatial: int, ranks: tuple) -> Callable:
    """The rule of a pool over ``spatial`` dims that takes inputs of the given ``ranks``."""

    def windowed(call: BatchedCall):
        """Pools, and convolutions whose weight and bias are not batched: one call, the batch folded into N."""
        x = call.get(_first_name(call.fn))
        v = call.value(x)
        others = [a for a in list(call.args) + list(call.kwargs.values()) if a is not x]
        if v is None or v.dim() - 1 not in ranks or call.batched_among(others):
            return call.loop()
        return _folded(call, spatial, **{_first_name(call.fn): v})

    return windowed


def conv_rule(spatial: int, ranks: tuple) -> Callable:
    """The rule of a convolution over ``spatial`` dims that takes inputs of the given ``ranks``."""

    def conv(call: BatchedCall):
        """Convolutions: a batched input alone folds into N; a batched weight or bias makes one grouped
        convolution, each entry's channels a group of their own (``groups`` times the batch size)."""
        x = call.get(_first_name(call.fn))
        weight, bias = call.get("weight"), call.get("bias")
        groups = call.get("groups")
        vx, vw, vb = call.value(x), call.value(weight), call.value(bias)
        rank = call.rank(x)
        if rank not in ranks or call.rank(weight) != spatial + 2 or not isinstance(groups, int):
            return call.loop()
        if vw is None and vb is None:
            return _folded(call, spatial, **{_first_name(call.fn): vx})
        size = next(v for v in (vx, vw, vb) if v is not None).shape[0]
        xs = call.expanded(x, size)
        if rank == spatial + 1:
            xs = xs.unsqueeze(1)
        sizes = tuple(xs.shape)  # [B, N, C, *S]
        grouped = xs.movedim(0, 1).reshape((sizes[1], size * sizes[2]) + sizes[3:])
        ws = call.expanded(weight, size)
        ws = ws.reshape((size * ws.shape[1],) + tuple(ws.shape[2:]))
        bs = None if bias is None else call.expanded(bias, size).reshape(-1)
        args, kwargs = call.replaced(
            **{_first_name(call.fn): grouped, "weight": ws, "bias": bs, "groups": size * groups}
        )
        out = call.run(call.fn, *args, **kwargs)  # [N, B * O, *S']
        out = out.reshape((sizes[1], size, out.shape[1] // size) + tuple(out.shape[2:])).movedim(1, 0)
        return call.wrap(out.squeeze(1) if rank == spatial + 1 else out)

    return conv
