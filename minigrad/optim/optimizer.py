"""Optimizer: parameter groups, per-parameter state, zero_grad and state dicts.

Subclasses implement ``_update(group, param, grad, state, xp)`` on raw arrays; ``step``
runs it under no_grad for every parameter that has a gradient, so updates never
record graphs. An ``_update`` that is elementwise (``_elementwise = True``, as every
built-in one) also runs once on many small parameters joined end to end (see ``flat``).
"""

from __future__ import annotations

import copy
from collections import defaultdict

from .. import backend as B
from ..autograd.grad_mode import enable_grad, no_grad
from ..tensor import Tensor, make_leaf, mark_written, shape_str
from .flat import FlatGroup, chunks, group_key, is_array

__all__ = ["Optimizer"]


class Optimizer:
    """Base class: holds ``param_groups`` (dicts of params and hyperparameters) and ``state`` (a
    ``defaultdict(dict)`` keyed by parameter, as PyTorch's)."""

    _elementwise = False
    """Whether ``_update`` computes each element from the same element of its arrays and numbers only,
    so that it may run on several parameters joined end to end. A subclass that defines ``_update``
    without saying so is updated one parameter at a time."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "_update" in cls.__dict__ and "_elementwise" not in cls.__dict__:
            cls._elementwise = False

    def __init__(self, params, defaults: dict):
        self.defaults = defaults
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list = []
        self._flat_groups: dict = {}  # index of a param group -> (ids of its params, its FlatGroups) at the last step
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

    def __getstate__(self) -> dict:
        # without the flat groups: a copy's state arrays are copies, no longer views of the groups' buffers
        return {k: v for k, v in self.__dict__.items() if k != "_flat_groups"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._flat_groups = {}

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
        """Update every parameter that has a gradient; ``closure`` (re-evaluating the loss) is optional.

        Where ``_joins`` says so, an elementwise update runs once per flat group of small parameters
        (same device, dtype and state numbers) and once per remaining parameter: the same formula on
        the same elements, so the same bits as one parameter at a time.
        """
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for index, group in enumerate(self.param_groups):
                hyper = {key: _number(value) for key, value in group.items()}
                params = [p for p in group["params"] if p._grad is not None]
                if self._joins(hyper):
                    params = self._step_flat(index, hyper, group["params"], params)
                for p in params:
                    state = self.state.get(p)
                    if state is None:
                        state = self.state[p] = {}
                    if p.array.ndim:
                        self._update(hyper, p.array, p._grad.array, state, p.device.xp)
                    else:
                        self._update_0d(hyper, p, state)
                    mark_written(p)
        return loss

    def _update_0d(self, group: dict, param: Tensor, state: dict) -> None:
        """``_update`` for a 0-d parameter, run on 1-element views of it and its state: NumPy turns a 0-d
        result into a scalar, which in-place operators rebind instead of writing (SGD's momentum buffer
        made as ``(-grad).copy()`` stayed at its first value)."""
        views = {key: value.reshape(1) for key, value in state.items() if is_array(value)}
        lifted = {key: views.get(key, value) for key, value in state.items()}
        self._update(group, param.array.reshape(1), param._grad.array.reshape(1), lifted, param.device.xp)
        for key, value in lifted.items():
            if is_array(value) and value is not views.get(key):
                state[key] = value.reshape(())  # an array the update made (a view of it, as a flat group's)
            elif not is_array(value):
                state[key] = value

    def _joins(self, group: dict) -> bool:
        """Whether ``step`` joins the group's small parameters into flat groups: never with
        ``foreach=False`` or an update not known to be elementwise; always with ``foreach=True``;
        by default where the update makes enough NumPy calls per parameter to pay for the copies
        (``_worth_joining``)."""
        foreach = group.get("foreach")
        if not self._elementwise or foreach is False:
            return False
        return foreach is True or self._worth_joining(group)

    def _worth_joining(self, group: dict) -> bool:
        """Whether the group's update makes more NumPy calls per parameter than joining costs (three)."""
        return True

    def _step_flat(self, index: int, hyper: dict, group_params: list, params: list) -> list:
        """Update the parameters of ``params`` (those of ``group_params`` with a gradient) that can share
        a flat group, keeping last step's groups where they still hold; return the others, to be updated
        one at a time."""
        ids = tuple(map(id, group_params))
        last_ids, last_groups = self._flat_groups.get(index, ((), ()))
        groups = [g for g in last_groups if g.ready(self.state)] if ids == last_ids else []
        joined = {id(p) for g in groups for p in g.params}
        alone, buckets = [], {}
        for p in params:
            if id(p) in joined:
                continue
            state = self.state.get(p)
            if state is None:
                state = self.state[p] = {}
            key = group_key(p, state)
            if key is None:
                alone.append(p)
            else:
                buckets.setdefault(key, []).append(p)
        for members in (chunk for bucket in buckets.values() for chunk in chunks(bucket)):
            if len(members) == 1:
                alone.extend(members)
            else:
                groups.append(FlatGroup(members, [self.state[p] for p in members], members[0].device.xp))
        self._flat_groups[index] = (ids, groups)
        for g in groups:
            g.step(self._update, hyper)
            for p in g.params:
                mark_written(p)
        return alone

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
                        k: make_leaf(v.copy(), p.device) if is_array(v) else v for k, v in self.state[p].items()
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
            for key, value in self.defaults.items():  # a state dict saved before a hyperparameter existed
                mine.setdefault(key, value)
            mine["params"] = params
        self.state = new_state
        self._flat_groups = {}

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


def _state_value(value, param: Tensor, key: str):
    """A saved state entry as an array on the parameter's device (numbers pass through)."""
    if isinstance(value, Tensor):
        value = value.array
    if not is_array(value):
        return value
    if value.shape != param.array.shape:
        raise ValueError(
            f"optimizer state '{key}' of shape {shape_str(value.shape)} does not match its parameter of shape "
            f"{shape_str(param.array.shape)}"
        )
    return B.to_device_array(value, param.device).astype(param.array.dtype, copy=True)
