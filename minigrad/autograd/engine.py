"""The backward engine: one pass, backward() and grad().

Every backward pass is one function, ``_run_pass``: backward(), grad(),
create_graph, with or without someone watching. It visits the nodes newest
first (a heap by creation id, filled as gradients arrive). For each node it
takes the node's complete incoming gradient, calls the node's backward closure,
and accumulates one contribution per parent. The engine, not the closure, does
the accumulation (``_accumulate``, the one place gradients are added), so every
edge can be reported to listeners; the events are emitted behind ``if listeners:``.

``grad()`` is built the way the course teaches it: save every ``.grad`` and
graph edge the pass will touch, seed the outputs, run the pass, collect the
inputs' gradients, and restore what was saved in a ``finally`` block.
"""

from __future__ import annotations

import warnings
from heapq import heappop, heappush

from .. import _events, _state, _upcalls, _versions
from .._tensor_state import rebased_history
from ..ops.declare import BATCHING_RULES
from ..ops.inplace import view_at
from ..ops.reduction import sum as sum_over
from ..ops.shape import stack
from ..tensor import (
    FREED_MESSAGE,
    Tensor,
    _freed_backward,
    _op_class_name,
    make_leaf,
    mark_written,
    node_label,
    shape_str,
)
from .anomaly import check_outputs, note_forward_trace
from .saved import call_checked, saves_by_code, saves_values

__all__ = ["backward", "grad", "topological_order", "has_custom_function", "FREED_MESSAGE"]

_listeners = _events.listeners
_write_clock = _versions.clock
_pass_ids = _state.pass_ids
_anomaly = _state.anomaly
_grad = _state.grad


_passes = _state.passes


def topological_order(roots) -> list:
    """Every node that requires grad and is reachable from ``roots``, parents before children.

    Iterative depth-first search, so graphs of any depth work at the default
    recursion limit. The stack is two flat lists (nodes, and how many parents of
    each were looked at) rather than a tuple and an iterator per node: on a deep
    chain those would be thousands of live objects for the cyclic GC to scan.
    """
    if _versions.rebased:
        _route_rebased_edges(roots)
    order = []
    visited = set()
    for root in roots:
        if id(root) in visited or not root._rg:
            continue
        visited.add(id(root))
        nodes = [root]
        positions = [0]
        while nodes:
            node = nodes[-1]
            parents = node.parents if node._backward is not None else ()
            i = positions[-1]
            n = len(parents)
            while i < n:
                p = parents[i]
                i += 1
                if p._rg and id(p) not in visited:
                    visited.add(id(p))
                    positions[-1] = i
                    nodes.append(p)
                    positions.append(0)
                    break
            else:
                nodes.pop()
                positions.pop()
                order.append(node)
    return order


def _route_rebased_edges(roots) -> None:
    """Point edges made before an in-place op at the node the op moved the old value to.

    An in-place op on a graph tensor makes the tensor object a new node and moves
    its old node to a new object (``ops.inplace``). A node made earlier (its id
    is smaller than the op's) still lists the tensor object as its parent; that
    edge meant the old value, so it is rewritten to the moved node.
    """
    todo = list(roots)
    seen = {id(r) for r in roots}
    while todo:
        node = todo.pop()
        if node._backward is None:
            continue
        parents = node.parents
        routed = tuple(_parent_at(p, node.id) for p in parents)
        if any(a is not b for a, b in zip(routed, parents)):
            node.parents = routed
        for p in routed:
            if id(p) not in seen:
                seen.add(id(p))
                todo.append(p)


def _parent_at(p, node_id: int):
    """``p`` as it was when the node ``node_id`` was made (a view of a base written since: made again)."""
    for op_id, old in rebased_history(p):
        if node_id < op_id:
            return old
    if p._backward is not None and p.array.base is not None:
        return view_at(p, node_id)
    return p


