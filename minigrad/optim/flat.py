"""One update for many parameters: PyTorch's ``foreach`` idea on NumPy arrays.

The built-in optimizers' ``_update`` is elementwise: each element of the new parameter and state
depends only on the same element of the parameter, the gradient and the state, and on numbers
(hyperparameters, the step count). Run once on several parameters joined end to end — their
gradients concatenated into one flat array, their state entries kept in one flat buffer each — it
performs, element by element, the same operations in the same order as on each parameter alone:
the same bits, in a dozen whole-group NumPy calls where one parameter at a time makes a dozen per
parameter. For small parameters (biases, a norm's weight) those calls, not the arithmetic, are the
cost; a large parameter is updated on its own, where joining it would only add copies.

``optimizer.state[p]`` keeps its form: a dict per parameter whose array entries have ``p``'s shape
(views into the group's buffers, updated in place at every step) and whose numbers (``step``) are
the group's.
"""

from __future__ import annotations

import itertools

import numpy as np

from .. import backend as B

__all__ = ["FlatGroup", "chunks", "group_key", "is_array", "SMALL", "GROUP"]

SMALL = 1 << 14
"""The most bytes a parameter may have to be joined into a flat group: above about this size the copies
in and out cost as much as the NumPy calls they save (measured on a GPT block's parameters: its 64 KiB
matrix joined made SGD with momentum's step 5 % slower and Adam's no faster)."""

GROUP = 1 << 17
"""The most bytes of one flat group: its half dozen arrays stay in a core's cache from one pass to the
next (measured: one group of all of a GPT block's 200 000 float32 elements updated three times slower
than its parameters one by one)."""


def is_array(value) -> bool:
    """A NumPy or CuPy array."""
    return isinstance(value, np.ndarray) or B.is_cupy_array(value)


def group_key(param, state: dict):
    """What parameters must share to be updated as one: device, dtype, and the same state entries
    with the same numbers (``step``); ``None`` for a parameter updated on its own (a large one, a
    gradient or a state entry that is not an array of the parameter's shape and dtype, or a state
    entry neither an array nor a number)."""
    array, grad = param.array, param._grad.array
    if array.nbytes > SMALL or grad.shape != array.shape or grad.dtype != array.dtype:
        return None
    entries = []
    for key, value in state.items():
        if is_array(value):
            if value.shape != array.shape or value.dtype != array.dtype or type(value) is not type(array):
                return None
            entries.append((key, None))
        else:
            entries.append((key, type(value), value))
    key = (param.device.type, param.device.index, array.dtype, tuple(entries))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def chunks(params: list):
    """``params`` cut, in order, into runs of at most ``GROUP`` bytes."""
    run, size = [], 0
    for p in params:
        if run and size + p.array.nbytes > GROUP:
            yield run
            run, size = [], 0
        run.append(p)
        size += p.array.nbytes
    if run:
        yield run


class FlatGroup:
    """Parameters of one device and dtype, with state of the same entries and numbers, updated as
    one flat array. The group owns one flat buffer per array state entry; each member's state holds
    views of it."""

    def __init__(self, params: list, states: list, xp):
        self.params = params
        self.states = states
        self.xp = xp
        self.device = params[0].device
        self.dtype = params[0].array.dtype
        self.shapes = [p.array.shape for p in params]
        bounds = list(itertools.accumulate((p.array.size for p in params), initial=0))
        self.slices = [slice(a, b) for a, b in zip(bounds, bounds[1:])]
        self.param = xp.empty(bounds[-1], dtype=self.dtype)
        self.grad = xp.empty(bounds[-1], dtype=self.dtype)
        self.param_views = self._views(self.param)
        self.state = {
            key: xp.concatenate([s[key].reshape(-1) for s in states]) if is_array(value) else value
            for key, value in states[0].items()
        }
        self.shared = {}  # state entry -> (its flat buffer, the members' views of it)
        self._share()

    def _views(self, flat) -> list:
        return [flat[s].reshape(shape) for s, shape in zip(self.slices, self.shapes)]

    def _share(self) -> None:
        """Give each member's state the group's entries: views of the flat buffers, the numbers."""
        for key, value in self.state.items():
            if not is_array(value):
                for s in self.states:
                    s[key] = value
            elif key not in self.shared or self.shared[key][0] is not value:
                views = self._views(value)
                self.shared[key] = (value, views)
                for s, view in zip(self.states, views):
                    s[key] = view

    def ready(self, state: dict) -> bool:
        """Whether every member has a gradient, it and its gradient the shape, dtype and device they had
        when the group was made, and its state still the group's (nothing replaced an entry, added one
        or loaded another state)."""
        entries, dtype, device = len(self.state), self.dtype, self.device
        for p, s, shape in zip(self.params, self.states, self.shapes):
            if p._grad is None or state.get(p) is not s or len(s) != entries:
                return False
            array, grad = p.array, p._grad.array
            if array.shape != shape or grad.shape != shape or array.dtype != dtype or grad.dtype != dtype:
                return False
            if p.device is not device and p.device != device:
                return False
        for key, value in self.state.items():
            if key in self.shared:
                if any(s.get(key) is not view for s, view in zip(self.states, self.shared[key][1])):
                    return False
            elif any(s.get(key) is not value for s in self.states):
                return False
        return True

    def step(self, update, hyper: dict) -> None:
        """Run ``update(hyper, param, grad, state, xp)`` once on the members joined end to end."""
        xp = self.xp
        xp.concatenate([p._grad.array.reshape(-1) for p in self.params], out=self.grad)
        xp.concatenate([p.array.reshape(-1) for p in self.params], out=self.param)
        update(hyper, self.param, self.grad, self.state, xp)
        for p, view in zip(self.params, self.param_views):
            xp.copyto(p.array, view)
        self._share()
