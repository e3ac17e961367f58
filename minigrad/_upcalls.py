"""The calls that go up the layers, filled in from above: the core imports nothing from a layer above it.

The tensor sits below the engine, and the ops, the factories and ``Function.apply`` sit below
``minigrad.batching``, yet each must call up: ``Tensor.backward`` runs the engine's pass, and while a
``vmap`` runs an op hands its call to its batching rule. Each layer above sets its entries here when
it is imported (as JAX's transforms fill their rule tables), so a lower module calls ``_upcalls.NAME``
without importing the layer that defines it. ``import minigrad`` imports the engine, so ``backward``
is set before any user code runs; the ``vmap`` entries are set when ``minigrad.batching`` is
imported, and a ``vmap`` can only run from there.
"""

from __future__ import annotations

from collections.abc import Callable

#: ``backward(tensor, grad_tensors, retain_graph, create_graph, inputs)``: the backward pass
#: (``minigrad.autograd.engine.backward``).
backward: Callable[..., None]

#: ``vmap_call(fn, args, kwargs)``: ``fn`` on arguments some of which are batched, by its batching
#: rule or a loop over the batch (``minigrad.batching.dispatch.call``).
vmap_call: Callable

#: ``vmap_level_of(args, kwargs)``: the innermost ``vmap`` level batched among the arguments, or None
#: (``minigrad.batching.dispatch.level_of``).
vmap_level_of: Callable

#: ``vmap_per_entry(fn, g)``: ``fn(entry)`` for each entry of a batch of gradients ``g``, the results (tuples of
#: tensors or None) stacked into batches (``minigrad.batching.dispatch.per_entry``).
vmap_per_entry: Callable

#: ``vmap_map(fn, args)``: ``vmap(fn)(*args)``, each argument batched along its dim 0
#: (``minigrad.batching.vmap.vmap``).
vmap_map: Callable

#: ``vmap_random_factory(fn, args, kwargs)``: a factory with no tensor argument (``rand``, ``randn``,
#: ``randint``) under the running ``vmap``'s ``randomness`` (``minigrad.batching.rules.random_factory``).
vmap_random_factory: Callable

#: ``vmap_function_apply(cls, args, kwargs)``: a custom ``autograd.Function`` applied to batched
#: arguments, or ``NotImplemented`` when none of them is batched (``minigrad.batching.function``).
vmap_function_apply: Callable