def _restrict_to_inputs(order: list, inputs) -> tuple[list, set, set]:
    """Keep only the nodes from which some input is reachable (``order`` is parents-first).

    Returns the restricted order, the ids of its nodes (``needed``) and the ids of
    the nodes whose closure must run because a parent is needed (``expand``): an
    input that is not a leaf but has nothing needed above it is collected
    without calling its closure.
    """
    input_ids = {id(t) for t in inputs}
    needed = set()
    expand = set()
    for node in order:
        for p in node.parents:
            if id(p) in needed:
                expand.add(id(node))
                needed.add(id(node))
                break
        else:
            if id(node) in input_ids:
                needed.add(id(node))
    return [n for n in order if id(n) in needed], needed, expand


def _invalid_gradient(node, index: int, what: str) -> RuntimeError:
    return RuntimeError(f"Function {_op_class_name(node.op)} returned an invalid gradient at index {index} - {what}")


def _broadcast_dims(shape: tuple, target: tuple):
    """The dims of ``target`` to sum so that it becomes ``shape``, or None when ``shape`` does not
    broadcast to ``target`` (leading dims broadcasting added, and dims where ``shape`` has size 1)."""
    lead = len(target) - len(shape)
    if lead < 0:
        return None
    dims = list(range(lead))
    for i, n in enumerate(shape):
        t = target[lead + i]
        if n != t:
            if n != 1:
                return None
            dims.append(lead + i)
    return tuple(dims)


def _is_batched(t) -> bool:
    """Whether ``t`` is a batch of gradients seen as one (a ``vmap`` of a pull-back made outside it: each rule
    runs once on the batch, its ops batched by their rules). Its array holds the entries, so shapes are read
    from the tensor; a plain tensor answers at its type."""
    return type(t) is not Tensor and t.array.ndim != t.dim()


# ---------------------------------------------------------------- the steps of a pass
def _run_hooks(node, g):
    """Call the tensor's hooks in registration order; a hook's non-None result replaces the gradient."""
    for hook in list(node._hooks.hooks.values()):
        replaced = hook(g)
        if replaced is None:
            continue
        name = getattr(hook, "__name__", type(hook).__name__)
        if not isinstance(replaced, Tensor):
            raise TypeError(
                f"expected Tensor, but hook '{name}' on {node_label(node.name, node.op, node.id)} returned '{type(replaced).__name__}'"
            )
        if replaced.array.shape != g.array.shape:
            raise RuntimeError(
                f"hook '{name}' on {node_label(node.name, node.op, node.id)} has changed the size of value "
                f"(was {shape_str(g.array.shape)} got {shape_str(replaced.array.shape)})"
            )
        if replaced.array.dtype != g.array.dtype:
            raise RuntimeError(
                f"hook '{name}' on {node_label(node.name, node.op, node.id)} has changed the type of value "
                f"(was {g.array.dtype} got {replaced.array.dtype})"
            )
        if replaced.device != g.device:
            raise RuntimeError(
                f"hook '{name}' on {node_label(node.name, node.op, node.id)} has changed the device of value "
                f"(was {g.device} got {replaced.device})"
            )
        g = replaced
    return g


def _check_rule_outputs(node, g, outputs, needed, pass_id, depth):
    """The rule's outputs, checked: one entry per parent; resolved and reported when someone watches.

    A rule may give, for a parent, a zero-argument function instead of a Tensor:
    it is called only when that parent needs a gradient, so a costly gradient
    nobody asked for (a constant operand's) is never computed. When a listener or
    anomaly mode watches, the entries are resolved here (None for parents that
    need no gradient) so that ``closure_called`` shows the gradients themselves;
    otherwise the pass resolves each entry as it reaches that parent.
    """
    parents = node.parents
    if len(outputs) != len(parents):
        raise RuntimeError(
            f"Function {_op_class_name(node.op)} returned an incorrect number of gradients "
            f"(expected {len(parents)}, got {len(outputs)})"
        )
    anomaly = _anomaly.enabled
    if not (_listeners or anomaly):
        return outputs
    outputs = tuple([_resolve(c, p, needed) for p, c in zip(parents, outputs)])  # a list: no generator per node
    if _listeners:
        _events.emit("closure_called", (pass_id, depth, node, node._backward, g, outputs))
    if anomaly:
        check_outputs(node, outputs)
    return outputs


