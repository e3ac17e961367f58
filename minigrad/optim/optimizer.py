"""Optimizer: parameter groups, per-parameter state, zero_grad and state dicts.

Subclasses implement ``_update(group, param, grad, state, xp)`` on raw arrays; ``step``
runs it under no_grad for every parameter that has a gradient, so updates never
record graphs.
"""

from __future__ import annotations

import copy
from collections import defaultdict

import numpy as np

from .. import backend as B
from ..autograd.grad_mode import enable_grad, no_grad
from ..tensor import Tensor, make_leaf, mark_written, shape_str

__all__ = ["Optimizer"]


class Optimizer:
    """Base class: holds ``param_groups`` (dicts of params and hyperparameters) and ``state`` (a
    ``defaultdict(dict)`` keyed by parameter, as PyTorch's)."""

    def __init__(self, params, defaults: dict):
        self.defaults = defaults
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list = []
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or dicts, but got Tensor"
            )
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, group: dict) -> None:
        """Add a group of parameters (with hyperparameters overriding the defaults)."""
        group = dict(group)
        params = group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {type(p).__name__}")
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        group["params"] = params
        for key, value in self.defaults.items():
            group.setdefault(key, value)
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset gradients: to None (default), or to zeros in place."""
        for group in self.param_groups:
            for p in group["params"]:
                if p._grad is None:
                    continue
                if set_to_none:
                    p._grad = None
                else:
                    p._grad.array[...] = 0
                    mark_written(p._grad)

    def step(self, closure=None):
        """Update every parameter that has a gradient; ``closure`` (re-evaluating the loss) is optional."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                hyper = {key: _number(value) for key, value in group.items()}
                for p in group["params"]:
                    g = p._grad
                    if g is None:
                        continue
                    state = self.state.get(p)
                    if state is None:
                        state = self.state[p] = {}
                    self._update(hyper, p.array, g.array, state, p.device.xp)
                    mark_written(p)
        return loss

    def _update(self, group: dict, param, grad, state: dict, xp) -> None:
        """Update the array ``param`` in place from ``grad``; ``xp`` is its array module; ``group``'s
        hyperparameters are numbers (a tensor one read as its value at this step)."""
        raise NotImplementedError

    # ------------------------------------------------------------ state dicts
    def state_dict(self) -> dict:
        """``{"state": {index: {...}}, "param_groups": [{..., "params": [indices]}]}`` (copies)."""
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            packed["params"] = []
            for p in group["params"]:
                index.setdefault(id(p), len(index))
                packed["params"].append(index[id(p)])
            groups.append(packed)
        state = {}
        for group in self.param_groups:
            for p in group["params"]:
                if p in self.state:
                    state[index[id(p)]] = {
                        k: make_leaf(v.copy(), p.device) if _is_array(v) else v for k, v in self.state[p].items()
                    }
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore hyperparameters and state saved by ``state_dict()`` (groups must match in size)."""
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError(
                f"loaded state dict has {len(saved_groups)} parameter groups, but the optimizer has "
                f"{len(self.param_groups)}"
            )
        for i, (mine, saved) in enumerate(zip(self.param_groups, saved_groups)):
            if len(mine["params"]) != len(saved["params"]):
                raise ValueError(
                    f"loaded state dict contains a parameter group that doesn't match the size of optimizer's group "
                    f"(group {i}: {len(saved['params'])} saved parameters, {len(mine['params'])} here)"
                )
        by_index = {}
        for mine, saved in zip(self.param_groups, saved_groups):
            for p, idx in zip(mine["params"], saved["params"]):
                by_index[idx] = p
        new_state = defaultdict(dict)
        for idx, entries in state_dict["state"].items():
            p = by_index[idx]
            new_state[p] = {k: _state_value(v, p, k) for k, v in entries.items()}
        for mine, saved in zip(self.param_groups, saved_groups):
            params = mine["params"]
            mine.clear()
            mine.update(copy.deepcopy({k: v for k, v in saved.items() if k != "params"}))
            mine["params"] = params
        self.state = new_state

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__} ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for key in sorted(k for k in group if k != "params"):
                lines.append(f"    {key}: {group[key]}")
        lines.append(")")
        return "\n".join(lines)


def check_tensor_hyperparameter(value, name: str) -> None:
    """A hyperparameter given as a tensor (``lr=mg.tensor(0.1)``, as PyTorch allows) holds one element."""
    if isinstance(value, Tensor) and value.numel() != 1:
        raise ValueError(f"Tensor {name} must be 1-element")


def shown(value):
    """A hyperparameter as an error message shows it: a tensor by its value, as PyTorch formats a 0-d one."""
    return value.item() if isinstance(value, Tensor) and value.dim() == 0 else value


def _number(value):
    """A hyperparameter as the update uses it: a tensor's value read at each step (a change made to the tensor
    in place counts), tuples (``betas``) element by element."""
    if isinstance(value, Tensor):
        return value.item()
    if isinstance(value, tuple):
        return tuple(_number(v) for v in value)
    return value


def _is_array(v) -> bool:
    return isinstance(v, np.ndarray) or B.is_cupy_array(v)


def _state_value(value, param: Tensor, key: str):
    """A saved state entry as an array on the parameter's device (numbers pass through)."""
    if isinstance(value, Tensor):
        value = value.array
    if not _is_array(value):
        return value
    if value.shape != param.array.shape:
        raise ValueError(
            f"optimizer state '{key}' of shape {shape_str(value.shape)} does not match its parameter of shape "
            f"{shape_str(param.array.shape)}"
        )
    return B.to_device_array(value, param.device).astype(param.array.dtype, copy=True)
