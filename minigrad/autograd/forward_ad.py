"""Forward-mode automatic differentiation, with PyTorch's API (``torch.autograd.forward_ad``).

In forward mode a *tangent* travels with each value: make an input "dual" with
:func:`make_dual`, run ordinary code, and every op computes its output's tangent
from its inputs' tangents with its forward-mode rule (the Jacobian-vector product,
written beside the op's backward rule). :func:`unpack_dual` reads the result::

    with forward_ad.dual_level():
        x = forward_ad.make_dual(primal, tangent)
        y = f(x)
        value, jvp = forward_ad.unpack_dual(y)     # jvp = J_f(primal) @ tangent

One level at a time, as in PyTorch; tangents are forgotten when their level exits. The function
transforms of ``minigrad.func`` nest levels, as ``torch.func`` does (``jvp`` of ``jvp``, ``jacfwd`` of
``jacfwd``): a tensor then carries one tangent per level.
"""

from __future__ import annotations

import contextlib
from collections import namedtuple

from .. import _state
from ..tensor import Tensor, _drop_tangent, _set_tangent, _tangent_of, make, shape_str

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual"]

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__doc__ = "What :func:`unpack_dual` returns: the primal value and its tangent (or None)."

_forward = _state.forward


def enter_dual_level() -> int:
    """Enter a forward-AD level (only one at a time, as in PyTorch: ``func.jvp`` nests) and return it."""
    if _forward.level >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    return _enter()


def _enter() -> int:
    """Open a level inside the active ones, under a fresh key; return its depth."""
    depth = _forward.level + 1
    _forward.keys = _forward.keys[:depth] + (next(_forward.new_keys),)
    _forward.level = depth
    return depth


@contextlib.contextmanager
def _nested_level():
    """A dual level inside the active ones, for the transforms (``func.jvp``); yields its depth.

    On exit every level is as it was, also when entered while a rule or a Function's ``forward`` had
    lowered the active depth."""
    keys, level = _forward.keys, _forward.level
    try:
        yield _enter()
    finally:
        _forward.keys, _forward.level = keys, level


def exit_dual_level(*, level: int | None = None) -> None:
    """Exit the current level; every tangent made in it is forgotten."""
    if level is None:
        level = _forward.level
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    if level != _forward.level:
        raise RuntimeError(
            "Trying to exit a forward AD level that was not the last one that was created. This is not supported."
        )
    _forward.keys = _forward.keys[:level]
    _forward.level = level - 1


class dual_level:  # noqa: N801  (PyTorch's name)
    """Context manager (and decorator) for one forward-AD level: ``with dual_level(): ...``."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc) -> None:
        exit_dual_level()

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with dual_level():
                return fn(*args, **kwargs)

        return wrapper


def _check_level(level, what: str) -> None:
    if level is not None and level != _forward.level:
        raise RuntimeError(f"Invalid level given to _{what}")


def _alias(tensor: Tensor, op: str, tangent: Tensor | None) -> Tensor:
    """A new tensor on the same data, differentiable back to ``tensor`` (a view, as in PyTorch),
    carrying ``tangent`` (None: no tangent)."""
    alias = make(tensor.array, (tensor,), _identity, op, _identity_tangent)  # keeps the outer levels' tangents
    if tangent is None:
        _drop_tangent(alias, _forward.level)
    else:
        _set_tangent(alias, tangent)
    return alias


def _identity(g):
    return (g,)


def _identity_tangent(t):
    return t


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A view of ``tensor`` that carries ``tangent`` (its directional derivative) at the current level.

    Tangents ``tensor`` carries at the levels outside keep flowing through the view (nested ``func.jvp``)."""
    if _forward.level < 0:
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level exists, make sure to enter_dual_level() first."
        )
    _check_level(level, "make_dual")
    if not isinstance(tensor, Tensor) or not isinstance(tangent, Tensor):
        raise TypeError(
            f"make_dual(): expected Tensors, got {type(tensor).__name__} and {type(tangent).__name__} "
            "for tensor and tangent"
        )
    if tensor.array.dtype.kind != "f":
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if tangent.array.dtype.kind != "f":
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if tangent.shape != tensor.shape:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the original Tensor, "
            f"this is not supported. Tensor is of size {shape_str(tensor.shape)} while the given forward "
            f"gradient is of size {shape_str(tangent.shape)}."
        )
    if tangent.device != tensor.device:
        raise RuntimeError(
            f"Expected tangent to be on the same device as the primal ({tensor.device}), but got {tangent.device}"
        )
    return _alias(tensor, "make_dual", tangent)


def unpack_dual(tensor: Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """``(primal, tangent)`` of ``tensor``: a view of its value without tangent, and its tangent (or None)."""
    _check_level(level, "unpack_dual")
    if not isinstance(tensor, Tensor):
        raise TypeError(f"unpack_dual(): expected a Tensor, got {type(tensor).__name__}")
    tangent = _tangent_of(tensor)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    return UnpackedDualTensor(_alias(tensor, "unpack_dual", None), tangent)
