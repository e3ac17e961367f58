"""Hyperparameter checks shared by the optimizers, in PyTorch's words."""

from __future__ import annotations

from .optimizer import check_tensor_hyperparameter, shown

__all__ = ["check_lr", "check_at_least_zero", "check_betas", "check_differentiable", "check_fused"]


def check_lr(lr) -> None:
    """A one-element tensor or a number that is not negative (NaN refused)."""
    check_tensor_hyperparameter(lr, "lr")
    if not 0.0 <= lr:  # written so that NaN is refused
        raise ValueError(f"Invalid learning rate: {shown(lr)}")


def check_at_least_zero(value, what: str) -> None:
    """``Invalid {what}: value`` unless ``value >= 0`` (NaN refused)."""
    if not 0.0 <= value:
        raise ValueError(f"Invalid {what}: {shown(value)}")


def check_betas(betas) -> None:
    """Both betas in [0, 1)."""
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {shown(betas[i])}")


def check_differentiable(differentiable: bool) -> None:
    """``differentiable=True`` (an update recorded in the graph) is PyTorch's; minigrad's updates never record."""
    if differentiable:
        raise NotImplementedError(
            "minigrad's optimizers do not support differentiable=True: their updates never record a graph"
        )


def check_fused(foreach, fused) -> None:
    """``foreach`` and ``fused`` are two ways of one update for many parameters: PyTorch takes one at a time."""
    if foreach and fused:
        raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
