"""The backward engine: topological order, one pass, backward() and grad().

A pass walks the graph from its roots in reverse topological order. For each
node it takes the node's complete incoming gradient, calls the node's backward
closure, and accumulates one contribution per parent. The engine, not the
closure, does the accumulation, so every edge can be reported to listeners.

``grad()`` is built the way the course teaches it: save every ``.grad`` and
graph edge the pass will touch, seed the outputs, run the pass, collect the
inputs' gradients, and restore what was saved in a ``finally`` block.
"""

from __future__ import annotations

import itertools
import threading
import warnings

from .. import _events, _state
from ..tensor import Tensor, _op_class_name, make_leaf, shape_str, tensor

__all__ = ["backward", "grad", "topological_order", "FREED_MESSAGE"]

_listeners = _events.listeners
_emit = _events.emit
_pass_ids = itertools.count(1)


class _PassDepth(threading.local):
    depth = 0


_pass_depth = _PassDepth()

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)


def _freed_backward(grad):
    raise RuntimeError(FREED_MESSAGE)


def topological_order(roots) -> list:
    """Every node that requires grad and is reachable from ``roots``, parents before children.

    Iterative depth-first search, so graphs of any depth work at the default
    recursion limit.
    """
    order = []
    visited = set()
    empty = iter(())
    for root in roots:
        if id(root) in visited or not root._rg:
            continue
        visited.add(id(root))
        stack = [(root, iter(root._parents))]
        while stack:
            node, parents = stack[-1]
            for p in parents:
                if p._rg and id(p) not in visited:
                    visited.add(id(p))
                    stack.append((p, iter(p._parents) if p._backward is not None else empty))
                    break
            else:
                stack.pop()
                order.append(node)
    return order


def _restrict_to_inputs(order: list, inputs) -> tuple[list, set]:
    """Keep only the nodes from which some input is reachable (``order`` is parents-first)."""
    input_ids = {id(t) for t in inputs}
    needed = set()
    for node in order:
        if id(node) in input_ids or any(id(p) in needed for p in node._parents):
            needed.add(id(node))
    return [n for n in order if id(n) in needed], needed


def _node_label(node) -> str:
    return node.name or f"{node._op or 'leaf'}#{node._id}"


def _check_contribution(node, parent, c, index):
    if c.data.shape != parent.data.shape:
        raise RuntimeError(
            f"Function {_op_class_name(node._op)} returned an invalid gradient at index {index} - "
            f"got {shape_str(c.data.shape)} but expected shape compatible with "
            f"{shape_str(parent.data.shape)}"
        )
    if c._device != parent._device:
        raise RuntimeError(
            f"Function {_op_class_name(node._op)} returned an invalid gradient at index {index} - "
            f"expected device {parent._device} but got {c._device}"
        )
    return c.to(parent.data.dtype)


def _run_hooks(node, g):
    for hook in list(node._meta["hooks"].values()):
        replaced = hook(g)
        if replaced is not None:
            if not isinstance(replaced, Tensor) or replaced.shape != g.shape:
                raise RuntimeError(
                    f"hook on {_node_label(node)} returned an invalid gradient: expected a tensor of "
                    f"shape {shape_str(g.shape)}, got "
                    + (shape_str(replaced.shape) if isinstance(replaced, Tensor) else type(replaced).__name__)
                )
            g = replaced
    return g


def _store_grad(node, g, create_graph, pass_id, depth):
    """Accumulate ``g`` into ``node.grad`` the way PyTorch's AccumulateGrad does."""
    before = node._grad
    if before is None:
        after = g if create_graph else make_leaf(g.data.copy(), g._device)
    elif create_graph:
        after = before + g
    else:
        after = make_leaf(before.data + g.data, g._device)
    node._grad = after
    if _listeners:
        _emit(
            "grad_accumulated",
            pass_id=pass_id,
            depth=depth,
            node=node,
            target=node,
            contribution=g,
            before=before,
            after=after,
            into="grad",
        )


