"""Function transforms, as ``torch.func``: ``grad``, ``grad_and_value``, ``vjp``, ``jvp``, ``jacrev``,
``jacfwd``, ``hessian``, ``vmap`` and ``functional_call``.

Each takes a function of tensors and returns a function (or values) that compose:
``hessian(f) == jacfwd(jacrev(f))``, ``grad(grad(f))`` is a second derivative.
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

from . import _state, autograd
from .autograd import forward_ad
from .autograd.grad_mode import enable_grad
from .tensor import Tensor, _set_tangent, _tangents_of

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap", "functional_call"]


# ---------------------------------------------------------------- helpers
class _Nesting(threading.local):
    depth = 0


_nesting = _Nesting()


@contextlib.contextmanager
def _transform():
    """Inside a transform: results keep their graph only while an enclosing transform may differentiate them."""
    _nesting.depth += 1
    try:
        yield
    finally:
        _nesting.depth -= 1


def _finish(values, originals):
    """Top-level results are plain values (detached), unless the caller's own tensors require grad."""
    if _nesting.depth or any(isinstance(x, Tensor) and x.requires_grad for x in originals):
        return values
    return _detach(values)


def _detach(values):
    """``values`` cut from the reverse-mode graph; a forward-mode tangent stays (jvp of a transform)."""
    if isinstance(values, Tensor):
        if type(values) is not Tensor:  # batched inside vmap: detach the tensor it holds
            from .batching.tensor import wrap

            return wrap(_detach(values._value), values._level)
        detached = values.detach()
        for depth, tangent in _tangents_of(values).items():
            _set_tangent(detached, tangent, depth)
        return detached
    if isinstance(values, tuple):
        return tuple(_detach(v) for v in values)
    return values


def _argnums_tuple(argnums, nargs: int) -> tuple:
    many = isinstance(argnums, tuple)
    nums = argnums if many else (argnums,)
    if not nums:
        raise RuntimeError("argnums must be non-empty")
    out = []
    for n in nums:
        if not isinstance(n, int) or isinstance(n, bool):
            raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(n).__name__}")
        if not -nargs <= n < nargs:
            raise RuntimeError(f"Got argnum={n}, but only {nargs} positional inputs")
        out.append(n % nargs)
    return tuple(out)


def _require_tensor(x) -> None:
    if not isinstance(x, Tensor):
        raise RuntimeError(f"Expected the differentiated argument to be a Tensor, got {type(x).__name__}")


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
    """``x`` ready to be differentiated: itself when a graph already tracks it (nested transforms), else a
    detached copy that requires grad. Inside ``vmap``, the copy is batched at every running level (an
    unbatched ``x`` expanded over the batch), so each entry gets its own gradient."""
    _require_tensor(x)
    levels = _state.vmap.levels
    if levels:
        from .batching.tensor import lift, rewrap

        value = lift(x, levels)
        return rewrap(value if value.requires_grad else _detach(value).requires_grad_(), levels)
    # _detach keeps a forward-mode tangent: forward over reverse (hessian = jacfwd(jacrev(f)))
    return x if x.requires_grad else _detach(x).requires_grad_()


def _grads(outputs, inputs, cotangents=None, retain_graph=None) -> tuple:
    """``autograd.grad`` for the transforms (a graph kept for higher orders, zeros for unused inputs).

    Inside ``vmap`` it runs on the tensors behind the batched ones, every running level's batch dim
    in front, each entry's output seeded with its own cotangent (ones for a scalar output)."""
    outputs = (outputs,) if isinstance(outputs, Tensor) else tuple(outputs)
    options = dict(retain_graph=retain_graph, create_graph=True, allow_unused=True, materialize_grads=True)
    levels = _state.vmap.levels
    if not levels:
        return autograd.grad(outputs, inputs, cotangents, **options)
    from .batching.tensor import lift, rewrap
    from .creation import ones_like

    outs = [lift(o, levels) for o in outputs]
    if cotangents is None:
        cotangents = [ones_like(o) for o in outs]
    else:
        cotangents = [lift(c, levels) for c in cotangents]
    grads = autograd.grad(outs, [lift(x, levels) for x in inputs], cotangents, **options)
    return tuple(rewrap(g, levels) for g in grads)


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
    """``args`` with the differentiated ones (positions ``nums``) replaced by watched copies."""
    args = list(args)
    for n in nums:
        args[n] = _watched(args[n])
    return args


