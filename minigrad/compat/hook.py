"""The import hook: ``import torch`` (and ``torch.*``) gives minigrad, while the hook is installed.

A finder on ``sys.meta_path`` answers every ``torch`` module name with a :class:`TorchModule`:
a module object that shows its minigrad module's names (:mod:`minigrad.compat.layout` says
which) plus compat names, and raises :class:`MissingTorchName` for any other; a Tensor method
minigrad lacks raises it too while the hook is installed. Installing sets aside a real ``torch``
already imported; uninstalling removes the hook's modules and puts the real ones back, so nothing
outside the run sees minigrad as torch.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types

from ..tensor import Tensor
from .errors import MissingTorchName, missing_message
from .layout import MODULES, STUBS, Entry, entry_for

__all__ = ["TorchModule", "TorchFinder", "TorchHook", "install", "uninstall", "installed"]


def _is_torch(name: str) -> bool:
    return name == "torch" or name.startswith("torch.")


def _compat_names(spec: str | None) -> dict:
    if spec is None:
        return {}
    module_name, _, attr = spec.partition(":")
    module = importlib.import_module(module_name)
    if attr:
        return dict(getattr(module, attr))
    return {name: getattr(module, name) for name in module.__all__}


def _children(name: str) -> set:
    """The names of the torch modules directly below ``name`` that the layout lists."""
    listed = set(MODULES) | {f"torch.{stub}" for stub in STUBS}
    prefix = name + "."
    return {m[len(prefix) :] for m in listed if m.startswith(prefix) and "." not in m[len(prefix) :]}


class TorchModule(types.ModuleType):
    """A ``torch`` module served by minigrad: its names come from the compat namespace, then from
    the minigrad module behind it; any other name raises :class:`MissingTorchName`."""

    def __init__(self, name: str, entry: Entry):
        super().__init__(name)
        self._minigrad_deleted = set()  # names a program deleted (``del torch.nn.functional.f``)
        backing = importlib.import_module(entry.backing) if entry.backing else None
        self._minigrad_backing = backing
        self._minigrad_children = _children(name)
        if backing is not None and backing.__doc__:
            self.__doc__ = backing.__doc__
        self.__dict__.update(_compat_names(entry.extras))

    def __getattr__(self, name: str):
        if name == "__all__":  # what ``from torch.nn import *`` takes
            return [n for n in dir(self) if not n.startswith("_")]
        if (name.startswith("__") and name.endswith("__")) or name in self._minigrad_deleted:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        path = f"{self.__name__}.{name}"
        if name in self._minigrad_children:
            return importlib.import_module(path)
        backing = self._minigrad_backing
        if backing is not None:
            try:
                value = getattr(backing, name)
            except AttributeError:
                pass
            else:
                # a minigrad module torch has not there (minigrad.trace is not torch.trace)
                if not isinstance(value, types.ModuleType):
                    self.__dict__[name] = value  # found once: later lookups skip __getattr__
                    return value
                if entry_for(path) is not None:
                    return importlib.import_module(path)
        raise MissingTorchName(path)

    def __setattr__(self, name: str, value) -> None:
        self.__dict__.get("_minigrad_deleted", set()).discard(name)
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        """``del torch.nn.functional.f`` as on torch's own modules: the name is gone from this module
        (``hasattr`` is False, as a program simulating an older torch expects) until it is set again."""
        if name.startswith("_minigrad_") or not hasattr(self, name):
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        self.__dict__.pop(name, None)
        self._minigrad_deleted.add(name)

    def __dir__(self):
        names = (set(self.__dict__) | self._minigrad_children) - self._minigrad_deleted
        backing = self._minigrad_backing
        if backing is not None:
            shown = {n for n in dir(backing) if not isinstance(getattr(backing, n, None), types.ModuleType)}
            names |= shown - self._minigrad_deleted
        return sorted(n for n in names if not n.startswith("_minigrad_"))

    def __repr__(self) -> str:
        backing = self._minigrad_backing
        behind = f"minigrad module {backing.__name__!r}" if backing is not None else "minigrad compat stub"
        return f"<module {self.__name__!r} ({behind})>"


class TorchFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds every ``torch`` module name; a name minigrad lacks raises ModuleNotFoundError."""

    def find_spec(self, fullname, path=None, target=None):
        if not _is_torch(fullname):
            return None
        if entry_for(fullname) is None:
            raise ModuleNotFoundError(missing_message(fullname), name=fullname)
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        return TorchModule(spec.name, entry_for(spec.name))

    def exec_module(self, module) -> None:
        """Nothing to run: a TorchModule has its names from the start."""


def _missing_tensor_attribute(self, name: str):
    """``Tensor.__getattr__`` while the hook is installed: called only for a name the lookup did not find."""
    if name.startswith("_") or hasattr(type(self), name):  # a property or slot that failed: not a missing name
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
    raise MissingTorchName(f"torch.Tensor.{name}")


class TorchHook:
    """A handle on the installed hook; ``with`` it to uninstall on leaving, or call :meth:`uninstall`.

    The handle of a call made while the hook was already installed (``with install_torch():`` in a
    notebook that installed it before) leaves the hook installed: its first installer owns it.
    """

    def __init__(self, finder: TorchFinder, set_aside: dict, owner: bool = True):
        self.finder = finder
        self.set_aside = set_aside
        self.owner = owner

    @property
    def active(self) -> bool:
        return self.finder in sys.meta_path

    def uninstall(self) -> None:
        """Remove the finder and the hook's torch modules; put back a real torch set aside at install."""
        if not self.owner or not self.active:
            return
        sys.meta_path.remove(self.finder)
        del Tensor.__getattr__
        for name in [n for n in sys.modules if _is_torch(n)]:
            del sys.modules[name]
        sys.modules.update(self.set_aside)

    def __enter__(self) -> TorchHook:
        return self

    def __exit__(self, *exc) -> None:
        self.uninstall()


_hook: TorchHook | None = None


def install() -> TorchHook:
    """Install the hook; while it is installed, a further call returns a handle that leaves it so."""
    global _hook
    if _hook is not None and _hook.active:
        return TorchHook(_hook.finder, {}, owner=False)
    set_aside = {n: m for n, m in sys.modules.items() if _is_torch(n)}
    for name in set_aside:
        del sys.modules[name]
    finder = TorchFinder()
    sys.meta_path.insert(0, finder)
    Tensor.__getattr__ = _missing_tensor_attribute
    _hook = TorchHook(finder, set_aside)
    return _hook


def uninstall() -> None:
    """Uninstall the hook if it is installed."""
    if _hook is not None:
        _hook.uninstall()


def installed() -> bool:
    """Whether ``import torch`` gives minigrad now."""
    return _hook is not None and _hook.active
