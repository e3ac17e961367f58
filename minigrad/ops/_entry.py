"""Argument checks at op entry: a list, None, str or dict where an op takes a tensor gets PyTorch's TypeError.

Each public op is wrapped once, when the package is imported, by ``checked``. What each argument
accepts is what the op declares (``@op``, ``minigrad.ops.declare``): its signature's annotation
(``Tensor``, ``Tensor | Number``, ``Dim``, ``int``, ``bool``, ...; the aliases are in
``minigrad.ops.types``); an argument without one is not checked here, and an undeclared function
cannot be wrapped. The error names the op, the argument, its position and the types it
takes, as PyTorch's do: ``exp(): argument 'input' (position 1) must be Tensor, not list``.

Only the argument's type is checked here; values (shapes, ranges, dtypes) stay with each op.
Operators (``x + y``) and methods whose only tensor is ``self`` are not wrapped: they are the hot
path, and ``self`` is a tensor by construction.

The same entry is where ``vmap`` reaches the ops: while a ``vmap`` runs, a call with a batched
tensor among its arguments goes to the op's batching rule (``minigrad.batching``). Outside
``vmap`` that costs one test of a thread-local tuple.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .. import _state, _upcalls
from ..tensor import Tensor
from .declare import declaration

__all__ = ["checked", "check_namespace"]


class Kind(NamedTuple):
    """What an argument accepts: a test, and the words PyTorch's error uses for it."""

    accepts: Callable[[object], bool]
    words: str


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_number(v) -> bool:
    return isinstance(v, (int, float, np.number, np.bool_))


def _is_dim(v) -> bool:
    return v is None or _is_int(v) or (isinstance(v, (tuple, list)) and all(_is_int(d) for d in v))


def _is_dims(v) -> bool:
    return _is_int(v) or (isinstance(v, (tuple, list)) and all(_is_int(d) for d in v))


def _is_zero_dim_tensor(v) -> bool:
    return isinstance(v, Tensor) and v.array.ndim == 0


TENSOR = Kind(lambda v: isinstance(v, Tensor), "Tensor")
OPTIONAL_TENSOR = Kind(lambda v: v is None or isinstance(v, Tensor), "Tensor (or None)")
TENSOR_OR_NUMBER = Kind(lambda v: isinstance(v, (Tensor, np.ndarray)) or _is_number(v), "Tensor or Number")
OPTIONAL_TENSOR_OR_NUMBER = Kind(
    lambda v: v is None or isinstance(v, Tensor) or _is_number(v), "Tensor or Number (or None)"
)
INT = Kind(_is_int, "int")
OPTIONAL_INT = Kind(lambda v: v is None or _is_int(v), "int (or None)")
BOOL = Kind(lambda v: isinstance(v, (bool, np.bool_)), "bool")
OPTIONAL_BOOL = Kind(lambda v: v is None or isinstance(v, (bool, np.bool_)), "bool (or None)")
NUMBER = Kind(_is_number, "Number")
OPTIONAL_NUMBER = Kind(lambda v: v is None or _is_number(v), "Number (or None)")
STR = Kind(lambda v: isinstance(v, str), "str")
DIM = Kind(_is_dim, "int or tuple of ints")
DIMS = Kind(_is_dims, "int or tuple of ints")
DIM_OR_BOOL = Kind(lambda v: _is_dim(v) or isinstance(v, bool), "int, tuple of ints or bool")
NORM_ORDER = Kind(lambda v: v is None or _is_number(v) or isinstance(v, str) or _is_zero_dim_tensor(v), "Number")
SPLIT_SIZE = Kind(lambda v: _is_dims(v) or _is_zero_dim_tensor(v), "int or tuple of ints")
INTS = Kind(lambda v: isinstance(v, (tuple, list)) and all(_is_int(d) for d in v), "tuple of ints")
SIZE = Kind(_is_dims, "int or tuple of ints")
PADDING = Kind(lambda v: _is_dims(v) or isinstance(v, str), "int, tuple of ints or str")
INT_OR_TENSOR = Kind(lambda v: _is_int(v) or isinstance(v, Tensor), "int or Tensor")

OPTIONAL_STRIDE = Kind(lambda v: v is None or _is_dims(v), "int or tuple of ints")

