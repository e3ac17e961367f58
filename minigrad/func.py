"""Function transforms, as ``torch.func``: ``grad``, ``grad_and_value``, ``vjp``, ``jvp``, ``jacrev``,
``jacfwd``, ``hessian``, ``vmap`` and ``functional_call``.

Each takes a function of tensors and returns a function (or values) that compose:
``hessian(f) == jacfwd(jacrev(f))``, ``grad(grad(f))`` is a second derivative.
Arguments, outputs and ``has_aux`` values may be pytrees (nested tuples, lists and dicts of
tensors, :mod:`minigrad._pytree`): ``grad(loss)(params)`` with a dict of parameters gives a dict
of gradients, and Jacobians nest as ``torch.func``'s (the output's tree, each leaf holding the
inputs' tree).
Reverse-mode transforms run :func:`minigrad.autograd.grad` with ``create_graph``
(so the results can be differentiated again); forward-mode transforms run the
ops' forward-mode rules in a :mod:`~minigrad.autograd.forward_ad` dual level of their own, inside
any active one, so they nest: ``jvp`` of ``jvp``, ``jacfwd(jacfwd(f))``.

``vmap`` maps a function over a batch dimension with a batching rule per op
(:mod:`minigrad.batching`). Inside ``vmap`` the reverse-mode transforms differentiate
each entry on its own: a watched input is lifted to a batched leaf (an unbatched one
expanded over the batch), so a gradient is never summed over the batch.
"""

from __future__ import annotations

import contextlib
import functools
import threading

from . import _state, _upcalls, autograd
from ._pytree import tree_flatten, tree_leaves, tree_map, tree_unflatten, treespec_pprint
from .autograd import forward_ad
from .autograd.engine import has_custom_function, topological_order
from .autograd.grad_mode import enable_grad
from .creation import eye, ones_like, zeros, zeros_like
from .ops import stack
from .ops.arithmetic import _pass_through, _same_jvp
from .ops.declare import BATCHING_RULES
from .tensor import Tensor, _set_tangent, _tangents_of, make

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap", "functional_call"]


# ---------------------------------------------------------------- helpers
class _Nesting(threading.local):
    depth = 0


_nesting = _Nesting()


@contextlib.contextmanager
def _running():
    """A transform runs: a custom Function called now must be transformable (``autograd.function``)."""
    _state.transforms.depth += 1
    try:
        yield
    finally:
        _state.transforms.depth -= 1


@contextlib.contextmanager
def _transform():
    """Inside a transform: results keep their graph only while an enclosing transform may differentiate them."""
    _nesting.depth += 1
    try:
        with _running():
            yield
    finally:
        _nesting.depth -= 1


def _finish(values, originals):
    """Top-level results (a pytree) are plain values (detached), unless the caller's own tensors require grad."""
    if _nesting.depth or any(isinstance(x, Tensor) and x.requires_grad for x in tree_leaves(originals)):
        return values
    return tree_map(_detach, values)


def _detach(value):
    """``value`` cut from the reverse-mode graph; a forward-mode tangent stays (jvp of a transform)."""
    if not isinstance(value, Tensor):
        return value
    if type(value) is not Tensor:  # batched inside vmap: detach the tensor it holds
        from .batching.tensor import wrap

        return wrap(_detach(value._value), value._level)
    detached = value.detach()
    for depth, tangent in _tangents_of(value).items():
        _set_tangent(detached, tangent, depth)
    return detached


def _argnums_tuple(argnums, nargs: int) -> tuple:
    """``argnums`` (an int or a tuple of ints, negative from the end) as a tuple of positions."""
    if not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    out = []
    for n in nums:
        if not isinstance(n, int):
            raise RuntimeError(f"argnum must be int, got: {type(n)}")
        if not -nargs <= n < nargs:
            raise RuntimeError(f"Got argnum={n}, but only {nargs} positional inputs")
        out.append(n % nargs)
    if not out:
        raise RuntimeError("argnums must be non-empty")
    if len(set(out)) != len(out):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return tuple(out)


