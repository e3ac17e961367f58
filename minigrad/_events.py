"""The raw execution-event bus between the engine and whoever listens.

The engine and the op constructor call ``emit`` only behind an ``if listeners:``
check, so with nobody listening an emission point costs one truthiness test.
Listeners receive ``(kind, fields)`` where ``fields`` holds live objects (nodes,
gradient tensors, closures); turning them into immutable snapshots is the job of
``minigrad.trace``, never of the engine.

Kinds and fields (``pass_id`` and ``depth`` on every backward-side event):

- ``node_created``: node, depth (the pass depth it was made at: 0 outside passes, 1 in a
  top-level pass's hooks or create_graph arithmetic, 2+ in nested passes)
- ``pass_started``: kind ("backward" or "grad"), roots, seeds, inputs, options (dict)
- ``grads_saved``: saved (list of (node, grad or None)), edges (list of nodes whose
  backward closures were stashed)
- ``seeded``: node, grad
- ``node_entered``: node, grad (the node's complete incoming gradient)
- ``closure_called``: node, fn (the backward closure), grad, outputs (one per parent)
- ``grad_reduced``: node, target (the parent), from_shape, to_shape, dims (the summed dims
  of ``from_shape``), contribution (as the rule returned it), reduced (summed to the
  parent's shape); emitted before that contribution's ``grad_accumulated``
- ``grad_accumulated``: node (where the gradient came from), target (the node it goes
  to), contribution, before (None when first), after, into ("pass" for the pass's
  gradient buffer, "grad" for the tensor's ``.grad``)
- ``node_finished``: node
- ``graph_freed``: nodes
- ``grads_restored``: restored (list of (node, grad or None))
- ``pass_finished``: results (tuple of gradients for grad(), None for backward())
- ``error``: node (or None), error (the exception)
- ``tangent_computed`` (forward mode): node, depth, op, parents, tangents (one per parent,
  zeros where a parent has none), tangent (the node's), fn (the op's forward-mode rule), level (the
  dual level's depth: 0 for the outermost, 1 inside a nested ``func.jvp``, ...)
"""

from __future__ import annotations

listeners: list = []


def emit(kind: str, /, **fields) -> None:
    """Send one event to every listener, in registration order."""
    for listener in tuple(listeners):
        listener(kind, fields)


def add_listener(fn) -> None:
    listeners.append(fn)


def remove_listener(fn) -> None:
    if fn in listeners:
        listeners.remove(fn)
