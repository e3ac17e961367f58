"""gradcheck and gradgradcheck: analytical gradients against central finite differences."""

from __future__ import annotations

import warnings

import numpy as np

from ..backend import to_host
from ..tensor import Tensor, make_leaf
from .engine import grad

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """Raised by gradcheck when analytical and numerical gradients disagree."""


def _as_tuple(x) -> tuple:
    return x if isinstance(x, tuple) else tuple(x) if isinstance(x, list) else (x,)


def _differentiable(t) -> bool:
    return isinstance(t, Tensor) and t.requires_grad


def _outputs(fn, inputs) -> tuple:
    """The floating-point tensor outputs of ``fn`` (integer or bool outputs have no gradient). An output that is
    not a tensor (None, a string, a number) is refused in the words of ``torch.autograd.functional``: it was
    skipped, and a function returning only such values passed."""
    returned = fn(*inputs)
    outs = _as_tuple(returned)
    for i, o in enumerate(outs):
        if not isinstance(o, Tensor):
            where = f"the value at index {i} has" if isinstance(returned, (tuple, list)) else "the given outputs have"
            raise TypeError(
                "The outputs of the user-provided function given to gradcheck must be either a Tensor or a tuple of "
                f"Tensors but {where} type {type(o)}."
            )
    return tuple(o for o in outs if o.array.dtype.kind == "f")


def _flat_outputs(fn, inputs) -> np.ndarray:
    outs = _outputs(fn, inputs)
    if not outs:
        return np.zeros(0)
    return np.concatenate([to_host(o.array).astype(np.float64).reshape(-1) for o in outs])


def _numerical_jacobian(fn, inputs, inp: Tensor, eps: float) -> np.ndarray:
    """d(all outputs)/d(inp) by central differences: shape (inp numel, total output numel).

    Each element is perturbed in place through its multi-index, so inputs that
    are views, non-contiguous or on a GPU work too; the value is always restored.
    """
    columns = []
    for k in range(inp.array.size):
        idx = np.unravel_index(k, inp.array.shape)
        orig = inp.array[idx].item()
        try:
            inp.array[idx] = orig + eps
            plus = _flat_outputs(fn, inputs)
            inp.array[idx] = orig - eps
            minus = _flat_outputs(fn, inputs)
        finally:
            inp.array[idx] = orig
        columns.append((plus - minus) / (2 * eps))
    return np.stack(columns) if columns else np.zeros((0, _flat_outputs(fn, inputs).size))


def _analytical_jacobians(fn, inputs) -> list:
    """One (inp numel, total output numel) matrix per differentiable input, one vjp per output element."""
    outs = _outputs(fn, inputs)
    diff_inputs = [t for t in inputs if _differentiable(t)]
    total_out = sum(o.numel() for o in outs)
    jacs = [np.zeros((t.numel(), total_out)) for t in diff_inputs]
    col = 0
    for o in outs:
        if not o.requires_grad:
            col += o.numel()
            continue
        for j in range(o.numel()):
            seed = o.device.xp.zeros(o.array.size, dtype=o.array.dtype)
            seed[j] = 1
            seed_t = make_leaf(seed.reshape(o.array.shape), o.device)
            grads = grad(o, diff_inputs, seed_t, retain_graph=True, allow_unused=True)
            for jac, g in zip(jacs, grads):
                if g is None:
                    continue
                jac[:, col] = to_host(g.array).astype(np.float64).reshape(-1)
            col += 1
    return jacs


def _locate(column: int, outs: tuple) -> tuple[int, tuple]:
    """Map a column of the stacked Jacobian to (output index, element index in that output)."""
    for i, o in enumerate(outs):
        if column < o.numel():
            return i, tuple(int(v) for v in np.unravel_index(column, o.shape))
        column -= o.numel()
    raise IndexError(column)


def _fail(msg: str, raise_exception: bool) -> bool:
    if raise_exception:
        raise GradcheckError(msg)
    return False