# What each declared annotation accepts (``minigrad.ops.types`` names the aliases), keyed by the
# annotation's parts in sorted order, so ``Number | Tensor`` reads as ``Tensor | Number``.
_ANNOTATION_KINDS = {
    "Tensor": TENSOR,
    "Tensor | None": OPTIONAL_TENSOR,
    "Tensor | Number": TENSOR_OR_NUMBER,
    "Tensor | Number | None": OPTIONAL_TENSOR_OR_NUMBER,
    "Number": NUMBER,
    "Number | None": OPTIONAL_NUMBER,
    "int": INT,
    "int | None": OPTIONAL_INT,
    "int | Tensor": INT_OR_TENSOR,
    "bool": BOOL,
    "bool | None": OPTIONAL_BOOL,
    "float": NUMBER,
    "float | None": OPTIONAL_NUMBER,
    "str": STR,
    "str | None": Kind(lambda v: v is None or isinstance(v, str), "str (or None)"),
    "Dim": DIM,
    "Dims": DIMS,
    "Dims | None": OPTIONAL_STRIDE,
    "DimOrBool": DIM_OR_BOOL,
    "Ints": INTS,
    "Size": SIZE,
    "Padding": PADDING,
    "NormOrder": NORM_ORDER,
    "SplitSize": SPLIT_SIZE,
}


def _annotation_key(annotation: str) -> str:
    parts = [p.strip() for p in annotation.split("|")]
    tail = ["None"] if "None" in parts else []
    return " | ".join(sorted(p for p in parts if p != "None") + tail)


_ANNOTATIONS = {_annotation_key(k): v for k, v in _ANNOTATION_KINDS.items()}
# Annotations that declare no check (the op checks the value itself, or takes anything).
_UNCHECKED = {"object", "Any"}


def declared_kind(op: str, param: inspect.Parameter):
    """The kind a declared op's parameter accepts, from its annotation alone (None: not checked)."""
    annotation = param.annotation
    if annotation is inspect.Parameter.empty:
        return None
    if not isinstance(annotation, str):
        raise TypeError(
            f"{op}: the annotation of {param.name!r} must be written as text (from __future__ import annotations)"
        )
    if annotation in _UNCHECKED:
        return None
    kind = _ANNOTATIONS.get(_annotation_key(annotation))
    if kind is None and " | " not in annotation and annotation[:1].isupper():
        return None  # another class (a dtype, a device, a Generator): the op checks it
    if kind is None:
        raise TypeError(
            f"{op}: argument {param.name!r} has the annotation {annotation!r}, which the entry cannot check"
        )
    return kind


# torch's names for the arguments minigrad calls ``a`` and ``b``.
_DISPLAY = {"a": "input", "x": "input", "b": "other"}


class _Check(NamedTuple):
    position: int | None  # None for keyword-only arguments
    name: str
    kind: Kind


def _checks(fn, op: str) -> tuple:
    if declaration(fn) is None:
        raise TypeError(
            f"{fn.__module__}.{op} is not declared as an op (minigrad.ops.declare.op): its entry has no types"
        )
    out = []
    for index, param in enumerate(inspect.signature(fn).parameters.values()):
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        kind = declared_kind(op, param)
        if kind is not None:
            position = index if param.kind is not param.KEYWORD_ONLY else None
            out.append(_Check(position, param.name, kind))
    return tuple(out)


# Arguments that name dims: PyTorch takes an integer tensor there as the int it holds (``x.sum(dim=t)``).
_DIM_NAMES = {"dim", "dims", "dim0", "dim1", "source", "destination", "start_dim", "end_dim"}


def _integer_tensor_as_int(value, zero_dim_only: bool):
    """The int an integer (or bool) tensor of one element holds, else None: PyTorch reads such a tensor as an
    int where an int is expected (a 0-d one only), and as one dim where a list of ints is."""
    if not isinstance(value, Tensor) or value.array.dtype.kind not in "biu" or value.array.size != 1:
        return None
    if zero_dim_only and value.array.ndim:
        return None
    return int(value.array.item())


def _dim_from_tensors(check: _Check, value):
    """``value`` (a tensor, or a list holding tensors, given as a dim) with each integer tensor read as the int
    it holds, when that is what ``check`` accepts; None otherwise (the argument is refused)."""
    if check.name not in _DIM_NAMES:
        return None
    zero_dim_only = check.kind in (INT, OPTIONAL_INT)  # an int argument; a list of ints takes any one element
    if isinstance(value, (tuple, list)):
        ints = [d if _is_int(d) else _integer_tensor_as_int(d, zero_dim_only) for d in value]
        converted = None if None in ints else type(value)(ints)
    else:
        converted = _integer_tensor_as_int(value, zero_dim_only)
    return converted if converted is not None and check.kind.accepts(converted) else None


def extremum_arguments(args: tuple, kwargs: dict) -> tuple:
    """``max``/``min`` as PyTorch's overloads read them: a tensor alone after the input is ``other``
    (elementwise); a 0-d integer tensor given as ``dim=`` or with ``keepdim`` is the dim it holds."""
    if len(args) == 2 and isinstance(args[1], Tensor) and "keepdim" not in kwargs:
        return args[:1], {**kwargs, "other": args[1]}
    if len(args) > 1 and isinstance(args[1], Tensor):
        dim = _integer_tensor_as_int(args[1], True)
        return (args if dim is None else (args[0], dim, *args[2:])), kwargs
    if isinstance(kwargs.get("dim"), Tensor):
        dim = _integer_tensor_as_int(kwargs["dim"], True)
        return args, (kwargs if dim is None else {**kwargs, "dim": dim})
    return args, kwargs