def _resolve(c, parent, needed):
    """A rule's entry for ``parent``: None if the parent needs no gradient, else the gradient (lazy entries called)."""
    if c is None or not parent._rg or (needed is not None and id(parent) not in needed):
        return None
    return c() if callable(c) else c


def _per_entry(node, g, needed) -> tuple:
    """The rule of ``node`` on a batch of gradients ``g``, once per entry (each entry's lazy results called),
    the results stacked: a rule not declared ``batches_gradients`` may compute on its gradient's array, or
    call an op's own function, where a batch would be read as one entry."""
    parents = node.parents

    def entry(ge):
        outputs = call_checked(node, ge) if node.id < _write_clock.last else node._backward(ge)
        if len(outputs) != len(parents):
            return outputs  # (the pass reports it: _check_rule_outputs)
        return tuple([_resolve(c, p, needed) for p, c in zip(parents, outputs)])

    return _upcalls.vmap_per_entry(entry, g)


def _owned(c, g, outputs, rule) -> bool:
    """Whether contribution ``c`` is a fresh array nothing else holds, so a leaf may keep it as ``.grad``.

    Not the incoming gradient passed through, not a view, not handed to two parents,
    and not from a custom Function (whose backward may return any tensor it holds).
    """
    if c is g or c.array.base is not None or getattr(rule, "__wrapped__", None) is not None:
        return False
    return len(outputs) == 1 or sum(1 for o in outputs if o is c) <= 1


def _fit_to_parent(node, parent, c, index, pass_id, depth):
    """Reduce and validate: ``c`` in the parent's shape, device and dtype, as PyTorch's ``validate_outputs``.

    A contribution whose shape the parent's shape broadcasts to is summed down to
    it (reported as ``grad_reduced``); any other shape, or another device, is an error.
    """
    if not isinstance(c, Tensor):
        raise RuntimeError(f"expected Variable or None (got {type(c).__name__})")
    shape = parent.array.shape
    batched = type(c) is not Tensor and _is_batched(c)
    c_shape = tuple(c.shape) if batched else c.array.shape
    if c_shape != shape:
        dims = _broadcast_dims(shape, c_shape)
        if dims is None:
            raise _invalid_gradient(
                node,
                index,
                f"got {shape_str(c_shape)} but expected shape compatible with {shape_str(shape)}",
            )
        if batched:  # each entry summed down, by the sum's batching rule
            reduced = c.sum(dim=dims, keepdim=True).reshape(shape)
        # sum_over is Tensor.sum without the argument checks at op entry: dims are valid by construction
        elif not _grad.enabled:  # a plain pass records nothing: the sum of the array is the whole step
            data = c.array.sum(axis=dims)  # over leading dims only, a fresh array a leaf may keep (no copy)
            reduced = make_leaf(data if data.shape == shape else data.reshape(shape), c.device)
        elif dims == tuple(range(len(c.array.shape) - len(shape))):
            reduced = sum_over(c, dims)  # only leading dims: the sum has the parent's shape (a fresh array)
        else:
            reduced = sum_over(c, dims, keepdim=True)
            if reduced.array.shape != shape:
                reduced = reduced.reshape(shape)
        if _listeners:
            _events.emit("grad_reduced", (pass_id, depth, node, parent, c_shape, shape, dims, c, reduced))
        c = reduced
    if c.device != parent.device:
        raise _invalid_gradient(node, index, f"expected device {parent.device} but got {c.device}")
    if c.array.dtype != parent.array.dtype:
        c = c.to(parent.array.dtype)
    return c


def _accumulate(before: Tensor, c: Tensor, create_graph: bool, in_place: bool = False) -> Tensor:
    """``before + c``: the one place where minigrad adds gradients (a node's sum in a pass, a seed given
    twice, a ``.grad``).

    Under create_graph the sum is a recorded op, so it can be differentiated again. Otherwise the
    arrays are added, into ``before``'s own memory when ``in_place`` (a leaf's ``.grad``, as PyTorch's
    AccumulateGrad: a new version of that tensor) and the memory can take the sum, else into a fresh array.
    """
    if create_graph:
        return before + c
    if (type(before) is not Tensor or type(c) is not Tensor) and (_is_batched(before) or _is_batched(c)):
        return before + c  # a batch of gradients: by the add's batching rule
    arr, add = before.array, c.array
    if in_place and arr.shape == add.shape and arr.dtype == add.dtype:
        if getattr(getattr(arr, "flags", None), "writeable", True):
            arr += add
            mark_written(before)
            return before
    return make_leaf(arr + add, c.device)


