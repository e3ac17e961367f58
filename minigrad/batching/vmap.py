"""``vmap``: PyTorch's ``torch.func.vmap`` (pytree arguments and outputs, ``in_dims``/``out_dims`` as
trees, nesting, chunks, randomness), batching each op by its rule (:mod:`.rules`)."""

from __future__ import annotations

import functools

from .._pytree import tree_flatten, tree_leaves, tree_unflatten
from ..ops import cat
from ..tensor import Tensor
from . import levels
from .tensor import value_at, wrap

RANDOMNESS = ("error", "different", "same")


def _name(func) -> str:
    return getattr(func, "__name__", repr(func))


def _dims_per_leaf(dims, tree) -> list | None:
    """One dim per leaf of ``tree``, from ``dims``: a tree of the same structure, where a leaf (an int,
    None) stands for a whole subtree; None when the structures differ (torch's ``_broadcast_to_and_flatten``)."""
    if not isinstance(dims, (tuple, list, dict)):
        return [dims] * len(tree_leaves(tree))
    if type(dims) is not type(tree) or len(dims) != len(tree):
        return None
    if isinstance(dims, dict):
        if dims.keys() != tree.keys():
            return None
        parts = [_dims_per_leaf(dims[k], tree[k]) for k in tree]
    else:
        parts = [_dims_per_leaf(d, t) for d, t in zip(dims, tree)]
    return None if any(p is None for p in parts) else [d for part in parts for d in part]


def _structure_error(func, what: str, dims, tree, call: str) -> ValueError:
    side = "inputs" if what == "in_dims" else "outputs"
    return ValueError(
        f"vmap({_name(func)}, {call})(<inputs>): {what} is not compatible with the structure of `{side}`. {what} "
        f"has structure {tree_flatten(dims)[1]} but {side} has structure {tree_flatten(tree)[1]}."
    )


def _batch_size(leaves, dims, func, in_dims) -> int:
    sizes = []
    for x, d in zip(leaves, dims):
        if d is None:
            continue
        if not isinstance(d, int) or isinstance(d, bool):
            raise ValueError(
                f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input but in_dim "
                "must be either an integer dimension or None."
            )
        if not isinstance(x, Tensor):
            raise ValueError(
                f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input but the input "
                f"is of type {type(x)}. We cannot vmap over non-Tensor arguments, please use None as the respective "
                "in_dim"
            )
        n = x.dim()
        if not -n <= d < n:
            raise ValueError(
                f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for some input, but that input "
                f"is a Tensor of dimensionality {n} so expected in_dim to satisfy -{n} <= in_dim < {n}."
            )
        sizes.append(x.shape[d])
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if len(set(sizes)) != 1:
        raise ValueError(
            f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes {sizes} for the "
            "mapped dimension"
        )
    return sizes[0]


def _output(x, level, size: int, out_dim, func):
    """One output leaf with the batch at ``out_dim``; an output that does not depend on the batch is
    repeated (``out_dim=None`` returns it as it is)."""
    if not isinstance(x, Tensor):
        raise ValueError(
            f"vmap({_name(func)}, ...): `{_name(func)}` must only return Tensors, got type {type(x)}. Did you mean "
            "to set out_dims= to None for output?"
        )
    v = value_at(x, level.id)
    if out_dim is None:
        if v is not None:
            raise ValueError(
                f"vmap({_name(func)}, ...): `{_name(func)}` can not return a BatchedTensor when out_dim is None"
            )
        return x
    if v is None:
        v = x.unsqueeze(0).expand((size,) + tuple(x.shape))
    n = v.dim()
    if not -n <= out_dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {out_dim})")
    return v if out_dim % n == 0 else v.movedim(0, out_dim)


def _out_dims(out_dims, out, func) -> list:
    """One out_dim per output leaf (a single tensor also takes a 1-tuple, as torch's does)."""
    if isinstance(out_dims, tuple) and len(out_dims) == 1 and isinstance(out, Tensor):
        out_dims = out_dims[0]
    dims = _dims_per_leaf(out_dims, out)
    if dims is None:
        raise _structure_error(func, "out_dims", out_dims, out, f"..., out_dims={out_dims}")
    return dims


def _run(func, kwargs, leaves, dims, spec, size, randomness, out_dims):
    """One call of ``func`` with the batched leaves wrapped at a new level, its outputs unwrapped."""
    with levels.entered(size, randomness) as level:
        batched = [
            x if d is None else wrap(x.movedim(d, 0) if d % x.dim() else x, level.id) for x, d in zip(leaves, dims)
        ]
        out = func(*tree_unflatten(batched, spec), **kwargs)
    out_leaves, out_spec = tree_flatten(out)
    outs = _out_dims(out_dims, out, func)
    return tree_unflatten([_output(x, level, size, d, func) for x, d in zip(out_leaves, outs)], out_spec)


def vmap(func, in_dims=0, out_dims=0, randomness: str = "error", *, chunk_size=None):
    """``f -> (batched inputs -> batched outputs)``: ``f`` applied to every entry along ``in_dims`` at once.

    ``in_dims``: an int, None (not batched) or a tree matching the positional arguments (pytrees: nested
    tuples, lists, dicts), where an int or None stands for a whole subtree;
    ``out_dims`` likewise for the outputs. Keyword arguments are not batched. ``randomness``:
    ``"error"`` refuses random ops, ``"different"`` draws per entry, ``"same"`` once for all.
    ``chunk_size`` runs the batch that many entries at a time.
    """
    if randomness not in RANDOMNESS:
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if not isinstance(in_dims, (int, tuple)) or isinstance(in_dims, bool):
            raise ValueError(
                f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a "
                f"(potentially nested) tuple matching the structure of inputs, got: {type(in_dims)}."
            )
        dims = _dims_per_leaf(in_dims, args)
        if dims is None:
            raise _structure_error(func, "in_dims", in_dims, args, f"in_dims={in_dims}, ...")
        if not args:
            raise ValueError(
                f"vmap({_name(func)})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are trying to "
                "vmap over a function with no inputs. The latter is unsupported."
            )
        leaves, spec = tree_flatten(args)
        size = _batch_size(leaves, dims, func, in_dims)
        if chunk_size is None or chunk_size >= size:
            return _run(func, kwargs, leaves, dims, spec, size, randomness, out_dims)
        return _chunked(func, kwargs, leaves, dims, spec, size, randomness, out_dims, chunk_size)

    return wrapper


def _chunked(func, kwargs, leaves, dims, spec, size, randomness, out_dims, chunk_size):
    """``_run`` on ``chunk_size`` entries at a time, the outputs concatenated along their out_dims."""
    pieces = []
    for start in range(0, size, chunk_size):
        n = min(chunk_size, size - start)
        part = [x if d is None else x.narrow(d, start, n) for x, d in zip(leaves, dims)]
        pieces.append(_run(func, kwargs, part, dims, spec, n, randomness, out_dims))
    out_spec = tree_flatten(pieces[0])[1]
    outs = _out_dims(out_dims, pieces[0], func)
    columns = [tree_flatten(p)[0] for p in pieces]
    joined = [columns[0][k] if d is None else cat([c[k] for c in columns], dim=d) for k, d in enumerate(outs)]
    return tree_unflatten(joined, out_spec)