def _run_pass(roots, seeds, *, retain_graph, create_graph, inputs, pass_id, depth):
    """Propagate ``seeds`` from ``roots``; accumulate into ``.grad`` of leaves (or of ``inputs``)."""
    order = topological_order(roots)
    needed = None
    if inputs is not None:
        order, needed = _restrict_to_inputs(order, inputs)
        input_ids = {id(t) for t in inputs}
    grads = {}
    for root, seed in zip(roots, seeds):
        if not root._rg:
            continue
        prev = grads.get(id(root))
        grads[id(root)] = seed if prev is None else prev + seed
        if _listeners:
            _emit("seeded", pass_id=pass_id, depth=depth, node=root, grad=seed)
    node = None
    anomaly = _state.anomaly
    with_grad = _state.grad
    saved_mode = with_grad.enabled
    with_grad.enabled = create_graph
    try:
        for node in reversed(order):
            g = grads.pop(id(node), None)
            if g is None:
                continue
            if node._meta is not None and "hooks" in node._meta:
                g = _run_hooks(node, g)
            if _listeners:
                _emit("node_entered", pass_id=pass_id, depth=depth, node=node, grad=g)
            fn = node._backward
            if needed is None:
                if fn is None or (node._meta is not None and node._meta.get("retains_grad")):
                    _store_grad(node, g, create_graph, pass_id, depth)
            elif id(node) in input_ids:
                _store_grad(node, g, create_graph, pass_id, depth)
            if fn is None:
                if _listeners:
                    _emit("node_finished", pass_id=pass_id, depth=depth, node=node)
                continue
            outputs = fn(g)
            if _listeners:
                _emit("closure_called", pass_id=pass_id, depth=depth, node=node, fn=fn, grad=g, outputs=outputs)
            if len(outputs) != len(node._parents):
                raise RuntimeError(
                    f"Function {_op_class_name(node._op)} returned an incorrect number of gradients "
                    f"(expected {len(node._parents)}, got {len(outputs)})"
                )
            if anomaly.enabled:
                from .anomaly import check_outputs

                check_outputs(node, outputs)
            for index, (parent, c) in enumerate(zip(node._parents, outputs)):
                if c is None or not parent._rg or (needed is not None and id(parent) not in needed):
                    continue
                if (
                    c.data.shape != parent.data.shape
                    or c.data.dtype != parent.data.dtype
                    or c._device is not parent._device
                ):
                    c = _check_contribution(node, parent, c, index)
                key = id(parent)
                before = grads.get(key)
                after = c if before is None else before + c
                grads[key] = after
                if _listeners:
                    _emit(
                        "grad_accumulated",
                        pass_id=pass_id,
                        depth=depth,
                        node=node,
                        target=parent,
                        contribution=c,
                        before=before,
                        after=after,
                        into="pass",
                    )
            if _listeners:
                _emit("node_finished", pass_id=pass_id, depth=depth, node=node)
        node = None
    except BaseException as exc:
        if _listeners:
            _emit("error", pass_id=pass_id, depth=depth, node=node, error=exc)
        raise
    finally:
        with_grad.enabled = saved_mode
    if not retain_graph:
        freed = [n for n in order if n._backward is not None]
        for n in freed:
            n._backward = _freed_backward
        if _listeners:
            _emit("graph_freed", pass_id=pass_id, depth=depth, nodes=freed)


def _as_tuple(x, what: str) -> tuple:
    if isinstance(x, Tensor):
        return (x,)
    if x is None:
        return ()
    try:
        return tuple(x)
    except TypeError:
        raise TypeError(f"{what} must be a Tensor or a sequence of Tensors, got {type(x).__name__}") from None


def _make_seeds(outputs: tuple, grad_outputs: tuple, is_grads_batched: bool = False) -> list:
    """One seed per output: the given gradient (checked), or ones for a scalar output."""
    seeds = []
    for i, (out, go) in enumerate(zip(outputs, grad_outputs)):
        if go is None:
            if out._rg:
                if out.data.size != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if out.data.dtype.kind != "f":
                    raise RuntimeError(
                        f"grad can be implicitly created only for real scalar outputs but got {out.dtype}"
                    )
            seeds.append(make_leaf(out._device.xp.ones_like(out.data), out._device))
            continue
        if not isinstance(go, Tensor):
            go = tensor(go, dtype=out.dtype, device=out._device)
        expected = out.data.shape
        got = go.data.shape[1:] if is_grads_batched else go.data.shape
        if got != expected:
            if is_grads_batched:
                raise RuntimeError(
                    f"If `is_grads_batched=True`, we interpret the first dimension of each grad_output "
                    f"as the batch dimension. The sizes of the remaining dimensions are expected to match "
                    f"the shape of corresponding output, but a mismatch was detected: grad_output[{i}] has "
                    f"a shape of {shape_str(go.data.shape)} and output[{i}] has a shape of "
                    f"{shape_str(expected)}. If you only want some tensors in `grad_output` to be "
                    f"considered batched, consider using vmap."
                )
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {shape_str(go.data.shape)} and "
                f"output[{i}] has a shape of {shape_str(expected)}."
            )
        if go._device != out._device:
            raise RuntimeError(f"invalid gradient at index {i} - expected device {out._device} but got {go._device}")
        if go.data.dtype != out.data.dtype and out.data.dtype.kind == "f":
            go = go.to(out.data.dtype)
        seeds.append(go)
    return seeds