def _store_grad(node, g, create_graph, owned, pass_id, depth):
    """Accumulate ``g`` into ``node.grad`` the way PyTorch's AccumulateGrad does.

    A first gradient is kept as is when it is part of a recorded graph (create_graph)
    or when the pass made it and nothing else holds it (``owned``), and copied
    otherwise, so that an in-place change of one ``.grad`` never shows in another's.
    A later one is added into a leaf's ``.grad`` tensor in place (a new version of it),
    except under create_graph, where the sum is a new node; a retained non-leaf's
    ``.grad`` is replaced by the sum, as PyTorch's retain_grad hook does.
    """
    before = node._grad
    if before is None:
        after = g if create_graph or owned else g.clone() if _is_batched(g) else make_leaf(g.array.copy(), g.device)
    else:
        leaf = node._backward is None
        shown = make_leaf(before.array.copy(), before.device) if leaf and _listeners else before
        after = _accumulate(before, g, create_graph, in_place=leaf)
        before = shown  # the event shows the value before an in-place add
    node._grad = after
    if _listeners:
        _events.emit("grad_accumulated", (pass_id, depth, node, node, g, before, after, "grad"))


def _free_graph(nodes: list, pass_id, depth, checked: bool = True) -> None:
    """retain_graph=False: drop the rules of these nodes (and with them the values they saved).

    Only rules that saved values are dropped (the pass picks them; ``checked=False``
    makes this look), so a graph that saved nothing runs again, as in PyTorch.
    """
    for n in nodes:
        if checked or saves_values(n._backward):
            n._backward = _freed_backward
    if _listeners:
        _events.emit("graph_freed", (pass_id, depth, nodes))