def _require_tensor(x) -> None:
    if not isinstance(x, Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")


def _of_differentiated(func, args: tuple, nums: tuple, drop_aux: bool = False):
    """``func`` as a function of its differentiated arguments (positions ``nums``), the others fixed to
    ``args``; with ``drop_aux``, returning its first output only."""

    def partial(*values):
        full = list(args)
        for n, v in zip(nums, values):
            full[n] = v
        result = func(*full)
        return result[0] if drop_aux else result

    return partial


def _watched(x):
    """``x`` ready to be differentiated: a new node on its data, an alias differentiable back to ``x`` when a
    graph already tracks it (nested transforms), else a detached copy that requires grad. Never ``x``
    itself: the gradient is taken with respect to this argument only, not to the same tensor given as
    another argument or captured by ``func``. Inside ``vmap``, the copy is batched at every running level
    (an unbatched ``x`` expanded over the batch), so each entry gets its own gradient."""
    _require_tensor(x)
    levels = _state.vmap.levels
    if levels:
        from .batching.tensor import lift, rewrap

        return rewrap(_fresh_node(lift(x, levels)), levels)
    return _fresh_node(x)


def _fresh_node(x: Tensor) -> Tensor:
    if x.requires_grad:
        return make(x.array.view(), (x,), _pass_through, "alias", _same_jvp)
    # _detach keeps a forward-mode tangent: forward over reverse (hessian = jacfwd(jacrev(f)))
    return _detach(x).requires_grad_()


def _grads(outputs, inputs, cotangents=None, retain_graph=None) -> tuple:
    """``autograd.grad`` for the transforms (a graph kept for higher orders, zeros for unused inputs, and
    for every input when no output depends on them, as ``torch.func`` gives).

    Inside ``vmap`` it runs on the tensors behind the batched ones, every running level's batch dim
    in front, each entry's output seeded with its own cotangent (ones for a scalar output)."""
    outputs = (outputs,) if isinstance(outputs, Tensor) else tuple(outputs)
    cotangents = [None] * len(outputs) if cotangents is None else list(cotangents)
    levels = _state.vmap.levels
    if levels:
        levels = _watched_levels(inputs)
        if levels or has_custom_function(outputs):
            looped = _grads_per_entry(outputs, inputs, cotangents, retain_graph)
            if looped is not None:
                return looped
        # else a graph made outside every running level (vmap of a pull-back, jacrev): one pass, the batches of
        # cotangents going through each rule at once, as torch.func's vmap(vjp_fn) runs
    if levels:
        from .batching.tensor import lift, rewrap

        outputs = [lift(o, levels) for o in outputs]
        cotangents = [ones_like(o) if c is None else lift(c, levels) for o, c in zip(outputs, cotangents)]
        inputs = [lift(x, levels) for x in inputs]
    pairs = [(o, c) for o, c in zip(outputs, cotangents) if o.requires_grad]
    if pairs:
        options = dict(retain_graph=retain_graph, create_graph=True, allow_unused=True, materialize_grads=True)
        grads = autograd.grad([o for o, _ in pairs], inputs, [c for _, c in pairs], **options)
    else:
        grads = tuple(zeros_like(x) for x in inputs)
    return tuple(rewrap(g, levels) for g in grads) if levels else tuple(grads)


def _rules_batch(outputs) -> bool:
    """Whether every rule of the graph behind ``outputs`` takes a batch of gradients at once (its op declared
    ``batches_gradients``); any other runs once per entry of the batch."""
    return all(
        n._backward is None or getattr(n._backward, "__code__", None) in BATCHING_RULES
        for n in topological_order(outputs)
    )


def _watched_levels(inputs) -> tuple:
    """The running ``vmap`` levels the differentiated inputs are batched at (those running when watched)."""
    from .batching.tensor import unwrap_all

    ids = {level_id for x in inputs for level_id in unwrap_all(x)[1]}
    return tuple(level for level in _state.vmap.levels if level.id in ids)


def _grads_per_entry(outputs, inputs, cotangents, retain_graph):
    """``vmap(vjp_fn)``: a graph made outside a running level holds one entry of it, so cotangents batched
    at such a level go through it one entry at a time, the results stacked (None when none is batched)."""
    from .batching.tensor import value_at, wrap

    watched = {level.id for level in _watched_levels(inputs)}
    for level in reversed(_state.vmap.levels):
        if level.id in watched or all(value_at(c, level.id) is None for c in cotangents):
            continue
        per_entry = [
            _grads(outputs, inputs, [c if value_at(c, level.id) is None else value_at(c, level.id).select(0, b)
                                     for c in cotangents], retain_graph=True)
            for b in range(level.size)
        ]  # fmt: skip
        return tuple(wrap(stack(list(column)), level.id) for column in zip(*per_entry))
    return None


def _make_dual(primal, tangent):
    """``forward_ad.make_dual``, inside ``vmap`` on the tensors behind the batched ones."""
    levels = _state.vmap.levels
    if not levels:
        return forward_ad.make_dual(primal, tangent)
    from .batching.tensor import lift, rewrap

    return rewrap(forward_ad.make_dual(lift(primal, levels), lift(tangent, levels)), levels)


def _unpack_dual(dual) -> tuple:
    """``(primal, tangent)`` of ``dual``; inside ``vmap``, both batched like ``dual``."""
    levels = _state.vmap.levels
    if not levels:
        pair = forward_ad.unpack_dual(dual)
        return pair.primal, pair.tangent
    from .batching.tensor import lift, rewrap

    pair = forward_ad.unpack_dual(lift(dual, levels))
    tangent = None if pair.tangent is None else rewrap(pair.tangent, levels)
    return rewrap(pair.primal, levels), tangent


def _watch(args: tuple, nums: tuple) -> list:
    """``args`` with the differentiated ones (positions ``nums``, each a pytree of tensors) replaced by
    watched copies."""
    args = list(args)
    for n in nums:
        args[n] = tree_map(_watched, args[n])
    return args


def _tensor_leaves(tree, api: str) -> tuple:
    """``(leaves, spec)`` of a function's output ``tree``, refused unless every leaf is a tensor."""
    leaves, spec = tree_flatten(tree)
    if not leaves or leaves == [None]:
        raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output (got output = {leaves})")
    for x in leaves:
        if not isinstance(x, Tensor):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got unsupported type {type(x)}")
    return leaves, spec


def _aux(aux, originals):
    """The ``has_aux`` value (a pytree of tensors) handed back as :func:`_finish` hands back results."""
    for x in tree_leaves(aux):
        if not isinstance(x, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(x)}")
    return _finish(aux, originals)


def _only_tensors(leaves: list, api: str, argname: str) -> None:
    if not leaves:
        raise RuntimeError(f"{api}: Expected {argname} to contain at least one Tensor.")
    for x in leaves:
        if not isinstance(x, Tensor):
            raise RuntimeError(f"{api}: Expected {argname} to only contain Tensors, got {type(x)}")


def _split_aux(out, has_aux: bool, api: str):
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError(f"{api}: output of function f should be a tuple: (output, aux) if has_aux is True")
    return out


def _basis(tensors: list, sizes: list) -> list:
    """The rows of the identity matrix of the tensors' total size, cut into one piece per tensor shaped
    ``(total,) + tensor.shape``: row ``k`` of the pieces together is the ``k``-th standard basis vector."""
    total = sum(sizes)
    identity = eye(total, dtype=tensors[0].dtype, device=tensors[0].device)
    if len(tensors) == 1:
        return [identity.reshape((total,) + tuple(tensors[0].shape))]
    pieces, start = [], 0
    for t, n in zip(tensors, sizes):
        piece = identity[:, start : start + n].reshape((total,) + tuple(t.shape))
        pieces.append(piece if piece.dtype == t.dtype else piece.to(t.dtype))
        start += n
    return pieces


def _jacobian_blocks(rows: list, outputs: list, sizes: list, in_leaves: list) -> list:
    """``jacrev``'s rows (one per input leaf, a row per output value) cut into one block per (output leaf,
    input leaf), each shaped output shape + input shape."""
    blocks, start = [], 0
    for o, n in zip(outputs, sizes):
        shape = tuple(o.shape)
        part = rows if len(outputs) == 1 else [r[start : start + n] for r in rows]
        blocks.append([r.reshape(shape + tuple(x.shape)) for r, x in zip(part, in_leaves)])
        start += n
    return blocks


def _jacobian_tree(blocks: list, out_spec, in_spec, many: bool):
    """``blocks[i][j]`` (output leaf ``i`` by input leaf ``j``) as ``torch.func`` returns a Jacobian: the
    output's tree, each leaf holding the differentiated arguments' tree (a tuple of them when ``many``)."""
    per_output = []
    for row in blocks:
        by_argument = tree_unflatten(row, in_spec)
        per_output.append(by_argument if many else by_argument[0])
    return tree_unflatten(per_output, out_spec)


def _empty(out, x):
    return zeros(tuple(out.shape) + tuple(x.shape), dtype=x.dtype, device=x.device)


# ---------------------------------------------------------------- reverse mode
def grad_and_value(func, argnums=0, has_aux: bool = False):
    """``f -> (x -> (df/dx, f(x)))`` for a scalar-valued ``f`` (``((grad, (value, aux))`` with ``has_aux``).

    Each differentiated argument may be a pytree (nested tuples, lists, dicts) of tensors, as a dict of
    a model's parameters: its gradient is the same tree."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        nums = _argnums_tuple(argnums, len(args))
        originals, args = args, _watch(args, nums)
        with enable_grad(), _transform():
            out, aux = _split_aux(func(*args, **kwargs), has_aux, "grad_and_value(f)(*args)")
            if not isinstance(out, Tensor):
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got {type(out)}")
            if out.dim() != 0:
                raise RuntimeError(
                    "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with "
                    f"{out.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?"
                )
            inputs, spec = tree_flatten(tuple(args[n] for n in nums))
            grads = tree_unflatten(_grads(out, inputs), spec)
        result = _finish(grads if isinstance(argnums, tuple) else grads[0], originals)
        out = _finish(out, originals)
        return (result, (out, _aux(aux, originals))) if has_aux else (result, out)

    return wrapper


def grad(func, argnums=0, has_aux: bool = False):
    """``f -> (x -> df/dx)`` for a scalar-valued ``f`` (``(grad, aux)`` with ``has_aux``); pytree arguments
    as :func:`grad_and_value`."""
    both = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        g, value = both(*args, **kwargs)
        return (g, value[1]) if has_aux else g

    return wrapper


def vjp(func, *primals, has_aux: bool = False):
    """``(f(*primals), vjp_fn)``: ``vjp_fn(cotangents)`` is ``cotangentsᵀ J`` for each primal (a tuple).

    Primals and outputs may be pytrees of tensors; ``cotangents`` has the outputs' tree, and each
    primal's result has that primal's tree."""
    api = "vjp(f, *primals)"
    flat, in_spec = tree_flatten(primals)
    inputs = [_watched(p) for p in flat]
    with enable_grad(), _transform():
        out, aux = _split_aux(func(*tree_unflatten(inputs, in_spec)), has_aux, api)
    outputs, out_spec = _tensor_leaves(out, api)

    def vjp_fn(cotangents):
        flat, spec = tree_flatten(cotangents)
        if spec != out_spec:
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure of outputs to the "
                f"function. cotangents: {treespec_pprint(spec)}, primal output: {treespec_pprint(out_spec)}"
            )
        grads = _grads(outputs, inputs, flat, retain_graph=True)
        return _finish(tree_unflatten(grads, in_spec), (primals, cotangents))

    value = _finish(out, primals)
    return (value, vjp_fn, _aux(aux, primals)) if has_aux else (value, vjp_fn)


def jacrev(func, argnums=0, *, has_aux: bool = False, chunk_size=None):
    """``f -> (x -> ∂f/∂x)`` by reverse mode: the vector-Jacobian products of every basis vector of the
    output, all at once as one ``vmap`` over the rows of an identity matrix (``chunk_size`` rows at a
    time). Outside other transforms, with every rule of ``f``'s graph declared ``batches_gradients``, ``f``
    runs once and the rows go back through its graph together, as ``torch.func.jacrev`` does; otherwise
    ``f`` runs under the ``vmap`` on its inputs lifted over the rows (a ``vmap`` of ``vjp``). Pytree
    arguments and outputs give a Jacobian per (output leaf, input leaf), nested as ``torch.func.jacrev``
    nests them."""

    @functools.wraps(func)
    def wrapper(*args):
        nums = _argnums_tuple(argnums, len(args))
        watched = _watch(args, nums)
        with enable_grad(), _transform():
            out, aux = _split_aux(func(*watched), has_aux, "vjp(f, *primals)")
        outputs, out_spec = _tensor_leaves(out, "vjp(f, *primals)")
        inputs = tuple(args[n] for n in nums)
        in_leaves, in_spec = tree_flatten(inputs)
        sizes = [o.numel() for o in outputs]
        if sum(sizes) == 0:
            blocks = [[_empty(o, x) for x in in_leaves] for o in outputs]
        elif not _state.vmap.levels and _rules_batch(outputs):
            # the function ran once above, as torch.func.jacrev runs it: its graph pulls back every basis
            # vector at once (each rule once, on the batch of them)
            watched_leaves = tree_leaves([watched[n] for n in nums])

            def pull(*cotangents):
                return list(_grads(outputs, watched_leaves, cotangents, retain_graph=True))

            with _transform():
                rows = vmap(pull, chunk_size=chunk_size)(*_basis(outputs, sizes))
            blocks = _jacobian_blocks(rows, outputs, sizes, in_leaves)
        else:
            partial = _of_differentiated(func, args, nums, drop_aux=has_aux)

            def row(*cotangents):
                from .batching.levels import replicated

                with replicated():  # the function sees the same inputs in every entry
                    pull = vjp(partial, *inputs)[1]
                return tree_leaves(pull(tree_unflatten(cotangents, out_spec)))

            with _transform():
                rows = vmap(row, chunk_size=chunk_size)(*_basis(outputs, sizes))
            blocks = _jacobian_blocks(rows, outputs, sizes, in_leaves)
        result = _finish(_jacobian_tree(blocks, out_spec, in_spec, isinstance(argnums, tuple)), args)
        return (result, _aux(aux, args)) if has_aux else result

    return wrapper


# ---------------------------------------------------------------- forward mode
_JVP = "jvp(f, primals, tangents)"


def jvp(func, primals, tangents, *, has_aux: bool = False):
    """``(f(*primals), J tangents)`` by forward mode (the ops' forward-mode rules), in a dual level inside
    the active ones: a ``jvp`` of a ``jvp`` is a second directional derivative. ``primals`` is a tuple of
    pytrees of tensors and ``tangents`` the same tree; the outputs may be a pytree."""
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals).")
    flat_primals, primals_spec = tree_flatten(primals)
    flat_tangents, tangents_spec = tree_flatten(tangents)
    if primals_spec != tangents_spec:
        raise RuntimeError(
            f"{_JVP}: Expected primals and tangents to have the same python structure. For example, if primals is "
            f"a tuple of 3 tensors, tangents also must be. Got primals with structure {primals_spec} and tangents "
            f"with structure {tangents_spec}"
        )
    _only_tensors(flat_primals, _JVP, "primals")
    _only_tensors(flat_tangents, _JVP, "tangents")
    with forward_ad._nested_level(), _running():
        duals = [_make_dual(p, t) for p, t in zip(flat_primals, flat_tangents)]
        out, aux = _split_aux(func(*tree_unflatten(duals, primals_spec)), has_aux, _JVP)
        outputs, out_spec = _tensor_leaves(out, _JVP)
        pairs = [_unpack_dual(o) for o in outputs]
        values = [primal for primal, _ in pairs]
        jvps = [tangent if tangent is not None else primal.detach() * 0 for primal, tangent in pairs]
    originals = (primals, tangents)
    values = _finish(tree_unflatten(values, out_spec), originals)
    jvps = _finish(tree_unflatten(jvps, out_spec), originals)
    return (values, jvps, _aux(aux, originals)) if has_aux else (values, jvps)


def jacfwd(func, argnums=0, has_aux: bool = False, *, randomness: str = "error"):
    """``f -> (x -> ∂f/∂x)`` by forward mode: the Jacobian-vector products of every basis vector of the
    inputs, all at once as one ``vmap`` of ``jvp`` over the rows of an identity matrix. Pytrees as
    :func:`jacrev`."""

    @functools.wraps(func)
    def wrapper(*args):
        nums = _argnums_tuple(argnums, len(args))
        inputs = tuple(args[n] for n in nums)
        in_leaves, in_spec = tree_flatten(inputs)
        for x in in_leaves:
            _require_tensor(x)
        sizes = [x.numel() for x in in_leaves]
        partial = _of_differentiated(func, args, nums)

        if sum(sizes) == 0:
            out, aux = _split_aux(func(*args), has_aux, _JVP)
            outputs, out_spec = _tensor_leaves(out, _JVP)
            blocks = [[_empty(o, x) for x in in_leaves] for o in outputs]
        else:

            def push(*tangents):
                return jvp(partial, inputs, tree_unflatten(tangents, in_spec), has_aux=has_aux)

            result = vmap(push, randomness=randomness)(*_basis(in_leaves, sizes))
            columns, out_spec = tree_flatten(result[1])
            aux = tree_map(_first_entry, result[2]) if has_aux else None
            blocks = []
            for column in columns:
                out_shape, row, start = tuple(column.shape[1:]), [], 0
                for x, n in zip(in_leaves, sizes):
                    part = column[start : start + n].movedim(0, -1) if out_shape else column[start : start + n]
                    row.append(part.reshape(out_shape + tuple(x.shape)))
                    start += n
                blocks.append(row)
        result = _jacobian_tree(blocks, out_spec, in_spec, isinstance(argnums, tuple))
        return (result, aux) if has_aux else result

    return wrapper


def _first_entry(value):
    return value[0] if isinstance(value, Tensor) else value


def hessian(func, argnums=0):
    """``f -> (x -> ∂²f/∂x²)`` as ``jacfwd(jacrev(f))`` (forward over reverse)."""
    return jacfwd(jacrev(func, argnums), argnums)


# ---------------------------------------------------------------- vmap
def vmap(func, in_dims=0, out_dims=0, randomness: str = "error", *, chunk_size=None):
    """``f -> (batched inputs -> batched outputs)``: ``f`` applied to every entry along ``in_dims`` at once,
    each op by its batching rule (:mod:`minigrad.batching`); see :func:`minigrad.batching.vmap.vmap`."""
    from .batching.vmap import vmap as batched_map

    return batched_map(func, in_dims, out_dims, randomness, chunk_size=chunk_size)


# autograd.grad(is_grads_batched=True) runs its one pass under this vmap (the engine sits below this layer)
_upcalls.vmap_map = lambda fn, args: vmap(fn)(*args)


# ---------------------------------------------------------------- modules
def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    """Call ``module`` with some of its parameters and buffers replaced by the given tensors (by dotted name)."""
    dicts = parameter_and_buffer_dicts
    if isinstance(dicts, dict):
        replacements = dict(dicts)
    else:
        replacements = {}
        for d in dicts:
            for key in d:
                if key in replacements:
                    raise ValueError(
                        f"{key} appeared in multiple dictionaries; behavior of functional call is ambiguous"
                    )
            replacements.update(d)
    known = dict(module.named_parameters())
    known.update(dict(module.named_buffers()))
    missing = [k for k in known if k not in replacements]
    unexpected = [k for k in replacements if k not in known]
    if strict and (missing or unexpected):
        raise RuntimeError(
            f"Error(s) in reloading state_dict for {type(module).__name__}:\n\t"
            + (f"Unexpected key(s): {', '.join(repr(k) for k in unexpected)}. " if unexpected else "")
            + (f"Missing key(s): {', '.join(repr(k) for k in missing)}." if missing else "")
        )
    if unexpected:
        raise AttributeError(f"{type(module).__name__} has no parameter or buffer {unexpected[0]!r}")
    saved = []
    try:
        for key, value in replacements.items():
            owner, _, leaf = key.rpartition(".")
            sub = module
            for part in owner.split(".") if owner else ():
                sub = sub._modules[part]
            table = sub._parameters if leaf in sub._parameters else sub._buffers
            saved.append((table, leaf, table[leaf]))
            table[leaf] = value
        args = () if args is None else (args if isinstance(args, tuple) else (args,))
        return module(*args, **(kwargs or {}))
    finally:
        for table, leaf, old in reversed(saved):
            table[leaf] = old
