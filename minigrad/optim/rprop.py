"""Rprop: resilient backpropagation (PyTorch's documented update, torch.optim.Rprop)."""

from __future__ import annotations

from ._validate import check_differentiable, check_lr
from .optimizer import Optimizer, shown

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Step each coordinate by its own size against the gradient's sign; the size grows by ``etas[1]`` while
    the sign holds and shrinks by ``etas[0]`` when it flips (that step is then skipped), kept within
    ``step_sizes``. Meant for full-batch training."""

    _elementwise = True

    def __init__(
        self,
        params,
        lr=1e-2,
        etas=(0.5, 1.2),
        step_sizes=(1e-6, 50),
        *,
        capturable: bool = False,
        foreach=None,
        maximize: bool = False,
        differentiable: bool = False,
    ):
        check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {shown(etas[0])}, {shown(etas[1])}")
        check_differentiable(differentiable)
        defaults = dict(
            lr=lr,
            etas=etas,
            step_sizes=step_sizes,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _update(self, group, param, grad, state, xp):
        (eta_minus, eta_plus), (size_min, size_max) = group["etas"], group["step_sizes"]
        if group["maximize"]:
            grad = -grad
        if "prev" not in state:
            state["step"] = 0
            state["prev"] = xp.zeros_like(param)
            state["step_size"] = xp.full_like(grad, group["lr"])
        state["step"] += 1
        agreement = grad * state["prev"]
        factor = xp.where(agreement > 0, eta_plus, xp.where(agreement < 0, eta_minus, 1.0))
        step_size = state["step_size"]
        step_size *= factor
        xp.clip(step_size, size_min, size_max, out=step_size)
        grad = xp.where(agreement < 0, 0, grad)
        param -= xp.sign(grad) * step_size
        state["prev"][...] = grad