def _run_pass(roots, seeds, *, retain_graph, create_graph, pass_id, depth, inputs=None, restricted=None):
    """Propagate ``seeds`` from ``roots``; accumulate into ``.grad`` of leaves (or of ``inputs``).

    Every backward pass is this loop: backward(), grad(), create_graph, watched or not.
    What only a watcher needs (the events, a rule's outputs resolved before they are
    shown, anomaly mode's checks) sits behind ``if listeners:`` inside it.

    The order is newest node first, as PyTorch's engine runs. A node enters a heap
    keyed by its creation id when its first gradient arrives, and the largest id
    leaves first. A node is made after its parents, so the order of creation is a
    topological order, and a node leaves the heap only after every node made after
    it, so after every node that could send it a gradient: its gradient is complete.
    (A view made again for an edge recorded before an in-place write, by
    ``_route_rebased_edges``, is newer than the one node that uses it; it enters
    when that node runs and leaves next.) The heap finds the order as the pass
    goes, without a walk over the graph first, and the same program gives the same
    order on every run.

    For each node: enter (hooks; ``node_entered``) -> store ``.grad`` (leaves, or the
    ``inputs``, and retain_grad nodes) -> call its rule, checking the versions of the
    values it saved -> check its outputs (``_check_rule_outputs``) -> for each parent
    that needs a gradient: resolve -> reduce/validate (``_fit_to_parent``) ->
    accumulate -> ``node_finished``. After the whole pass, ``retain_graph=False``
    frees the rules that saved values. Rules run with grad mode set to
    ``create_graph``: in a plain pass the Tensor ops inside them record nothing.
    With ``inputs``, only the nodes from which an input is reachable run;
    ``restricted`` is a precomputed ``_restrict_to_inputs`` result (grad() computes
    it once for its save step).
    """
    if _versions.rebased:
        _route_rebased_edges(roots)
    if inputs is None:
        needed = expand = input_ids = None
    else:
        _, needed, expand = restricted or _restrict_to_inputs(topological_order(roots), inputs)
        input_ids = {id(t) for t in inputs}
    listeners = _listeners  # the live list: a listener attached by a hook sees the rest of the pass
    # a batch of cotangents (see _per_entry)? A plain tensor answers at its type
    batched = any(type(s) is not Tensor for s in seeds) and any(_is_batched(s) for s in seeds)
    checking = _anomaly.enabled
    clock = _write_clock
    grads = {}  # node -> its gradient so far in this pass (tensors hash by identity)
    heap = []  # (-creation id, node) for each node whose gradient is on its way
    owned = set()  # leaves whose buffered gradient is a fresh array (see _owned)
    to_free = None if retain_graph else []  # the run rules that saved values, freed when the pass succeeds
    node = None
    with_grad = _state.grad
    saved_mode = with_grad.enabled
    with_grad.enabled = create_graph
    try:
        for root, seed in zip(roots, seeds):
            if not root._rg:
                continue
            if listeners:
                _events.emit("seeded", (pass_id, depth, root, seed))
            before = grads.get(root)
            if before is not None:
                grads[root] = _accumulate(before, seed, create_graph)
            elif needed is None or id(root) in needed:
                grads[root] = seed
                heappush(heap, (-root.id, root))
        while heap:
            node = heappop(heap)[1]
            g = grads.pop(node)
            buffered = g
            rule = node._backward
            at_node = node._hooks  # the only Tensor state the loop reads besides the node itself
            if at_node is not None and at_node.hooks:
                g = _run_hooks(node, g)
            if listeners:
                _events.emit("node_entered", (pass_id, depth, node, g))
            # as in PyTorch, retain_grad nodes on the way get .grad in grad() too
            keeps = rule is None if input_ids is None else id(node) in input_ids
            if keeps or (at_node is not None and at_node.retains_grad):
                _store_grad(node, g, create_graph, g is buffered and node in owned, pass_id, depth)
            if rule is not None and (expand is None or id(node) in expand):
                if batched and _is_batched(g) and getattr(rule, "__code__", None) not in BATCHING_RULES:
                    outputs = _per_entry(node, g, needed)
                else:  # written in place since the node was made: PyTorch's check of the values the rule saved
                    outputs = call_checked(node, g) if node.id < clock.last else rule(g)
                parents = node.parents
                if len(outputs) != len(parents) or checking:
                    outputs = _check_rule_outputs(node, g, outputs, needed, pass_id, depth)
                elif listeners:  # the event shows the outputs resolved; most are already (a call less a node)
                    shown = needed is None and type(outputs) is tuple
                    for parent, c in zip(parents, outputs) if shown else ():
                        if type(c) is not Tensor or not parent._rg:
                            shown = False
                            break
                    if shown:
                        _events.emit("closure_called", (pass_id, depth, node, rule, g, outputs))
                    else:
                        outputs = _check_rule_outputs(node, g, outputs, needed, pass_id, depth)
                for index, parent in enumerate(parents):
                    c = outputs[index]
                    if c is None or not parent._rg or (needed is not None and id(parent) not in needed):
                        continue
                    if type(c) is not Tensor:
                        if callable(c):  # a lazy entry: the gradient is computed only now that it is needed
                            c = c()
                        if type(c) is not Tensor:
                            if c is None:
                                continue
                            c = _fit_to_parent(node, parent, c, index, pass_id, depth)  # raises: not a tensor
                    data, target = c.array, parent.array
                    if data.shape != target.shape or data.dtype is not target.dtype or c.device is not parent.device:
                        c = _fit_to_parent(node, parent, c, index, pass_id, depth)
                    before = grads.get(parent)
                    if before is None:
                        after = c
                        heappush(heap, (-parent.id, parent))
                        if parent._backward is None and _owned(c, g, outputs, rule):
                            owned.add(parent)
                    else:
                        after = _accumulate(before, c, create_graph)
                        owned.add(parent)  # a sum is a fresh array
                    grads[parent] = after
                    if listeners:
                        _events.emit("grad_accumulated", (pass_id, depth, node, parent, c, before, after, "pass"))
                if to_free is not None:  # saves_values, inline: a call per node shows on long chains
                    try:
                        saves = saves_by_code[id(rule.__code__)][1]
                    except (AttributeError, KeyError):
                        saves = None
                    if saves is True or (saves is not False and saves_values(rule)):
                        to_free.append(node)
            if listeners:
                _events.emit("node_finished", (pass_id, depth, node))
        node = None
    except BaseException as exc:
        _report_error(exc, node, pass_id, depth)
        raise
    finally:
        with_grad.enabled = saved_mode
    if to_free is not None:
        _free_graph(to_free, pass_id, depth)


