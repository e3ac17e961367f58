"""Module: the base class of layers and models (parameters, children, modes, state dicts)."""

from __future__ import annotations

from collections import OrderedDict, namedtuple

import numpy as np

from .. import backend as B
from ..autograd.grad_mode import no_grad
from ..ops.conversion import _parse_to_args
from ..safeio import DEFAULT_MAX_BYTES, NpzReader
from ..tensor import Tensor, make_leaf, mark_written, shape_str
from .parameter import Parameter

__all__ = ["Module"]


class IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` did not match; printed as torch prints it when everything matched."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _type_name(value) -> str:
    """A value's type as PyTorch's ``torch.typename`` names it (``float``, ``minigrad.nn.linear.Linear``)."""
    kind = type(value)
    if isinstance(value, Tensor):
        return "minigrad.Tensor"
    return kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def _kept_kind_error(value, kind: str, name: str, expected: str) -> str:
    return f"cannot assign '{_type_name(value)}' as {kind} '{name}' ({expected} expected)"


class _ModuleMeta(type):
    """Names a module's parameters and buffers (``fc1.weight``) once its ``__init__`` has run."""

    def __call__(cls, *args, **kwargs):
        module = super().__call__(*args, **kwargs)
        module._name_tensors()
        return module


class Module(metaclass=_ModuleMeta):
    """Base class for layers and models.

    Assigning a Parameter, a Module or (via ``register_buffer``) a Tensor as an
    attribute registers it, so ``parameters()``, ``state_dict()``, ``train()``
    and ``to()`` reach it. Subclasses call ``super().__init__()`` first and
    implement ``forward``; calling the module calls ``forward``.
    """

    def __init__(self):
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent", set())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_path", "")

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    # ------------------------------------------------------------ registration
    def __setattr__(self, name: str, value) -> None:
        """Register a Parameter or a Module; a name already registered keeps its kind, as in PyTorch: a parameter
        takes a Parameter or None, a child module a Module or None, a buffer a Tensor or None (anything
        else is refused: a plain tensor assigned to ``weight`` used to drop it from ``parameters()``)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError(f"cannot assign '{name}' before Module.__init__() call")
        if isinstance(value, Parameter):
            self._forget(name, keep=self._parameters)
            self._parameters[name] = value
            value.name = self._qualify(name)
        elif name in self._parameters:
            if value is not None:
                raise TypeError(_kept_kind_error(value, "parameter", name, "minigrad.nn.Parameter or None"))
            self._parameters[name] = None
        elif isinstance(value, Module):
            self._forget(name, keep=self._modules)
            self._modules[name] = value
            value._name_tensors(self._qualify(name))
        elif name in self._modules:
            if value is not None:
                raise TypeError(_kept_kind_error(value, "child module", name, "minigrad.nn.Module or None"))
            self._modules[name] = None
        elif name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(_kept_kind_error(value, "buffer", name, "minigrad.Tensor or None"))
            self._buffers[name] = value
            if value is not None:
                value.name = self._qualify(name)
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name: str, keep: dict) -> None:
        """Unregister ``name`` wherever it is (an attribute, a parameter, a child module, a buffer) but in ``keep``,
        the table about to take it (where it keeps its place, as in PyTorch)."""
        self.__dict__.pop(name, None)
        for table in (self._parameters, self._modules, self._buffers):
            if table is not keep:
                table.pop(name, None)
        if keep is not self._buffers:
            self._non_persistent.discard(name)

    def __getattr__(self, name: str):
        d = self.__dict__
        for table in ("_parameters", "_modules", "_buffers"):
            if table in d and name in d[table]:
                return d[table][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for table in (self._parameters, self._modules, self._buffers):
            if name in table:
                del table[name]
                return
        object.__delattr__(self, name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Register ``param`` (or None, for an absent optional parameter such as a bias)."""
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{type(param).__name__}' object to parameter '{name}' (Parameter or None required)"
            )
        if param is None:
            self._set_none(name, self._parameters)
        else:
            self.__setattr__(name, param)

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Register a tensor that is state but not trainable (e.g. BatchNorm's running mean)."""
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{type(tensor).__name__}' object to buffer '{name}' (Tensor or None required)"
            )
        self._forget(name, keep=self._buffers)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent.discard(name)
        else:
            self._non_persistent.add(name)
        if tensor is not None:
            tensor.name = self._qualify(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Register a child module under ``name``."""
        if module is None:
            self._set_none(name, self._modules)
        else:
            self.__setattr__(name, module)

    def _set_none(self, name: str, table: dict) -> None:
        self._forget(name, keep=table)
        table[name] = None

    def _qualify(self, name: str) -> str:
        return f"{self._path}.{name}" if self._path else name

    def _name_tensors(self, path: str = "") -> None:
        """Give every parameter and buffer below this module its qualified name under ``path``."""
        object.__setattr__(self, "_path", path)
        for name, p in self._parameters.items():
            if p is not None:
                p.name = self._qualify(name)
        for name, b in self._buffers.items():
            if b is not None:
                b.name = self._qualify(name)
        for name, m in self._modules.items():
            if m is not None:
                m._name_tensors(self._qualify(name))

    def _label(self) -> str:
        """How error messages name this module: its type, and its path in the model when it has one."""
        return f"{type(self).__name__} '{self._path}'" if self._path else type(self).__name__

    # ------------------------------------------------------------ traversal
    def named_modules(self, prefix: str = "", memo: set | None = None):
        """(qualified name, module) for this module and every module below it, each once."""
        memo = set() if memo is None else memo
        if id(self) in memo:
            return
        memo.add(id(self))
        yield prefix, self
        for name, m in self._modules.items():
            if m is not None:
                yield from m.named_modules(f"{prefix}.{name}" if prefix else name, memo)

    def modules(self):
        """This module and every module below it."""
        for _, m in self.named_modules():
            yield m

    def named_children(self):
        """(name, module) for the direct children."""
        seen = set()
        for name, m in self._modules.items():
            if m is not None and id(m) not in seen:
                seen.add(id(m))
                yield name, m

    def children(self):
        """The direct child modules."""
        for _, m in self.named_children():
            yield m

    def _named_members(self, table: str, prefix: str, recurse: bool, remove_duplicate: bool = True):
        seen = set()
        modules = self.named_modules(prefix) if recurse else [(prefix, self)]
        for mod_prefix, m in modules:
            for name, t in getattr(m, table).items():
                if t is None or (remove_duplicate and id(t) in seen):
                    continue
                seen.add(id(t))
                yield (f"{mod_prefix}.{name}" if mod_prefix else name), t

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        """(qualified name, parameter) pairs, e.g. ``("fc1.weight", Parameter)``; shared ones once."""
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True):
        """Every parameter of this module and (with ``recurse``) its descendants, each once."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn) -> Module:
        """Call ``fn`` on every child module (recursively), then on this module."""
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------ modes and grads
    def train(self, mode: bool = True) -> Module:
        """Set training mode (Dropout drops, BatchNorm uses batch statistics) here and below."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self) -> Module:
        """Set evaluation mode: ``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the parameters' gradients: to None (default), or to zeros in place."""
        for p in self.parameters():
            if p._grad is None:
                continue
            if set_to_none:
                p._grad = None
            else:
                p._grad.array[...] = 0
                mark_written(p._grad)

    # ------------------------------------------------------------ devices and dtypes
    def to(self, *args, **kwargs) -> Module:
        """Move parameters and buffers to a device and/or floating dtype, in place; returns self.

        Parameters keep their identity (an optimizer built earlier still holds them);
        only floating-point tensors change dtype.
        """
        probe = make_leaf(B.CPU.xp.zeros(0, dtype=B.float32), B.CPU)
        device, dtype, _ = _parse_to_args(probe, args, dict(kwargs))
        if dtype is not None and dtype.kind != "f":
            raise TypeError(f"nn.Module.to only accepts floating point dtypes, but got desired dtype={dtype}")
        for t in list(self.parameters()) + list(self.buffers()):
            data = t.array
            if device is not None and device is not t.device:
                data = B.to_device_array(data, device)
                t.device = device
            if dtype is not None and data.dtype.kind == "f" and data.dtype != dtype:
                data = data.astype(dtype)
            t.array = data
            if t._grad is not None:
                t._grad = None
        return self

    def cpu(self) -> Module:
        return self.to("cpu")

    def cuda(self, device=None) -> Module:
        return self.to("cuda" if device is None else (f"cuda:{device}" if isinstance(device, int) else device))

    def float(self) -> Module:
        return self.to(B.float32)

    def double(self) -> Module:
        return self.to(B.float64)

    def half(self) -> Module:
        return self.to(B.float16)

    # ------------------------------------------------------------ state
    def state_dict(self, prefix: str = "") -> OrderedDict:
        """Parameters and persistent buffers by qualified name, as detached tensors sharing storage."""
        out = OrderedDict()
        for mod_prefix, m in self.named_modules(prefix.rstrip(".")):
            for table, tensors in (("p", m._parameters), ("b", m._buffers)):
                for name, t in tensors.items():
                    if t is None or (table == "b" and name in m._non_persistent):
                        continue
                    out[f"{mod_prefix}.{name}" if mod_prefix else name] = make_leaf(t.array, t.device)
        return out

    def load_state_dict(self, state_dict, strict: bool = True) -> IncompatibleKeys:
        """Copy values from ``state_dict`` into this module's parameters and buffers, in place.

        With ``strict``, missing and unexpected keys are an error that lists them.
        A shape mismatch is always an error. Returns (missing_keys, unexpected_keys).
        """
        arrays = {}
        for key, value in state_dict.items():
            arr = value.array if isinstance(value, Tensor) else value
            if not (isinstance(arr, np.ndarray) or B.is_cupy_array(arr)):
                arr = np.asarray(arr)
            arrays[key] = arr
        keys = self._check_state({k: tuple(a.shape) for k, a in arrays.items()}, strict)
        targets = self._state_targets()
        with no_grad():
            for key in targets.keys() & arrays.keys():
                target = targets[key]
                target.array[...] = B.to_device_array(arrays[key], target.device)
                mark_written(target)
        return keys

    def _state_targets(self) -> dict:
        """The tensors ``state_dict()`` names, by qualified name (themselves, not detached copies)."""
        own = self.state_dict()
        targets = {}
        for mod_prefix, m in self.named_modules():
            for tensors in (m._parameters, m._buffers):
                for name, t in tensors.items():
                    key = f"{mod_prefix}.{name}" if mod_prefix else name
                    if key in own:
                        targets[key] = t
        return targets

    def _check_state(self, shapes: dict, strict: bool) -> IncompatibleKeys:
        """Check keys and shapes (``{key: shape}``) against this module, raising PyTorch's RuntimeError
        listing every problem; the missing and unexpected keys otherwise."""
        targets = self._state_targets()
        missing = [k for k in targets if k not in shapes]
        unexpected = [k for k in shapes if k not in targets]
        errors = []
        if strict:
            if missing:
                errors.append("Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ".")
            if unexpected:
                errors.append("Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + ".")
        for key, target in targets.items():
            if key in shapes and tuple(shapes[key]) != tuple(target.array.shape):
                errors.append(
                    f"size mismatch for {key}: copying a param with shape {shape_str(shapes[key])} from checkpoint, "
                    f"the shape in current model is {shape_str(target.array.shape)}."
                )
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(errors))
        return IncompatibleKeys(missing, unexpected)

    def save(self, path) -> None:
        """Write ``state_dict()`` to a NumPy ``.npz`` file (keys are the qualified names)."""
        np.savez(path, **{k: B.to_host(v.array) for k, v in self.state_dict().items()})

    def load(self, path, strict: bool = True, max_bytes: int = DEFAULT_MAX_BYTES) -> IncompatibleKeys:
        """Load parameters and buffers saved by ``save(path)``.

        The file is read as untrusted input (:class:`minigrad.safeio.NpzReader`): a regular file
        only, no pickle. Its headers are read first: keys and shapes that do not match this module
        raise load_state_dict's RuntimeError before any array is read, and arrays that would take
        more than ``max_bytes`` bytes, or any damage, raise :class:`minigrad.safeio.UnsafeFileError`
        (a ValueError naming the file).
        """
        with NpzReader(path, max_bytes) as npz:
            keys = self._check_state({k: shape for k, (shape, _) in npz.headers.items()}, strict)
            wanted = [k for k in npz.headers if k not in keys.unexpected_keys]
            self.load_state_dict({k: npz.array(k) for k in wanted}, strict=False)
        return keys

    # ------------------------------------------------------------ repr
    def extra_repr(self) -> str:
        """The text inside this module's parentheses in its repr (layers override it)."""
        return ""

    def __repr__(self) -> str:
        lines = []
        extra = self.extra_repr()
        if extra:
            lines.extend(extra.split("\n"))
        for name, m in self._modules.items():
            child = repr(m).replace("\n", "\n  ")
            lines.append(f"({name}): {child}")
        head = type(self).__name__ + "("
        if not self._modules:
            return head + (extra if extra else "") + ")"
        return head + "\n  " + "\n  ".join(lines) + "\n)"

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._modules) | set(self._buffers))
