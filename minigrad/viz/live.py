"""Build a ``VGraph`` from live tensors: the graph as it stands now."""

from __future__ import annotations

import weakref

from .. import backend as B
from ..autograd.saved import saved_items
from ..tensor import Tensor
from .model import VGraph, VNode, select_nodes

__all__ = ["graph_of_tensors", "closure_values", "describe_captured"]


def closure_values(fn) -> list:
    """``[(name, value)]`` for the values a backward closure saved, as its op declared them (empty for
    non-closures)."""
    return saved_items(fn)


def describe_captured(value, node_id: int | None = None):
    """What a captured value looks like in a diagram: a tensor reference, a number or array, or text.

    Returns ``("tensor", id, value_array)`` for tensors (a weak reference to the
    closure's own output reads as that tensor), ``("value", obj)`` for numbers
    and arrays, ``("text", str)`` otherwise, or None for values not worth showing
    (functions, classes, modules).
    """
    if isinstance(value, weakref.ref):
        target = value()
        if target is None:
            return ("text", "dead weak reference")
        value = target
    if isinstance(value, Tensor):
        return ("tensor", value.id, B.to_host(value.array))
    if callable(value) or isinstance(value, type) or type(value).__name__ == "module":
        return None
    if isinstance(value, (bool, int, float)) or B.is_cupy_array(value) or hasattr(value, "__array__"):
        return ("value", B.to_host(value) if B.is_cupy_array(value) else value)
    text = repr(value)
    return ("text", text if len(text) <= 40 else text[:39] + "…")


def _role(t: Tensor, roots: set) -> str:
    if t.id in roots:
        return "output"
    if t.is_leaf:
        return "param" if t.requires_grad else "input"
    return "intermediate"


def _node(t: Tensor, role: str, with_captured: bool) -> VNode:
    fn = t._backward
    captured = []
    if with_captured and fn is not None:
        for name, value in closure_values(fn):
            desc = describe_captured(value)
            if desc is not None:
                captured.append((name, desc))
    grad = t._grad
    return VNode(
        id=t.id,
        name=t.name,
        op=t.op,
        shape=tuple(t.array.shape),
        dtype=str(t.array.dtype),
        device=str(t.device),
        data=B.to_host(t.array),
        grad=None if grad is None else B.to_host(grad.array),
        role=role,
        parents=tuple(p.id for p in t.parents),
        captured=captured,
        freed=t.is_freed,
    )


def graph_of_tensors(roots, max_nodes: int | None, with_captured: bool) -> VGraph:
    """The graph reachable from ``roots`` through ``.parents``, at most ``max_nodes`` tensors."""
    by_id = {}
    for r in roots:
        by_id[r.id] = r

    def parents_of(key):
        for p in by_id[key].parents:
            by_id.setdefault(p.id, p)
            yield p.id

    root_ids = [r.id for r in roots]
    kept, hidden = select_nodes(root_ids, parents_of, max_nodes)
    root_set = set(root_ids)
    g = VGraph(hidden=hidden)
    for key in kept:
        t = by_id[key]
        g.nodes[key] = _node(t, _role(t, root_set), with_captured)
    g.add_edges_from_parents()
    return g
