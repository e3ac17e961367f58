"""The raw execution-event bus between the engine and whoever listens.

The engine and the op constructor emit only behind an ``if listeners:`` check, so with
nobody listening an emission point costs one truthiness test. A listener is called as
``listener(kind, values)``: ``values`` is the tuple of the event's fields in the order
:data:`FIELDS` gives for its kind, holding live objects (nodes, gradient tensors,
closures); turning them into immutable snapshots is the job of ``minigrad.trace``, never
of the engine. :func:`fields` names them for a listener that would rather read them by name.

A tuple and no dict, and no dispatch function in between: the emission point calls
``_events.emit(kind, (...))``, and :func:`emit` *is* the one listener while there is one
(a fan-out over them while there are several), so a listener that does nothing costs the
engine one check and one call per event. So ``emit`` is read from this module at each
call (never bound elsewhere), and the listeners change only through :func:`add_listener`,
:func:`remove_listener` and :func:`replace_listeners`, which keep ``emit`` in step.

Kinds and fields (``pass_id`` and ``depth`` first on every backward-side event; ``depth`` is
``values[1]`` of every kind):

- ``node_created``: node, depth (the pass depth it was made at: 0 outside passes, 1 in a
  top-level pass's hooks or create_graph arithmetic, 2+ in nested passes). Not sent for the
  tensors an op or ``make_leaf`` makes inside a pass that do not require grad (a plain pass's
  gradient arithmetic: no graph holds them, and they were most of the events of a pass)
- ``pass_started``: pass_id, depth, kind ("backward" or "grad"), roots, seeds, inputs, options (dict)
- ``grads_saved``: pass_id, depth, saved (list of (node, grad or None)), edges (list of nodes
  whose backward closures were stashed)
- ``seeded``: pass_id, depth, node, grad
- ``node_entered``: pass_id, depth, node, grad (the node's complete incoming gradient)
- ``closure_called``: pass_id, depth, node, fn (the backward closure), grad, outputs (one per parent)
- ``grad_reduced``: pass_id, depth, node, target (the parent), from_shape, to_shape, dims (the
  summed dims of ``from_shape``), contribution (as the rule returned it), reduced (summed to
  the parent's shape); emitted before that contribution's ``grad_accumulated``
- ``grad_accumulated``: pass_id, depth, node (where the gradient came from), target (the node it
  goes to), contribution, before (None when first), after, into ("pass" for the pass's
  gradient buffer, "grad" for the tensor's ``.grad``)
- ``node_finished``: pass_id, depth, node
- ``graph_freed``: pass_id, depth, nodes
- ``grads_restored``: pass_id, depth, restored (list of (node, grad or None))
- ``pass_finished``: pass_id, depth, results (tuple of gradients for grad(), None for backward())
- ``error``: pass_id, depth, node (or None), error (the exception)
- ``tangent_computed`` (forward mode): node, depth, op, parents, tangents (one per parent,
  zeros where a parent has none), tangent (the node's), fn (the op's forward-mode rule), level
  (the dual level's depth: 0 for the outermost, 1 inside a nested ``func.jvp``, ...)
"""

from __future__ import annotations

__all__ = ["FIELDS", "listeners", "emit", "fields", "add_listener", "remove_listener", "replace_listeners"]

_PASS = ("pass_id", "depth")
FIELDS: dict = {
    "node_created": ("node", "depth"),
    "pass_started": (*_PASS, "kind", "roots", "seeds", "inputs", "options"),
    "grads_saved": (*_PASS, "saved", "edges"),
    "seeded": (*_PASS, "node", "grad"),
    "node_entered": (*_PASS, "node", "grad"),
    "closure_called": (*_PASS, "node", "fn", "grad", "outputs"),
    "grad_reduced": (*_PASS, "node", "target", "from_shape", "to_shape", "dims", "contribution", "reduced"),
    "grad_accumulated": (*_PASS, "node", "target", "contribution", "before", "after", "into"),
    "node_finished": (*_PASS, "node"),
    "graph_freed": (*_PASS, "nodes"),
    "grads_restored": (*_PASS, "restored"),
    "pass_finished": (*_PASS, "results"),
    "error": (*_PASS, "node", "error"),
    "tangent_computed": ("node", "depth", "op", "parents", "tangents", "tangent", "fn", "level"),
}


class _Listeners(list):
    """The registered listeners, in order; their truthiness is the engine's check. Changed only through
    :func:`add_listener`, :func:`remove_listener` and :func:`replace_listeners`, which keep :func:`emit` in
    step: a listener appended directly would never be called, so a direct change raises instead."""


def _refused(name: str):
    def method(self, *args, **kwargs):
        raise TypeError(
            f"_events.listeners.{name}(): change the listeners through add_listener, remove_listener or "
            "replace_listeners (emit calls the listeners they registered)"
        )

    return method


for _name in (
    "append",
    "extend",
    "insert",
    "remove",
    "pop",
    "clear",
    "sort",
    "reverse",
    "__setitem__",
    "__delitem__",
    "__iadd__",
    "__imul__",
):
    setattr(_Listeners, _name, _refused(_name))
del _name

listeners = _Listeners()


def fields(kind: str, values: tuple) -> dict:
    """An event's values by field name (``{}`` for a kind this version does not know)."""
    return dict(zip(FIELDS.get(kind, ()), values))


def _nobody(kind: str, values: tuple) -> None:
    pass


emit = _nobody  # rebound by _rebind: send one event, ``emit(kind, values)``, to every listener in order


def _rebind() -> None:
    global emit
    current = tuple(listeners)
    if not current:
        emit = _nobody
    elif len(current) == 1:
        emit = current[0]
    else:

        def emit(kind: str, values: tuple) -> None:
            for listener in current:
                listener(kind, values)


def add_listener(fn) -> None:
    """Send every event from now on to ``fn(kind, values)`` too (after those registered before it)."""
    list.append(listeners, fn)
    _rebind()


def remove_listener(fn) -> None:
    """Stop sending events to ``fn`` (nothing when it is not registered)."""
    if fn in listeners:
        list.remove(listeners, fn)
        _rebind()


def replace_listeners(new) -> list:
    """Make ``new`` (a sequence) the listeners, in order; returns the ones they replace, to put back later."""
    old = listeners[:]
    list.__setitem__(listeners, slice(None), new)
    _rebind()
    return old
