"""gradcheck and gradgradcheck: analytical gradients against central finite differences."""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor, make_leaf
from .engine import grad

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """Raised by gradcheck when analytical and numerical gradients disagree."""


def _as_tuple(x) -> tuple:
    return x if isinstance(x, tuple) else tuple(x) if isinstance(x, list) else (x,)


def _outputs(fn, inputs) -> tuple:
    return tuple(o for o in _as_tuple(fn(*inputs)) if isinstance(o, Tensor))


def _numerical_jacobians(fn, inputs, eps) -> list:
    """For each differentiable input, the (input numel, output numel) Jacobian by central differences."""
    outs = _outputs(fn, inputs)
    total_out = sum(o.numel() for o in outs)
    jacobians = []
    for inp in inputs:
        if not (isinstance(inp, Tensor) and inp.requires_grad):
            jacobians.append(None)
            continue
        flat = inp.data.reshape(-1)  # a view: perturbing it perturbs the input in place
        jac = np.zeros((flat.size, total_out))
        for k in range(flat.size):
            orig = flat[k].item()
            flat[k] = orig + eps
            plus = _flat_outputs(fn, inputs)
            flat[k] = orig - eps
            minus = _flat_outputs(fn, inputs)
            flat[k] = orig
            jac[k] = (plus - minus) / (2 * eps)
        jacobians.append(jac)
    return jacobians


def _flat_outputs(fn, inputs) -> np.ndarray:
    from ..backend import to_host

    outs = _outputs(fn, inputs)
    if not outs:
        return np.zeros(0)
    return np.concatenate([to_host(o.data).astype(np.float64).reshape(-1) for o in outs])


def _analytical_jacobians(fn, inputs) -> list:
    outs = _outputs(fn, inputs)
    diff_inputs = [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]
    total_out = sum(o.numel() for o in outs)
    jacs = [np.zeros((t.numel(), total_out)) for t in diff_inputs]
    col = 0
    for o in outs:
        for j in range(o.numel()):
            if not o.requires_grad:
                col += 1
                continue
            seed = np.zeros(o.numel(), dtype=o.dtype)
            seed[j] = 1
            seed_t = make_leaf(o.device.xp.asarray(seed.reshape(o.shape)), o.device)
            grads = grad(o, diff_inputs, seed_t, retain_graph=True, allow_unused=True)
            for jac, g in zip(jacs, grads):
                if g is not None:
                    from ..backend import to_host

                    jac[:, col] = to_host(g.data).reshape(-1)
            col += 1
    it = iter(jacs)
    return [next(it) if isinstance(t, Tensor) and t.requires_grad else None for t in inputs]


def gradcheck(
    fn, inputs, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3, raise_exception: bool = True
) -> bool:
    """Check ``fn``'s gradients w.r.t. the inputs that require grad against finite differences.

    Use float64 inputs. On a mismatch, raise GradcheckError (or return False when
    ``raise_exception=False``) naming the input, the element, and both values.
    """
    inputs = _as_tuple(inputs)
    for i, t in enumerate(inputs):
        if isinstance(t, Tensor) and t.requires_grad and t.dtype != np.float64:
            import warnings

            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point. "
                "gradcheck is only reliable in float64.",
                stacklevel=2,
            )
    numerical = _numerical_jacobians(fn, inputs, eps)
    analytical = _analytical_jacobians(fn, inputs)
    for i, (num, ana) in enumerate(zip(numerical, analytical)):
        if num is None:
            continue
        bad = ~np.isclose(ana, num, rtol=rtol, atol=atol)
        if bad.any():
            k, j = np.argwhere(bad)[0]
            msg = (
                f"Jacobian mismatch for output {j} with respect to input {i} "
                f"(input element {np.unravel_index(k, inputs[i].shape) if inputs[i].ndim else ()}),\n"
                f"numerical:{num[k, j]!r}\nanalytical:{ana[k, j]!r}\n\n"
                f"Numerical Jacobian of input {i}:\n{num}\nAnalytical Jacobian of input {i}:\n{ana}"
            )
            if raise_exception:
                raise GradcheckError(msg)
            return False
    return True


def gradgradcheck(
    fn,
    inputs,
    grad_outputs=None,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
) -> bool:
    """Check second derivatives: gradcheck of the vector-Jacobian product of ``fn``.

    ``grad_outputs`` (random when None) is held fixed, so the checked function is
    ``inputs -> grad(fn(inputs), inputs, grad_outputs, create_graph=True)``.
    """
    inputs = _as_tuple(inputs)
    outs = _outputs(fn, inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            make_leaf(o.device.xp.asarray(rng.standard_normal(o.shape).astype(o.dtype)), o.device) for o in outs
        )
    grad_outputs = _as_tuple(grad_outputs)
    diff_idx = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]

    def vjp(*args):
        outs = _outputs(fn, args)
        diff = [args[i] for i in diff_idx]
        gs = grad(outs, diff, grad_outputs, create_graph=True, allow_unused=True)
        return tuple(g for g in gs if g is not None)

    return gradcheck(vjp, inputs, eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception)