def _begin_pass(kind, roots, seeds, inputs, options):
    pass_id = next(_pass_ids)
    _pass_depth.depth += 1
    depth = _pass_depth.depth
    if _listeners:
        _emit(
            "pass_started",
            pass_id=pass_id,
            depth=depth,
            kind=kind,
            roots=roots,
            seeds=seeds,
            inputs=inputs,
            options=options,
        )
    return pass_id, depth


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None) -> None:
    """Accumulate gradients of ``tensors`` into the ``.grad`` of the leaves (or of ``inputs``)."""
    roots = _as_tuple(tensors, "tensors")
    if grad_tensors is None:
        grad_tensors = (None,) * len(roots)
    else:
        grad_tensors = _as_tuple(grad_tensors, "grad_tensors")
    if len(grad_tensors) != len(roots):
        raise RuntimeError(f"got {len(roots)} tensors and {len(grad_tensors)} gradients")
    for i, r in enumerate(roots):
        if not r._rg:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    if inputs is not None:
        inputs = _as_tuple(inputs, "inputs")
        if not inputs:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
        for t in inputs:
            if not t._rg:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
    if retain_graph is None:
        retain_graph = create_graph
    seeds = _make_seeds(roots, grad_tensors)
    options = {"retain_graph": retain_graph, "create_graph": create_graph}
    pass_id, depth = _begin_pass("backward", roots, seeds, inputs, options)
    try:
        _run_pass(
            roots,
            seeds,
            retain_graph=retain_graph,
            create_graph=create_graph,
            inputs=inputs,
            pass_id=pass_id,
            depth=depth,
        )
        if _listeners:
            _emit("pass_finished", pass_id=pass_id, depth=depth, results=None)
    finally:
        _pass_depth.depth -= 1


def grad(
    outputs,
    inputs,
    grad_outputs=None,
    retain_graph=None,
    create_graph=False,
    only_inputs=True,
    allow_unused=None,
    is_grads_batched=False,
    materialize_grads=False,
) -> tuple:
    """Return the sum of gradients of ``outputs`` with respect to ``inputs``, never touching ``.grad``.

    Follows ``torch.autograd.grad``: ``grad_outputs`` is the vector of the
    vector-Jacobian product (``None`` allowed for scalar outputs); ``retain_graph``
    defaults to ``create_graph``; ``allow_unused`` defaults to ``materialize_grads``;
    with ``is_grads_batched`` the first dimension of each grad_output is a batch of
    vectors (computed one pass per vector) and results carry that dimension.

    The algorithm is save -> seed -> run -> collect -> restore: every ``.grad``
    and graph edge the pass touches is saved first and restored in ``finally``,
    so even an exception in the middle of the pass leaves them as they were.
    """
    outputs = _as_tuple(outputs, "outputs")
    inputs = _as_tuple(inputs, "inputs")
    if not only_inputs:
        warnings.warn(
            "only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
            "gradient for other parts of the graph, please use torch.autograd.backward.",
            FutureWarning,
            stacklevel=2,
        )
    if allow_unused is None:
        allow_unused = materialize_grads
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, but got: allow_unused=False."
        )
    if not outputs:
        raise RuntimeError("grad requires at least one output")
    if not inputs:
        raise RuntimeError("grad requires non-empty inputs.")
    for t in outputs + inputs:
        if not isinstance(t, Tensor):
            raise TypeError(f"grad(): expected Tensors, got {type(t).__name__}")
    for t in inputs:
        if not t._rg:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    else:
        grad_outputs = _as_tuple(grad_outputs, "grad_outputs")
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(
            f"grad requires one grad_output per output: got {len(outputs)} outputs and {len(grad_outputs)} grad_outputs"
        )
    for i, out in enumerate(outputs):
        if not out._rg:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    if retain_graph is None:
        retain_graph = create_graph
    if is_grads_batched:
        return _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, materialize_grads)
    seeds = _make_seeds(outputs, grad_outputs)
    results = _grad_pass(
        outputs,
        inputs,
        seeds,
        retain_graph,
        create_graph,
        allow_unused,
        {
            "retain_graph": retain_graph,
            "create_graph": create_graph,
            "allow_unused": allow_unused,
            "materialize_grads": materialize_grads,
            "is_grads_batched": False,
        },
    )
    return _materialize(results, inputs) if materialize_grads else results