def _report_error(exc, node, pass_id, depth) -> None:
    if _state.anomaly.enabled and node is not None:
        note_forward_trace(exc, node)
    if _listeners:
        _events.emit("error", (pass_id, depth, node, exc))


def _as_tuple(x, what: str) -> tuple:
    if isinstance(x, Tensor):
        return (x,)
    if x is None:
        return ()
    try:
        return tuple(x)
    except TypeError:
        raise TypeError(f"{what} must be a Tensor or a sequence of Tensors, got {type(x).__name__}") from None


def _make_seeds(outputs: tuple, grad_outputs: tuple) -> list:
    """One seed per output: the given gradient (checked), or ones for a scalar output."""
    seeds = []
    for i, (out, go) in enumerate(zip(outputs, grad_outputs)):
        if go is None:
            if out.requires_grad:
                if out.array.size != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if out.array.dtype.kind != "f":
                    raise RuntimeError(
                        f"grad can be implicitly created only for real scalar outputs but got {out.dtype}"
                    )
            seeds.append(make_leaf(out.device.xp.ones_like(out.array), out.device))
            continue
        if not isinstance(go, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(go).__name__}")
        if tuple(go.shape) != out.array.shape:  # a batch of cotangents (under vmap): each entry's shape
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {shape_str(go.shape)} and "
                f"output[{i}] has a shape of {shape_str(out.array.shape)}."
            )
        seeds.append(_match_device_dtype(go, out, i))
    return seeds


def _match_device_dtype(go: Tensor, out: Tensor, i: int) -> Tensor:
    if go.device != out.device:
        raise RuntimeError(f"invalid gradient at index {i} - expected device {out.device} but got {go.device}")
    if go.array.dtype != out.array.dtype and out.array.dtype.kind == "f":
        go = go.to(out.array.dtype)
    return go


def _begin_pass(kind, roots, seeds, inputs, options):
    pass_id = next(_pass_ids)
    _passes.depth += 1
    depth = _passes.depth
    if _listeners:
        _events.emit("pass_started", (pass_id, depth, kind, roots, seeds, inputs, options))
    return pass_id, depth


def _check_counts(outputs: tuple, grads: tuple) -> None:
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None) -> None:
    """Accumulate gradients of ``tensors`` into the ``.grad`` of the leaves (or of ``inputs``).

    Follows ``torch.autograd.backward``: ``grad_tensors`` may be omitted for
    single-element tensors; ``retain_graph`` defaults to ``create_graph``; with
    ``inputs`` only those tensors' ``.grad`` is accumulated (non-leaves included).
    Tensor hooks run on the way; ``retain_grad()`` non-leaves keep their ``.grad``.
    """
    roots = _as_tuple(tensors, "tensors")
    if grad_tensors is None:
        grad_tensors = (None,) * len(roots)
    else:
        grad_tensors = _as_tuple(grad_tensors, "grad_tensors")
    _check_counts(roots, grad_tensors)
    for i, r in enumerate(roots):
        if not isinstance(r, Tensor):
            raise TypeError(f"backward(): expected Tensors, got {type(r).__name__}")
        if not r.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    if inputs is not None:
        inputs = _as_tuple(inputs, "inputs")
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        for t in inputs:
            if not isinstance(t, Tensor):
                raise TypeError(f"all inputs have to be Tensors, but got {type(t).__name__}")
            if not t.requires_grad:
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
            _events.emit("pass_finished", (pass_id, depth, None))
    finally:
        _passes.depth -= 1


