"""ParameterList and ParameterDict: parameters held in a list or a dict, registered with the module.

Each entry is a registered parameter (named ``0``, ``1``, ... or by its key), so ``parameters()``,
``state_dict()`` and the optimizers see it. A plain tensor is made a Parameter, as in PyTorch;
other values are kept as ordinary attributes.
"""

from __future__ import annotations

from ..tensor import Tensor
from .module import Module
from .parameter import Parameter

__all__ = ["ParameterList", "ParameterDict"]


def _as_parameter(value):
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


def _describe(value) -> str:
    if isinstance(value, Tensor):
        return f"Parameter containing: [{value.dtype} of size {tuple(value.shape)}]"
    return f"Object of type: {type(value).__name__}"


def _repr(container: Module, entries) -> str:
    """PyTorch's repr of a parameter container: one line per entry, its dtype and size."""
    lines = [f"({key}): {_describe(value)}" for key, value in entries]
    if not lines:
        return f"{type(container).__name__}()"
    return type(container).__name__ + "(\n  " + "\n  ".join(lines) + "\n)"


class ParameterList(Module):
    """A list of parameters: ``ParameterList([Parameter(mg.zeros(3)) for _ in range(2)])``."""

    def __init__(self, values=None):
        super().__init__()
        object.__setattr__(self, "_size", 0)
        if values is not None:
            self.extend(values)

    def _key(self, index: int) -> str:
        if not -self._size <= index < self._size:
            raise IndexError(f"index {index} is out of range")
        return str(index % self._size)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return ParameterList([self[i] for i in range(self._size)[index]])
        return getattr(self, self._key(index))

    def __setitem__(self, index: int, value) -> None:
        setattr(self, self._key(index), _as_parameter(value))

    def __len__(self) -> int:
        return self._size

    def __iter__(self):
        return (self[i] for i in range(self._size))

    def append(self, value) -> ParameterList:
        """Add ``value`` at the end (a tensor becomes a Parameter)."""
        object.__setattr__(self, "_size", self._size + 1)
        self[self._size - 1] = value
        return self

    def extend(self, values) -> ParameterList:
        """Append each of ``values``."""
        for value in values:
            self.append(value)
        return self

    def __repr__(self) -> str:
        return _repr(self, enumerate(self))


class ParameterDict(Module):
    """A dict of parameters by string key, in insertion order: ``ParameterDict({"scale": Parameter(...)})``."""

    def __init__(self, parameters=None):
        super().__init__()
        object.__setattr__(self, "_keys", {})
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str):
        if key not in self._keys:
            raise KeyError(key)
        return getattr(self, key)

    def __setitem__(self, key: str, value) -> None:
        if not isinstance(key, str):
            raise TypeError(f"parameter name should be a string. Got {type(key).__name__}")
        self._keys[key] = None
        setattr(self, key, _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __contains__(self, key) -> bool:
        return key in self._keys

    def keys(self):
        """The keys, in insertion order."""
        return list(self._keys)

    def values(self):
        """The values, in insertion order."""
        return [self[k] for k in self._keys]

    def items(self):
        """``(key, value)`` pairs, in insertion order."""
        return [(k, self[k]) for k in self._keys]

    def get(self, key: str, default=None):
        """The value at ``key``, or ``default``."""
        return self[key] if key in self._keys else default

    def pop(self, key: str):
        """Remove ``key`` and return its value."""
        value = self[key]
        del self[key]
        return value

    def clear(self) -> None:
        """Remove every entry."""
        for key in list(self._keys):
            del self[key]

    def __repr__(self) -> str:
        return _repr(self, self.items())

    def update(self, parameters) -> None:
        """Add the entries of a mapping or of an iterable of ``(key, value)`` pairs."""
        items = parameters.items() if hasattr(parameters, "items") else parameters
        for key, value in items:
            self[key] = value
