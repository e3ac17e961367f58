"""``minigrad.save`` / ``minigrad.load``: tensors and nested containers of them, in a file that runs no code.

The file is a NumPy ``.npz`` archive: one ``.npy`` member per tensor (or array), and one member
holding the structure as JSON (UTF-8 bytes in a uint8 array). Loading reads it through
:class:`minigrad.safeio.NpzReader` (regular files only, no pickle, numeric dtypes only, a size
limit checked from the headers before any array is read), so a file from someone else can be
loaded as safely as PyTorch's ``weights_only=True``. Whatever is wrong with a file (damaged,
foreign, too large, a structure that is not a dict or nested too deep) raises
:class:`minigrad.safeio.UnsafeFileError`, a ValueError naming the file and the problem.

What can be saved: tensors, NumPy arrays, ``None``, bools, ints, floats, strings, and dicts
(keys of those scalar types), lists and tuples of them, nested. A tensor saved twice in one call
(the same object) loads as one tensor, as in PyTorch; parameters load as parameters.
"""

from __future__ import annotations

import json
import os

import numpy as np

from . import backend as B
from .safeio import DEFAULT_MAX_BYTES, NpzReader, UnsafeFileError, label
from .tensor import Tensor, make_leaf

__all__ = ["save", "load"]

_STRUCTURE = "__minigrad_structure__"
_FORMAT = "minigrad.save/1"
_SCALARS = (bool, int, float, str, type(None))
MAX_DEPTH = 100  # nesting of containers a loaded structure may have

#: The Tensor subclasses that load back as themselves: ``flag -> (class, rebuild)``. Each tensor's entry
#: says, per flag, whether it is an instance of that class; an entry whose flag is true loads as
#: ``rebuild(leaf, requires_grad)``. ``minigrad.nn`` registers ``Parameter`` as ``"parameter"``.
_TENSOR_KINDS: dict = {}


def register_tensor_kind(flag: str, cls: type, rebuild) -> None:
    """Save each instance of ``cls`` (a Tensor subclass) with ``flag`` set in its entry, and load such an
    entry as ``rebuild(leaf, requires_grad)``: how a layer above the core (``minigrad.nn``) keeps its
    tensors' class through ``save``/``load`` without the core importing it."""
    _TENSOR_KINDS[flag] = (cls, rebuild)


class _Writer:
    """Encodes an object as JSON-able structure, collecting its arrays by member name."""

    def __init__(self):
        self.arrays: dict = {}
        self._names: dict = {}  # id(tensor or array) -> member name

    def _member(self, obj, arr) -> str:
        name = self._names.get(id(obj))
        if name is None:
            name = self._names[id(obj)] = f"a{len(self.arrays)}"
            self.arrays[name] = arr
        return name

    def encode(self, obj, where: str):
        if isinstance(obj, Tensor):
            entry = {"tensor": self._member(obj, B.to_host(obj.array)), "requires_grad": bool(obj.requires_grad)}
            entry.update((flag, isinstance(obj, cls)) for flag, (cls, _) in _TENSOR_KINDS.items())
            return entry
        if isinstance(obj, np.ndarray):
            if obj.dtype.hasobject or obj.dtype.kind not in "biufc":
                raise TypeError(f"minigrad.save: {where} is an array of dtype {obj.dtype}, which is not numeric")
            return {"ndarray": self._member(obj, obj)}
        if isinstance(obj, np.generic) and obj.dtype.kind in "biuf":
            return {"value": obj.item()}
        if isinstance(obj, _SCALARS):
            return {"value": obj}
        if isinstance(obj, dict):
            items = []
            for key, value in obj.items():
                if not isinstance(key, _SCALARS):
                    raise TypeError(
                        f"minigrad.save: {where} has a key of type {type(key).__name__}; keys must be str, "
                        "int, float, bool or None"
                    )
                items.append([key, self.encode(value, f"{where}[{key!r}]")])
            return {"dict": items}
        if isinstance(obj, (list, tuple)):
            kind = "list" if isinstance(obj, list) else "tuple"
            return {kind: [self.encode(v, f"{where}[{i}]") for i, v in enumerate(obj)]}
        if callable(getattr(obj, "state_dict", None)):  # a Module, an optimizer, a scheduler: torch.save(model)
            raise TypeError(
                f"minigrad.save: cannot save {where}, a whole {type(obj).__name__}: minigrad never pickles objects. "
                "Save its state_dict() instead, minigrad.save(model.state_dict(), path), and load it into a new "
                "one with model.load_state_dict(minigrad.load(path))"
            )
        raise TypeError(
            f"minigrad.save: cannot save {where} of type {type(obj).__name__} (only tensors, arrays, numbers, "
            "strings, None, and dicts, lists and tuples of them: a file that never needs pickle)"
        )


def save(obj, f) -> None:
    """Write ``obj`` (a tensor, a state dict, or nested dicts/lists/tuples of tensors) to ``f``.

    ``f`` is a path or a binary file object. The file is a ``.npz`` archive that :func:`load`
    reads back without running code.
    """
    writer = _Writer()
    structure = {"format": _FORMAT, "root": writer.encode(obj, "the object")}
    members = dict(writer.arrays)
    members[_STRUCTURE] = np.frombuffer(json.dumps(structure).encode("utf-8"), dtype=np.uint8)
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fp:  # np.savez would append ".npz" to a path without it
            np.savez(fp, **members)
    else:
        np.savez(f, **members)