_upcalls.backward = backward  # Tensor.backward runs it: the tensor sits below the engine


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

    Follows ``torch.autograd.grad`` (PyTorch 2.8):

    - ``outputs`` and ``inputs`` are a tensor or a sequence of tensors; the result
      is always a tuple with one entry per input. Inputs may be non-leaf tensors.
    - ``grad_outputs`` is the vector of the vector-Jacobian product, one tensor
      (or ``None`` for a single-element output) per output.
    - ``retain_graph`` defaults to ``create_graph``; when false, the closures of
      the part of the graph the pass ran through are freed.
    - ``create_graph=True`` records the pass itself, so the result can be
      differentiated again (to any order).
    - ``allow_unused`` defaults to ``materialize_grads``. An input the outputs do
      not reach is an error unless allowed; its gradient is then ``None``, or
      zeros with ``materialize_grads=True`` (zeros that require grad under
      ``create_graph``, in the input's shape even with ``is_grads_batched``, as
      PyTorch 2.13 gives them).
    - ``is_grads_batched=True`` reads the first dimension of every grad_output as
      a batch of vectors and returns results with the same leading dimension.
      As PyTorch, minigrad runs one pass under a ``vmap`` over the vectors: a rule
      declared ``batches_gradients`` runs once on all of them, any other once per
      vector. A graph with a custom Function takes one pass per vector (its
      backward is the user's code), all but the last retaining the graph.
    - ``only_inputs`` is deprecated and ignored (a FutureWarning when False).

    Tensor hooks run during the pass as they do in backward().

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
    if materialize_grads and not allow_unused:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, but got: allow_unused=False."
        )
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    for t in outputs:
        if not isinstance(t, Tensor):
            raise TypeError(f"Expected output to be a Tensor, but got {type(t).__name__}")
    for t in inputs:
        if not isinstance(t, Tensor):
            raise TypeError(f"all inputs have to be Tensors, but got {type(t).__name__}")
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    grad_outputs = (None,) * len(outputs) if grad_outputs is None else _as_tuple(grad_outputs, "grad_outputs")
    _check_counts(outputs, grad_outputs)
    for i, out in enumerate(outputs):
        if not out.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    if retain_graph is None:
        retain_graph = create_graph
    options = {
        "retain_graph": retain_graph,
        "create_graph": create_graph,
        "allow_unused": allow_unused,
        "materialize_grads": materialize_grads,
        "is_grads_batched": is_grads_batched,
    }
    if is_grads_batched:
        return _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, options)
    seeds = _make_seeds(outputs, grad_outputs)
    results = _grad_pass(outputs, inputs, seeds, retain_graph, create_graph, allow_unused, options)
    return _materialize(results, inputs, create_graph) if materialize_grads else results


def _unused_error(index: int) -> RuntimeError:
    return RuntimeError(
        f"The differentiated Tensor at index {index} appears to not have been used in the graph. "
        "Set allow_unused=True if this is the desired behavior."
    )


def _grad_pass(outputs, inputs, seeds, retain_graph, create_graph, allow_unused, options) -> tuple:
    pass_id, depth = _begin_pass("grad", outputs, seeds, inputs, options)
    try:
        # 1. save: every .grad the pass may write (the inputs') and every edge it runs through.
        restricted = _restrict_to_inputs(topological_order(outputs), inputs)
        touched = list({id(t): t for t in inputs}.values())
        saved_grads = [(t, t._grad) for t in touched]
        expand = restricted[2]
        saved_edges = [(n, n._backward) for n in restricted[0] if not n.is_leaf and id(n) in expand]
        for t in touched:
            t._grad = None
        if _listeners:
            _events.emit("grads_saved", (pass_id, depth, saved_grads, [n for n, _ in saved_edges]))
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
                restricted=restricted,
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
                _events.emit("grads_restored", (pass_id, depth, saved_grads))
        if finished:
            for t, r in zip(inputs, results):
                if r is not None and not t.is_leaf and t.retains_grad:  # PyTorch fills those too
                    _store_grad(t, r, create_graph, False, pass_id, depth)
        if finished and not retain_graph:
            _free_graph([n for n, _ in saved_edges], pass_id, depth, checked=False)
        if not allow_unused:
            for i, r in enumerate(results):
                if r is None:
                    error = _unused_error(i)
                    if _listeners:
                        _events.emit("error", (pass_id, depth, None, error))
                    raise error
        if _listeners:
            _events.emit("pass_finished", (pass_id, depth, results))
        return results
    finally:
        _passes.depth -= 1


