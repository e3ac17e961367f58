"""Learning-rate schedules: StepLR, ExponentialLR, CosineAnnealingLR.

Each sets ``group["lr"]`` from the epoch count (closed form) on ``step()`` (an lr given as a tensor is
written in place); call it once per epoch, after ``optimizer.step()``.
"""

from __future__ import annotations

import math

from ..tensor import Tensor
from .optimizer import Optimizer

__all__ = ["LRScheduler", "StepLR", "ExponentialLR", "CosineAnnealingLR"]


class LRScheduler:
    """Base class: remembers each group's initial lr and applies ``lr_at(base_lr, epoch)``."""

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            if last_epoch == -1:
                lr = group["lr"]
                group.setdefault("initial_lr", lr.clone() if isinstance(lr, Tensor) else lr)
            elif "initial_lr" not in group:
                raise KeyError("param 'initial_lr' is not specified in param_groups when resuming an optimizer")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self.step()

    def lr_at(self, base_lr: float, epoch: int) -> float:
        raise NotImplementedError

    def step(self) -> None:
        """Advance one epoch and set every group's lr."""
        self.last_epoch += 1
        self._last_lr = []
        for group, base in zip(self.optimizer.param_groups, self.base_lrs):
            lr = self.lr_at(base, self.last_epoch)
            if isinstance(group["lr"], Tensor):  # the lr tensor the user gave stays the group's, as in PyTorch
                group["lr"].fill_(float(lr))
                lr = group["lr"].clone()
            else:
                group["lr"] = lr
            self._last_lr.append(lr)

    def get_last_lr(self) -> list:
        """The lr of each group as set by the last ``step()``."""
        return list(self._last_lr)

    def state_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)


class StepLR(LRScheduler):
    """Multiply the lr by ``gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1):
        if not isinstance(step_size, int) or step_size < 1:
            raise ValueError(f"step_size must be a positive integer, got {step_size!r}")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr: float, epoch: int) -> float:
        return base_lr * self.gamma ** (epoch // self.step_size)


class ExponentialLR(LRScheduler):
    """Multiply the lr by ``gamma`` every epoch."""

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr: float, epoch: int) -> float:
        return base_lr * self.gamma**epoch


class CosineAnnealingLR(LRScheduler):
    """Anneal the lr from its initial value to ``eta_min`` along half a cosine over ``T_max`` epochs.

    ``lr = eta_min + (base_lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2``; past
    ``T_max`` the cosine continues (rising again), as in PyTorch.
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1):  # noqa: N803
        if T_max <= 0:
            raise ValueError(f"T_max must be positive, got {T_max}")
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr: float, epoch: int) -> float:
        return self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * epoch / self.T_max)) / 2