class _Reader:
    def __init__(self, npz: NpzReader, device, where: str):
        self.npz = npz
        self.device = device
        self.where = where
        self._arrays: dict = {}
        self._tensors: dict = {}

    def _array(self, name):
        if not isinstance(name, str) or name == _STRUCTURE or name not in self.npz.headers:
            raise UnsafeFileError(f"{self.where}: the structure names an array {name!r} the file does not hold")
        if name not in self._arrays:
            self._arrays[name] = self.npz.array(name)
        return self._arrays[name]

    def decode(self, node, depth: int = 0):
        if depth > MAX_DEPTH:
            raise UnsafeFileError(f"{self.where}: the structure is nested more than {MAX_DEPTH} deep")
        if not isinstance(node, dict) or len(node) not in (1, 3):
            raise UnsafeFileError(f"{self.where}: malformed structure entry {str(node)[:80]!r}")
        if "tensor" in node:
            name = node["tensor"]
            if name not in self._tensors:
                self._tensors[name] = self._tensor(self._array(name), node)
            return self._tensors[name]
        if "ndarray" in node:
            return self._array(node["ndarray"])
        if "value" in node:
            value = node["value"]
            if not isinstance(value, _SCALARS):
                raise UnsafeFileError(f"{self.where}: a value entry holds a {type(value).__name__}, not a scalar")
            return value
        if "dict" in node:
            return {_key(key, self.where): self.decode(value, depth + 1) for key, value in node["dict"]}
        if "list" in node:
            return [self.decode(v, depth + 1) for v in node["list"]]
        if "tuple" in node:
            return tuple(self.decode(v, depth + 1) for v in node["tuple"])
        raise UnsafeFileError(f"{self.where}: unknown structure entry {sorted(node)}")

    def _tensor(self, arr, node) -> Tensor:
        data = B.to_device_array(arr, self.device)
        requires_grad = bool(node.get("requires_grad"))
        for flag, (_, rebuild) in _TENSOR_KINDS.items():
            if node.get(flag):
                return rebuild(make_leaf(data, self.device), requires_grad)
        return make_leaf(data, self.device, requires_grad=requires_grad)


def _key(key, where: str):
    if not isinstance(key, _SCALARS):
        raise UnsafeFileError(f"{where}: a dict key is a {type(key).__name__}, not a scalar")
    return key


def _structure_limit(max_bytes: int) -> int:
    """The most bytes the structure's JSON may take: a thirty-second of ``max_bytes``, at least 1 MiB
    (parsing JSON takes up to about 25 times its length)."""
    return min(max_bytes, max(1 << 20, max_bytes // 32))


def _structure(npz: NpzReader, where: str, max_bytes: int) -> dict:
    header = npz.headers.get(_STRUCTURE)
    if header is None or header[1] != np.uint8 or len(header[0]) != 1:
        raise UnsafeFileError(f"{where}: not a file written by minigrad.save (no structure member)")
    if header[0][0] > _structure_limit(max_bytes):
        raise UnsafeFileError(
            f"{where}: the structure takes {header[0][0]} bytes, over the limit of {_structure_limit(max_bytes)} "
            f"(a thirty-second of max_bytes={max_bytes}; pass a larger max_bytes if you trust the file)"
        )
    raw = npz.array(_STRUCTURE)
    try:
        structure = json.loads(raw.tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UnsafeFileError(f"{where}: the structure member is not valid JSON ({exc})") from None
    except RecursionError:
        raise UnsafeFileError(f"{where}: the structure is nested more than {MAX_DEPTH} deep") from None
    if not isinstance(structure, dict):
        raise UnsafeFileError(f"{where}: the structure is a JSON {type(structure).__name__}, not an object")
    if structure.get("format") != _FORMAT or "root" not in structure:
        raise UnsafeFileError(f"{where}: not a file written by minigrad.save (format {structure.get('format')!r})")
    return structure


def load(f, map_location=None, *, weights_only: bool | None = None, max_bytes: int = DEFAULT_MAX_BYTES):
    """Read back what :func:`save` wrote, onto the CPU or the device ``map_location`` names.

    The file is untrusted input: nothing in it is executed (no pickle), only numeric arrays are
    read, only a regular file is opened, and a file whose arrays would take more than ``max_bytes``
    bytes is refused before any array is read. Every problem with the file (damaged, foreign,
    too large, a malformed structure) raises :class:`minigrad.safeio.UnsafeFileError`, a
    ValueError naming the file and what is wrong. ``weights_only`` is accepted for PyTorch's
    sake: loading is always weights-only. ``map_location`` is a device (or its name); PyTorch's
    other forms are read as it reads them for a file saved on the CPU: a dict maps ``"cpu"`` (else
    stays on the CPU), a function (``lambda storage, loc: storage``) leaves tensors on the CPU.
    """
    where = label(f)
    device = _load_device(map_location)
    with NpzReader(f, max_bytes) as npz:
        structure = _structure(npz, where, max_bytes)
        try:
            return _Reader(npz, device, where).decode(structure["root"])
        except UnsafeFileError:
            raise
        except (TypeError, ValueError, KeyError, RecursionError) as exc:
            raise UnsafeFileError(f"{where}: malformed structure ({type(exc).__name__}: {exc})") from None


def _load_device(map_location):
    """The device ``load`` puts tensors on, from ``map_location`` (None, a device, a name, a dict, a function)."""
    if isinstance(map_location, dict):
        map_location = map_location.get("cpu")
    if map_location is None or callable(map_location) and not isinstance(map_location, (str, B.Device)):
        return B.device("cpu")
    return B.device(map_location)