def _grad_pass(outputs, inputs, seeds, retain_graph, create_graph, allow_unused, options) -> tuple:
    pass_id, depth = _begin_pass("grad", outputs, seeds, inputs, options)
    try:
        # 1. save: every .grad the pass may write (the inputs') and every edge it may free.
        order = topological_order(outputs)
        touched = list({id(t): t for t in inputs}.values())
        saved_grads = [(t, t._grad) for t in touched]
        saved_edges = [(n, n._backward) for n in order if n._backward is not None]
        for t in touched:
            t._grad = None
        if _listeners:
            _emit("grads_saved", pass_id=pass_id, depth=depth, saved=saved_grads, edges=[n for n, _ in saved_edges])
        finished = False
        try:
            # 2-3. seed and run, with the pass restricted to what reaches the inputs.
            _run_pass(
                outputs,
                seeds,
                retain_graph=True,
                create_graph=create_graph,
                inputs=inputs,
                pass_id=pass_id,
                depth=depth,
            )
            # 4. collect.
            results = tuple(t._grad for t in inputs)
            finished = True
        finally:
            # 5. restore, whatever happened above.
            for t, g in saved_grads:
                t._grad = g
            for n, fn in saved_edges:
                n._backward = fn
            if _listeners:
                _emit("grads_restored", pass_id=pass_id, depth=depth, restored=saved_grads)
        if finished and not retain_graph:
            freed = [n for n, _ in saved_edges]
            for n in freed:
                n._backward = _freed_backward
            if _listeners:
                _emit("graph_freed", pass_id=pass_id, depth=depth, nodes=freed)
        for r in results:
            if r is None and not allow_unused:
                raise RuntimeError(
                    "One of the differentiated Tensors appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior."
                )
        if _listeners:
            _emit("pass_finished", pass_id=pass_id, depth=depth, results=results)
        return results
    finally:
        _pass_depth.depth -= 1


def _materialize(results, inputs) -> tuple:
    return tuple(
        r if r is not None else make_leaf(t._device.xp.zeros_like(t.data), t._device) for r, t in zip(results, inputs)
    )


def _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, materialize_grads):
    """is_grads_batched: one vector-Jacobian pass per batch entry, results stacked on dim 0."""
    from ..ops.shape import stack

    for i, go in enumerate(grad_outputs):
        if go is not None and go.ndim == 0:
            raise RuntimeError(f"If `is_grads_batched=True`, grad_output[{i}] must have a batch dimension")
    batch_sizes = {go.shape[0] for go in grad_outputs if go is not None}
    if len(batch_sizes) > 1:
        raise RuntimeError(
            f"grad_outputs must share the batch size when is_grads_batched=True, got {sorted(batch_sizes)}"
        )
    if not batch_sizes:
        raise RuntimeError("is_grads_batched=True needs at least one grad_output with a batch dimension")
    (n,) = batch_sizes
    _make_seeds(outputs, grad_outputs, is_grads_batched=True)  # shape checks
    per_vector = []
    for k in range(n):
        vectors = tuple(None if go is None else go[k] for go in grad_outputs)
        seeds = _make_seeds(outputs, vectors)
        last = k == n - 1
        per_vector.append(
            _grad_pass(
                outputs,
                inputs,
                seeds,
                retain_graph or not last,
                create_graph,
                allow_unused or materialize_grads,
                {
                    "retain_graph": retain_graph,
                    "create_graph": create_graph,
                    "allow_unused": allow_unused,
                    "materialize_grads": materialize_grads,
                    "is_grads_batched": True,
                    "batch_index": k,
                },
            )
        )
    stacked = []
    for j, t in enumerate(inputs):
        column = [r[j] for r in per_vector]
        if all(c is None for c in column):
            if not allow_unused:
                raise RuntimeError(
                    "One of the differentiated Tensors appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior."
                )
            stacked.append(
                make_leaf(t._device.xp.zeros((n,) + t.shape, dtype=t.dtype), t._device) if materialize_grads else None
            )
            continue
        stacked.append(
            stack([c if c is not None else make_leaf(t._device.xp.zeros_like(t.data), t._device) for c in column])
        )
    return tuple(stacked)
