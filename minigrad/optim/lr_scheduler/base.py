"""LRScheduler, the base of the schedules: each ``step()`` sets every group's lr from the one before.

As in PyTorch, a schedule is *chainable*: ``get_lr()`` computes the next lr from each group's current
``group["lr"]`` (so two schedules on one optimizer compose, as ChainedScheduler needs), and
``step(epoch)`` (deprecated in PyTorch, kept) jumps by the closed form where a schedule has one.
An lr given as a tensor stays the group's tensor, written in place.
"""

from __future__ import annotations

import functools
import warnings
import weakref

from ...tensor import Tensor
from ..optimizer import Optimizer

__all__ = ["LRScheduler", "group_values", "set_group_value", "per_group", "EPOCH_DEPRECATION_WARNING"]

STEP_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should "
    "call them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will "
    "result in PyTorch skipping the first value of the learning rate schedule."
)
EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible. "
    "Please use `scheduler.step()` to step the scheduler. During the deprecation, if epoch is different from "
    "None, the closed form is used instead of the new chainable form, where available."
)


def group_values(optimizer: Optimizer, key: str) -> list:
    """``group[key]`` of every group, a tensor copied (so the list never aliases the optimizer's)."""
    return [g[key].clone() if isinstance(g[key], Tensor) else g[key] for g in optimizer.param_groups]


def set_group_value(group: dict, key: str, value) -> None:
    """Set ``group[key]``; a tensor there is filled in place (the user's tensor stays the group's)."""
    if isinstance(group[key], Tensor):
        group[key].fill_(value.item() if isinstance(value, Tensor) else float(value))
    else:
        group[key] = value


def per_group(name: str, optimizer: Optimizer, value) -> list:
    """``value`` for each group: a list or tuple of one per group, or one value for all."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. {name} has {len(value)} values, "
                f"param_groups has {len(optimizer.param_groups)}."
            )
    else:
        value = [value] * len(optimizer.param_groups)
    return [v.clone() if isinstance(v, Tensor) else v for v in value]


class LRScheduler:
    """Base class: remembers each group's ``initial_lr`` (``base_lrs``), counts ``last_epoch`` and sets the lrs
    that :meth:`get_lr` computes. Construction takes the first step (epoch 0); call ``step()`` after each
    ``optimizer.step()``."""

    _is_initial = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                lr = group["lr"]
                group.setdefault("initial_lr", lr.clone() if isinstance(lr, Tensor) else lr)
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming scheduler with "
                        "last_epoch >= 0 (load the optimizer's state dict first, or leave last_epoch at -1 for a "
                        "fresh run)"
                    )
        self.base_lrs = group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _watch_step(optimizer)
        self._initial_step()

    def _initial_step(self) -> None:
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self) -> list:
        """The next lr of each group, from its current one (the chainable form)."""
        raise NotImplementedError

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch (or, deprecated, to ``epoch``) and set every group's lr."""
        if self._step_count == 1 and not getattr(self.optimizer, "_opt_called", True):
            warnings.warn(STEP_ORDER_WARNING, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        if epoch is None:
            self.last_epoch += 1
            values = self.get_lr()
        else:
            self.last_epoch = epoch
            closed_form = getattr(self, "_get_closed_form_lr", None)
            values = closed_form() if closed_form is not None else self.get_lr()
        for group, lr in zip(self.optimizer.param_groups, values):
            set_group_value(group, "lr", lr)
        self._last_lr = group_values(self.optimizer, "lr")

    def get_last_lr(self) -> list:
        """The lr of each group as set by the last ``step()`` (tensors copied)."""
        return self._last_lr

    def state_dict(self) -> dict:
        """Everything but the optimizer: ``last_epoch``, ``base_lrs`` and the schedule's settings."""
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore what :meth:`state_dict` returned."""
        self.__dict__.update(state_dict)


def _watch_step(optimizer: Optimizer) -> None:
    """Make ``optimizer.step`` note that it ran (``_opt_called``), so that a schedule stepped first can warn
    as PyTorch's does. The wrapper holds the optimizer weakly: no reference cycle."""
    step = optimizer.step
    if getattr(step, "_watched_by_scheduler", False) or not hasattr(step, "__func__"):
        return
    owner, function = weakref.ref(optimizer), step.__func__

    @functools.wraps(function)
    def watched(*args, **kwargs):
        opt = owner()
        opt._opt_called = True
        return function(opt, *args, **kwargs)

    watched._watched_by_scheduler = True
    optimizer._opt_called = False
    optimizer.step = watched