def _split_aux(out, has_aux: bool, name: str):
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError(
            f"{name}(f)(*args): output of function f should be a tuple: (output, aux) if has_aux is True"
        )
    return out


# ---------------------------------------------------------------- reverse mode
def grad_and_value(func, argnums=0, has_aux: bool = False):
    """``f -> (x -> (df/dx, f(x)))`` for a scalar-valued ``f`` (``((grad, (value, aux))`` with ``has_aux``)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        nums = _argnums_tuple(argnums, len(args))
        originals, args = args, _watch(args, nums)
        with enable_grad(), _transform():
            out, aux = _split_aux(func(*args, **kwargs), has_aux, "grad_and_value")
            if not isinstance(out, Tensor):
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got {type(out)}")
            if out.dim() != 0:
                raise RuntimeError(
                    "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with "
                    f"{out.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?"
                )
            grads = _grads(out, [args[n] for n in nums])
        result = _finish(grads if isinstance(argnums, tuple) else grads[0], originals)
        out = _finish(out, originals)
        return (result, (out, aux)) if has_aux else (result, out)

    return wrapper


def grad(func, argnums=0, has_aux: bool = False):
    """``f -> (x -> df/dx)`` for a scalar-valued ``f`` (``(grad, aux)`` with ``has_aux``)."""
    both = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        g, value = both(*args, **kwargs)
        return (g, value[1]) if has_aux else g

    return wrapper


def vjp(func, *primals, has_aux: bool = False):
    """``(f(*primals), vjp_fn)``: ``vjp_fn(cotangent)`` is ``cotangentᵀ J`` for each primal (a tuple)."""
    watched = [_watched(p) for p in primals]
    with enable_grad(), _transform():
        out, aux = _split_aux(func(*watched), has_aux, "vjp")
    outputs = (out,) if isinstance(out, Tensor) else tuple(out)

    def vjp_fn(*cotangents):
        if len(cotangents) == 1 and not isinstance(out, Tensor) and isinstance(cotangents[0], (tuple, list)):
            cotangents = tuple(cotangents[0])
        grads = _grads(outputs, watched, cotangents, retain_graph=True)
        return _finish(grads, primals + tuple(cotangents))

    return (_finish(out, primals), vjp_fn, aux) if has_aux else (_finish(out, primals), vjp_fn)


def jacrev(func, argnums=0, *, has_aux: bool = False, chunk_size=None):
    """``f -> (x -> ∂f/∂x)`` by reverse mode: the vector-Jacobian products of every basis vector of the
    output, all at once as one ``vmap`` of ``vjp`` over the rows of an identity matrix (``chunk_size``
    rows at a time)."""

    @functools.wraps(func)
    def wrapper(*args):
        from .creation import eye

        nums = _argnums_tuple(argnums, len(args))
        with enable_grad(), _transform():
            out, aux = _split_aux(func(*_watch(args, nums)), has_aux, "jacrev")
        inputs = [args[n] for n in nums]
        if out.numel() == 0:
            jacobians = tuple(_empty(out, x) for x in inputs)
        else:
            partial = _of_differentiated(func, args, nums, drop_aux=has_aux)

            def row(cotangent):
                return vjp(partial, *inputs)[1](cotangent)

            n = out.numel()
            basis = eye(n, dtype=out.dtype, device=out.device).reshape((n,) + tuple(out.shape))
            with _transform():
                rows = vmap(row, chunk_size=chunk_size)(basis)
            jacobians = tuple(r.reshape(tuple(out.shape) + tuple(x.shape)) for r, x in zip(rows, inputs))
        result = _finish(jacobians if isinstance(argnums, tuple) else jacobians[0], args)
        return (result, aux) if has_aux else result

    return wrapper


def _empty(out, x):
    from .creation import zeros

    return zeros(tuple(out.shape) + tuple(x.shape), dtype=x.dtype, device=x.device)


# ---------------------------------------------------------------- forward mode
def jvp(func, primals, tangents, *, has_aux: bool = False):
    """``(f(*primals), J tangents)`` by forward mode (the ops' forward-mode rules), in a dual level inside
    the active ones: a ``jvp`` of a ``jvp`` is a second directional derivative."""
    if not isinstance(primals, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it should be valid to "
                           "call f(*primals).")  # fmt: skip
    if not isinstance(tangents, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected tangents to be a tuple.")
    if len(primals) != len(tangents):
        raise RuntimeError(
            "jvp(f, primals, tangents): Expected primals and tangents to have the same python structure. "
            f"For example, if primals is a tuple of 3 tensors, tangents also must be. Got primals with "
            f"{len(primals)} tensors and tangents with {len(tangents)} tensors"
        )
    with forward_ad._nested_level():
        duals = [_make_dual(p, t) for p, t in zip(primals, tangents)]
        out, aux = _split_aux(func(*duals), has_aux, "jvp")
        outputs = (out,) if isinstance(out, Tensor) else tuple(out)
        pairs = [_unpack_dual(o) for o in outputs]
        values = tuple(primal for primal, _ in pairs)
        jvps = tuple(tangent if tangent is not None else primal.detach() * 0 for primal, tangent in pairs)
    values, jvps = _finish(values, primals + tangents), _finish(jvps, primals + tangents)
    if isinstance(out, Tensor):
        values, jvps = values[0], jvps[0]
    return (values, jvps, aux) if has_aux else (values, jvps)


def jacfwd(func, argnums=0, has_aux: bool = False, *, randomness: str = "error"):
    """``f -> (x -> ∂f/∂x)`` by forward mode: the Jacobian-vector products of every basis vector of the
    inputs, all at once as one ``vmap`` of ``jvp`` over the rows of an identity matrix."""

    @functools.wraps(func)
    def wrapper(*args):
        from .creation import eye

        nums = _argnums_tuple(argnums, len(args))
        inputs = [args[n] for n in nums]
        for x in inputs:
            _require_tensor(x)
        sizes = [x.numel() for x in inputs]
        total = sum(sizes)
        partial = _of_differentiated(func, args, nums)

        if total == 0:
            out, aux = _split_aux(func(*args), has_aux, "jacfwd")
            jacobians = tuple(_empty(out, x) for x in inputs)
        else:
            identity = eye(total, dtype=inputs[0].dtype, device=inputs[0].device)
            basis, start = [], 0
            for x, n in zip(inputs, sizes):
                basis.append(identity[:, start : start + n].reshape((total,) + tuple(x.shape)))
                start += n

            def push(*tangents):
                return jvp(partial, tuple(inputs), tangents, has_aux=has_aux)

            result = vmap(push, randomness=randomness)(*basis)
            columns = result[1]
            aux = _first_entry(result[2]) if has_aux else None
            out_shape = tuple(columns.shape[1:])
            jacobians, start = [], 0
            for x, n in zip(inputs, sizes):
                part = columns[start : start + n].movedim(0, -1) if out_shape else columns[start : start + n]
                jacobians.append(part.reshape(out_shape + tuple(x.shape)))
                start += n
            jacobians = tuple(jacobians)
        result = jacobians if isinstance(argnums, tuple) else jacobians[0]
        return (result, aux) if has_aux else result

    return wrapper


def _first_entry(values):
    if isinstance(values, Tensor):
        return values[0]
    if isinstance(values, (tuple, list)):
        return type(values)(_first_entry(v) for v in values)
    return values


def hessian(func, argnums=0):
    """``f -> (x -> ∂²f/∂x²)`` as ``jacfwd(jacrev(f))`` (forward over reverse)."""
    return jacfwd(jacrev(func, argnums), argnums)


# ---------------------------------------------------------------- vmap
def vmap(func, in_dims=0, out_dims=0, randomness: str = "error", *, chunk_size=None):
    """``f -> (batched inputs -> batched outputs)``: ``f`` applied to every entry along ``in_dims`` at once,
    each op by its batching rule (:mod:`minigrad.batching`); see :func:`minigrad.batching.vmap.vmap`."""
    from .batching.vmap import vmap as batched_map

    return batched_map(func, in_dims, out_dims, randomness, chunk_size=chunk_size)


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
