"""Function transforms, as ``torch.func``: ``grad``, ``grad_and_value``, ``vjp``, ``jvp``, ``jacrev``,
``jacfwd``, ``hessian``, ``vmap`` and ``functional_call``.

Each takes a function of tensors and returns a function (or values) that compose:
``hessian(f) == jacfwd(jacrev(f))``, ``grad(grad(f))`` is a second derivative.
Reverse-mode transforms run :func:`minigrad.autograd.grad` with ``create_graph``
(so the results can be differentiated again); forward-mode transforms run the
ops' forward-mode rules in a :mod:`~minigrad.autograd.forward_ad` dual level.

``vmap`` maps a function over a batch dimension by calling it once per entry
and stacking the results (no per-op batching rules yet): the semantics of
``in_dims``/``out_dims`` and nesting are PyTorch's, the speed is a loop's.
"""

from __future__ import annotations

import contextlib
import functools
import threading

from . import autograd
from .autograd import forward_ad
from .autograd.grad_mode import enable_grad
from .tensor import Tensor, _set_tangent, _tangent_of

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
        detached = values.detach()
        tangent = _tangent_of(values)
        if tangent is not None:
            _set_tangent(detached, tangent)
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


def _watched(x):
    """``x`` ready to be differentiated: itself when a graph already tracks it (nested transforms), else a
    detached copy that requires grad."""
    if not isinstance(x, Tensor):
        raise RuntimeError(f"Expected the differentiated argument to be a Tensor, got {type(x).__name__}")
    # _detach keeps a forward-mode tangent: forward over reverse (hessian = jacfwd(jacrev(f)))
    return x if x.requires_grad else _detach(x).requires_grad_()


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
            inputs = [args[n] for n in nums]
            grads = autograd.grad(out, inputs, create_graph=True, allow_unused=True, materialize_grads=True)
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
        grads = autograd.grad(
            outputs, watched, cotangents, retain_graph=True, create_graph=True, allow_unused=True,
            materialize_grads=True,
        )  # fmt: skip
        return _finish(grads, primals + tuple(cotangents))

    return (_finish(out, primals), vjp_fn, aux) if has_aux else (_finish(out, primals), vjp_fn)


def jacrev(func, argnums=0, *, has_aux: bool = False):
    """``f -> (x -> ∂f/∂x)`` by reverse mode: one vector-Jacobian product per output element."""

    @functools.wraps(func)
    def wrapper(*args):
        from .ops.shape import stack

        nums = _argnums_tuple(argnums, len(args))
        originals, args = args, _watch(args, nums)
        with enable_grad(), _transform():
            out, aux = _split_aux(func(*args), has_aux, "jacrev")
        inputs = [args[n] for n in nums]
        flat = out.reshape(-1)
        rows = [
            autograd.grad(flat[i], inputs, retain_graph=True, create_graph=True, allow_unused=True,
                          materialize_grads=True)
            for i in range(flat.numel())
        ]  # fmt: skip
        jacobians = tuple(
            stack([r[j] for r in rows]).reshape(tuple(out.shape) + tuple(x.shape)) if rows else _empty(out, x)
            for j, x in enumerate(inputs)
        )
        result = _finish(jacobians if isinstance(argnums, tuple) else jacobians[0], originals)
        return (result, aux) if has_aux else result

    return wrapper


def _empty(out, x):
    from .creation import zeros

    return zeros(tuple(out.shape) + tuple(x.shape), dtype=x.dtype, device=x.device)


# ---------------------------------------------------------------- forward mode
def jvp(func, primals, tangents, *, has_aux: bool = False):
    """``(f(*primals), J tangents)`` by forward mode (the ops' forward-mode rules)."""
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
    with forward_ad.dual_level():
        duals = [forward_ad.make_dual(p, t) for p, t in zip(primals, tangents)]
        out, aux = _split_aux(func(*duals), has_aux, "jvp")
        outputs = (out,) if isinstance(out, Tensor) else tuple(out)
        pairs = [forward_ad.unpack_dual(o) for o in outputs]
        values = tuple(p.primal for p in pairs)
        jvps = tuple(p.tangent if p.tangent is not None else p.primal.detach() * 0 for p in pairs)
    values, jvps = _finish(values, primals + tangents), _finish(jvps, primals + tangents)
    if isinstance(out, Tensor):
        values, jvps = values[0], jvps[0]
    return (values, jvps, aux) if has_aux else (values, jvps)