_REWRITES = {"max": extremum_arguments, "min": extremum_arguments}


def _type_error(op: str, check: _Check, value, by_position: bool, method: bool) -> TypeError:
    name = _DISPLAY.get(check.name, check.name)  # torch's name for the argument
    where = f" (position {check.position + (0 if method else 1)})" if by_position else ""
    return TypeError(f"{op}(): argument '{name}'{where} must be {check.kind.words}, not {type(value).__name__}")


_wrapped: dict = {}
_vmap = _state.vmap


def checked(fn, method: bool = False):
    """``fn`` behind a check of its arguments' types, and behind ``vmap``'s dispatch to batching rules.

    With ``method``, the first argument is ``self`` and is not checked. One wrapper per function
    and flavour, so aliases stay aliases (``clip is clamp``).
    """
    key = (fn, method)
    if key in _wrapped:
        return _wrapped[key]
    op = fn.__name__
    checks = tuple(c for c in _checks(fn, op) if not (method and c.position == 0))
    params = list(inspect.signature(fn).parameters)[1 if method else 0 :]  # a method's self is never a keyword
    # torch's keyword names for minigrad's ``a``/``x``/``b`` (``mg.sum(input=x)``, ``x.add(other=y)``)
    renames = {_DISPLAY[p]: p for p in params if p in _DISPLAY and _DISPLAY[p] not in params}
    if "keepdim" in params and "keepdims" not in params:
        renames["keepdims"] = "keepdim"  # NumPy's spelling, which torch's reductions accept too
    if method and not checks and not renames:  # self is the only tensor (a batched self has its own methods)
        _wrapped[key] = fn
        return fn

    # each check unpacked once here, so that a call reads no attributes (keyword-only: never by position)
    plan = tuple((sys.maxsize if c.position is None else c.position, c.name, c.kind.accepts, c) for c in checks)

    def entry(*args, **kwargs):
        if kwargs and renames:
            for torch_name, name in renames.items():
                if torch_name in kwargs:
                    kwargs[name] = kwargs.pop(torch_name)
        n = len(args)
        for position, name, accepts, check in plan:
            if position < n:
                if not accepts(args[position]):
                    dim = _dim_from_tensors(check, args[position])
                    if dim is None:
                        raise _type_error(op, check, args[position], True, method)
                    args = (*args[:position], dim, *args[position + 1 :])
            elif kwargs and name in kwargs and not accepts(kwargs[name]):
                dim = _dim_from_tensors(check, kwargs[name])
                if dim is None:
                    raise _type_error(op, check, kwargs[name], False, method)
                kwargs[name] = dim
        if _vmap.levels:
            return _upcalls.vmap_call(fn, args, kwargs)
        return fn(*args, **kwargs)

    rewrite = _REWRITES.get(op)
    if rewrite is not None:  # only the ops whose arguments PyTorch reads by how they are given
        checked_entry = entry

        def entry(*args, **kwargs):
            args, kwargs = rewrite(args, kwargs)
            return checked_entry(*args, **kwargs)

    entry.__name__, entry.__qualname__, entry.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
    entry.__module__, entry.__wrapped__ = fn.__module__, fn
    _wrapped[key] = entry
    _wrapped[(entry, method)] = entry
    return entry


def check_namespace(namespace: dict, exported, methods: type | None = None) -> None:
    """Replace each function named in ``exported`` in ``namespace`` with its checked form.

    With ``methods`` (the Tensor class), its methods bound to those functions get the method
    form too; operators (``__add__``) are left alone. The two forms are one op, visibly: a method
    with arguments to check wraps the function (``Tensor.clamp.__wrapped__ is minigrad.clamp``: the
    same checks, numbered as a method's, around the same op), and a method with none is the op the
    function wraps (``minigrad.exp.__wrapped__ is Tensor.exp``). So ``help()`` and
    ``inspect.signature`` show the op's docstring and signature for both.
    """
    raw = {}
    for name in exported:
        fn = namespace.get(name)
        if inspect.isfunction(fn):
            raw[fn] = name
            namespace[name] = checked(fn)
    if methods is None:
        return
    for attr, value in list(vars(methods).items()):
        if not attr.startswith("__") and inspect.isfunction(value) and value in raw:
            method = checked(value, method=True)
            if method is not value:
                method.__wrapped__ = namespace[raw[value]]
            setattr(methods, attr, method)