def _materialize(results, inputs, create_graph) -> tuple:
    """Zeros in the input's shape for each unused input; they require grad under create_graph, as PyTorch's do.

    PyTorch 2.13 gives them the input's own shape with ``is_grads_batched`` too (no batch dim).
    """
    return tuple(
        r if r is not None else make_leaf(t.device.xp.zeros_like(t.array), t.device, requires_grad=create_graph)
        for r, t in zip(results, inputs)
    )


def has_custom_function(outputs) -> bool:
    """Whether a custom Function made a node of the graph behind ``outputs``: its ``backward`` is the user's
    code, written for one gradient, so a batch of them goes through that graph one entry at a time."""
    return any(getattr(n._backward, "__wrapped__", None) is not None for n in topological_order(outputs))


def _one_batched_pass(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, options) -> tuple:
    """is_grads_batched as PyTorch computes it: one pass, under a ``vmap`` over the vectors, so each rule declared
    ``batches_gradients`` runs once on all of them and any other once per vector (``_per_entry``)."""
    unused = []

    def one_pass(*vectors):
        seeds = [_match_device_dtype(go, out, i) for i, (out, go) in enumerate(zip(outputs, vectors))]
        results = _grad_pass(outputs, inputs, seeds, retain_graph, create_graph, allow_unused, options)
        unused[:] = [r is None for r in results]
        return [r for r in results if r is not None]  # (vmap returns tensors only)

    found = iter(_upcalls.vmap_map(one_pass, grad_outputs))
    stacked = tuple(None if missing else next(found) for missing in unused)
    return _materialize(stacked, inputs, create_graph) if options["materialize_grads"] else stacked


def _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, options):
    """is_grads_batched: one pass over the batch of vectors (``_one_batched_pass``), or, for a graph with a custom
    Function, one vector-Jacobian pass per batch entry; results stacked on dim 0."""
    sizes = []
    for i, (out, go) in enumerate(zip(outputs, grad_outputs)):
        if go is None:
            raise RuntimeError(
                f"If `is_grads_batched=True`, every grad_output needs a batch dimension, but grad_output[{i}] is None"
            )
        if not isinstance(go, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(go).__name__}")
        if go.array.ndim == 0 or go.array.shape[1:] != out.array.shape:
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the batch "
                "dimension. The sizes of the remaining dimensions are expected to match the shape of corresponding "
                f"output, but a mismatch was detected: grad_output[{i}] has a shape of "
                f"{shape_str(go.array.shape[1:])} and output[{i}] has a shape of {shape_str(out.array.shape)}. "
                "If you only want some tensors in `grad_output` to be considered batched, consider using vmap."
            )
        sizes.append(go.array.shape[0])
    if len(set(sizes)) > 1:
        raise ValueError(
            "is_grads_batched=True: expected all grad_outputs to have the same size in the batch dimension, "
            f"got sizes {sizes}"
        )
    n = sizes[0] if sizes else 0
    if n and not has_custom_function(outputs):
        return _one_batched_pass(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, options)
    per_vector = []  # a custom Function's backward is the user's code, written for one vector: a pass each
    for k in range(n):
        seeds = [_match_device_dtype(go.select(0, k), out, i) for i, (out, go) in enumerate(zip(outputs, grad_outputs))]
        last = k == n - 1
        per_vector.append(
            _grad_pass(
                outputs,
                inputs,
                seeds,
                retain_graph or not last,
                create_graph,
                allow_unused,
                dict(options, batch_index=k),
            )
        )
    stacked = []
    for j, t in enumerate(inputs):
        column = [r[j] for r in per_vector]
        if n and column[0] is not None:
            stacked.append(stack(column))
        elif n == 0:
            stacked.append(make_leaf(t.device.xp.zeros((n,) + t.shape, dtype=t.dtype), t.device))
        else:
            stacked.append(None)
    return _materialize(stacked, inputs, create_graph) if options["materialize_grads"] else tuple(stacked)
