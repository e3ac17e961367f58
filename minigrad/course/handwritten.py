"""Record an engine written in an exercise (lesson 2's loop over minigrad's rules) as a trace.

A hand-written engine calls each node's rule (``node._backward``) itself and keeps the gradients in
a dict of its own, so minigrad's engine emits nothing. :func:`traced_engine` runs such an engine
with each rule watched: the graph is mirrored through :mod:`minigrad.trace.emit` (one stand-in per
tensor, named as the check names it), and each rule call is reported as the pass entering the node
with the gradient the engine gave it, then the rule's outputs. The engine's result for each leaf is
reported as the pass entering that leaf at the end. A check adds accumulation events of its own
with :func:`accumulation`.
"""

from __future__ import annotations

import contextlib

from minigrad.trace import emit

__all__ = ["Mirror", "traced_engine", "report_result", "accumulation"]


class Mirror:
    """A tensor's stand-in in a trace (emit's nodes are read through ``.data``)."""

    __slots__ = ("data", "__weakref__")

    def __init__(self, data):
        self.data = data


def _graph(root) -> list:
    """Every node of root's graph, parents before children (constants included: a rule returns one
    entry per parent)."""
    order, seen, stack = [], {id(root)}, [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        stack.append((node, True))
        for p in node.parents:
            if id(p) not in seen:
                seen.add(id(p))
                stack.append((p, False))
    return order


def _mirror(root, names: dict) -> dict:
    mirrors = {}
    for node in _graph(root):
        m = mirrors[id(node)] = Mirror(node.detach().numpy())
        emit.node(m, parents=[mirrors[id(p)] for p in node.parents], op=node.op, name=names.get(id(node)))
    return mirrors


def _resolved(outputs) -> list:
    return [o() if callable(o) else o for o in outputs]


class _Watch:
    """Holds the mirrors of one run (``watch.of(tensor)``) while the engine runs."""

    def __init__(self, mirrors: dict):
        self.mirrors = mirrors

    def of(self, tensor) -> Mirror:
        return self.mirrors[id(tensor)]


@contextlib.contextmanager
def traced_engine(root, names: dict | None = None):
    """Inside a recording: mirror root's graph, watch every rule, and open a backward pass from root.

    ``names``: ``{name: tensor}`` for the stand-ins' labels. Yields a watch whose ``.of(tensor)`` is
    a tensor's stand-in (for :func:`accumulation`); the caller runs the engine in the block and
    reports its result with :func:`report_result` before leaving it.
    """
    mirrors = _mirror(root, {id(t): name for name, t in (names or {}).items()})
    watched = []
    for node in _graph(root):
        rule = node._backward
        if rule is None:
            continue

        def observed(g, node=node, rule=rule):
            m = mirrors[id(node)]
            emit.entered(m, g)
            outputs = rule(g)
            emit.rule(m, rule, g, _resolved(outputs))
            return outputs

        node._backward = observed
        watched.append((node, rule))
    try:
        with emit.backward_pass(mirrors[id(root)], seed=1.0):
            yield _Watch(mirrors)
    finally:
        for node, rule in watched:
            node._backward = rule


def report_result(watch: _Watch, leaves, result: dict) -> None:
    """The engine's gradient for each of ``leaves`` (from its result dict), as the pass entering it."""
    for leaf in leaves:
        g = result.get(id(leaf)) if isinstance(result, dict) else None
        if g is not None:
            emit.entered(watch.of(leaf), g)


def accumulation(watch: _Watch, child, parent, contribution, before, after) -> None:
    """``child``'s rule sent ``contribution`` to ``parent``: ``before`` (None: nothing yet) became ``after``."""
    emit.accumulated(watch.of(child), watch.of(parent), contribution, before, after)