def gradcheck(
    fn,
    inputs,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
) -> bool:
    """Check ``fn``'s gradients w.r.t. the inputs that require grad against finite differences.

    Use float64 inputs. Every element of every differentiable input is moved by
    ``±eps``; the central difference must match the backward pass within
    ``atol + rtol * |numerical|``. On a mismatch, raise GradcheckError (or
    return False with ``raise_exception=False``) naming the input, the output,
    the element of each, and both values, followed by the two Jacobians.

    The backward pass is run twice and the two results may differ by at most
    ``nondet_tol`` (0: backward must be deterministic).
    """
    inputs = _as_tuple(inputs)
    if not any(_differentiable(t) for t in inputs):
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of them have requires_grad=True."
        )
    for i, t in enumerate(inputs):
        if _differentiable(t) and t.dtype != np.float64:
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point. "
                "This check will likely fail if all the inputs are not of double precision floating point.",
                stacklevel=2,
            )
    outs = _outputs(fn, inputs)
    analytical = _analytical_jacobians(fn, inputs)
    repeated = _analytical_jacobians(fn, inputs)
    diff_positions = [i for i, t in enumerate(inputs) if _differentiable(t)]
    for i, ana, again in zip(diff_positions, analytical, repeated):
        inp = inputs[i]
        num = _numerical_jacobian(fn, inputs, inp, eps)
        bad = ~np.isclose(ana, num, rtol=rtol, atol=atol)
        if bad.any():
            k, column = (int(v) for v in np.argwhere(bad)[0])
            o, out_elem = _locate(column, outs)
            in_elem = tuple(int(v) for v in np.unravel_index(k, inp.shape))
            msg = (
                f"Jacobian mismatch for output {o} with respect to input {i},\n"
                f"at input element {in_elem} and output element {out_elem}:\n"
                f"numerical:{float(num[k, column])!r}\nanalytical:{float(ana[k, column])!r}\n\n"
                f"Numerical Jacobian (rows: elements of input {i}; columns: elements of all outputs):\n{num}\n"
                f"Analytical Jacobian:\n{ana}"
            )
            return _fail(msg, raise_exception)
        diff = np.abs(ana - again)
        if diff.size and diff.max() > nondet_tol:
            return _fail(
                "Backward is not reentrant, i.e., running backward with same input and grad_output multiple "
                "times gives different values, although analytical gradient matches numerical gradient. "
                f"The tolerance for nondeterminism was {nondet_tol} (largest difference {diff.max()!r}, "
                f"input {i}).",
                raise_exception,
            )
    return True


def gradgradcheck(
    fn,
    inputs,
    grad_outputs=None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
) -> bool:
    """Check second derivatives: gradcheck of the vector-Jacobian product of ``fn``.

    The checked function is ``(inputs, v) -> grad(fn(inputs), inputs, v,
    create_graph=True)``, differentiated w.r.t. both the inputs and the vectors
    ``v`` (``grad_outputs``; random float64 when None), as PyTorch does: a
    backward closure that is not itself differentiable fails here.
    """
    inputs = _as_tuple(inputs)
    outs = _outputs(fn, inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            make_leaf(o.device.xp.asarray(rng.standard_normal(o.shape).astype(o.dtype)), o.device, True) for o in outs
        )
    grad_outputs = _as_tuple(grad_outputs)
    n_inputs = len(inputs)
    diff_idx = [i for i, t in enumerate(inputs) if _differentiable(t)]

    def vjp(*args):
        diff = [args[i] for i in diff_idx]
        outputs = _outputs(fn, args[:n_inputs])
        gs = grad(outputs, diff, args[n_inputs:], create_graph=True, allow_unused=True)
        return tuple(g for g in gs if g is not None)

    return gradcheck(
        vjp,
        inputs + grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        nondet_tol=nondet_tol,
    )