def jacfwd(func, argnums=0, has_aux: bool = False):
    """``f -> (x -> ∂f/∂x)`` by forward mode: one Jacobian-vector product per input element."""

    @functools.wraps(func)
    def wrapper(*args):
        from .ops.shape import stack

        nums = _argnums_tuple(argnums, len(args))
        jacobians = []
        aux = None
        for n in nums:
            x = args[n]
            columns = []
            out = None
            for i in range(x.numel()):
                basis = x.detach().reshape(-1) * 0
                basis.data[i] = 1
                tangents = tuple(basis.reshape(tuple(x.shape)) if k == n else a.detach() * 0
                                 for k, a in enumerate(args))  # fmt: skip
                result = jvp(func, tuple(args), tangents, has_aux=has_aux)
                out, column = result[0], result[1]
                aux = result[2] if has_aux else None
                columns.append(column.reshape(-1))
            if columns:
                jac = stack(columns, dim=1).reshape(tuple(out.shape) + tuple(x.shape))
            else:
                jac = _empty(func(*args)[0] if has_aux else func(*args), x)
            jacobians.append(jac)
        result = tuple(jacobians) if isinstance(argnums, tuple) else jacobians[0]
        return (result, aux) if has_aux else result

    return wrapper


def hessian(func, argnums=0):
    """``f -> (x -> ∂²f/∂x²)`` as ``jacfwd(jacrev(f))`` (forward over reverse)."""
    return jacfwd(jacrev(func, argnums), argnums)


# ---------------------------------------------------------------- vmap
def _flat_in_dims(in_dims, args) -> list:
    if isinstance(in_dims, (int, type(None))):
        return [in_dims] * len(args)
    if not isinstance(in_dims, (tuple, list)) or len(in_dims) != len(args):
        raise ValueError(
            f"vmap(f, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the structure of `inputs`. "
            f"in_dims has structure {type(in_dims).__name__} but inputs has {len(args)} positional arguments."
        )
    return list(in_dims)


def vmap(func, in_dims=0, out_dims=0, randomness: str = "error", *, chunk_size=None):
    """``f -> (batched inputs -> batched outputs)``: ``f`` applied to each entry along ``in_dims``."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")
    name = getattr(func, "__name__", repr(func))

    @functools.wraps(func)
    def wrapper(*args):
        from .ops.shape import stack

        dims = _flat_in_dims(in_dims, args)
        sizes = []
        for x, d in zip(args, dims):
            if d is None:
                continue
            if not isinstance(x, Tensor):
                raise ValueError(
                    f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input but the input is "
                    f"of type {type(x)}. We cannot vmap over non-Tensor arguments, please use None as the "
                    "respective in_dim"
                )
            if not -x.dim() <= d < max(x.dim(), 1) or x.dim() == 0:
                raise ValueError(
                    f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for some input, but that input "
                    f"is a Tensor of dimensionality {x.dim()} so expected in_dim to satisfy "
                    f"-{x.dim()} <= in_dim < {x.dim()}."
                )
            sizes.append(x.shape[d])
        if not sizes:
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): at least one input must be batched "
                "(an in_dim that is not None for a Tensor)"
            )
        if len(set(sizes)) != 1:
            raise ValueError(
                "vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                f"{sizes} for the mapped dimension"
            )
        results = []
        for b in range(sizes[0]):
            entry = [x if d is None else x.select(d, b) for x, d in zip(args, dims)]
            results.append(func(*entry))
        first = results[0]
        if isinstance(first, Tensor):
            return stack(results, dim=out_dims)
        outs = out_dims if isinstance(out_dims, (tuple, list)) else [out_dims] * len(first)
        return tuple(stack([r[k] for r in results], dim=outs[k]) for k in range(len(first)))

    return wrapper


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
