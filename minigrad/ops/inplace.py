"""In-place ops: ``add_``, ``x += y``, ``copy_``, ``zero_``, ``fill_``, ``clamp_``, ``masked_fill_``, ``x[i] = v``.

Every in-place op computes its out-of-place result, writes it into the
tensor's memory and bumps the memory's version counter
(``minigrad._versions``). A graph node whose saved values are written later
refuses to run backward, with PyTorch's error.

Under grad mode, when the tensor or an operand requires grad, the write is
also recorded, as PyTorch does: the tensor's current node moves to a new
tensor object holding a copy of the old value, the out-of-place op is applied
to that copy, and the tensor becomes the op's node (op name with a trailing
``_``). Nodes made earlier from the tensor still mean the old value; the
engine routes their edges to the moved node (``rebased`` history, by id).
A leaf that requires grad refuses, as in PyTorch, and so does a view.
"""

from __future__ import annotations

import numpy as np

from .. import _events, _state, _versions
from .. import backend as B
from ..tensor import Tensor, make, mark_written, shape_str

__all__ = ["apply_inplace", "version_error"]

_TYPE_NAMES = {  # PyTorch's legacy tensor type names, by dtype
    "float16": "Half",
    "float32": "Float",
    "float64": "Double",
    "int8": "Char",
    "int16": "Short",
    "int32": "Int",
    "int64": "Long",
    "uint8": "Byte",
    "bool": "Bool",
}
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2}  # bool < integer < floating, for in-place cast checks


def apply_inplace(t: Tensor, name: str, fn, *args) -> Tensor:
    """Write ``fn(t, *args)`` (an out-of-place op) into ``t``; record it as op ``name`` when it needs a graph."""
    _check_not_inference(t)
    recording = _state.grad.enabled and (t._rg or any(isinstance(a, Tensor) and a._rg for a in args))
    if not recording:
        write(t, fn(t, *args), name)
        return t
    _check_recordable(t)
    old = _split_off(t)
    args = tuple(old if a is t else a for a in args)
    listeners = _events.listeners[:]
    _events.listeners.clear()  # the out-of-place node is announced once, as ``t``, below
    try:
        result = fn(old, *args)
    finally:
        _events.listeners[:] = listeners
    write(t, result, name)
    _take_node(t, result, old, name)
    if _events.listeners:
        _events.emit("node_created", node=t, depth=_state.passes.depth)
    return t


def _check_not_inference(t: Tensor) -> None:
    if t.is_inference() and not _state.grad.inference:
        raise RuntimeError(
            "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get "
            "a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details."
        )


def write(t: Tensor, result: Tensor, name: str) -> None:
    """Copy ``result`` into ``t``'s memory (PyTorch's cast and shape checks) and bump its version."""
    if result.data.dtype != t.data.dtype and _KIND_RANK[result.data.dtype.kind] > _KIND_RANK[t.data.dtype.kind]:
        raise RuntimeError(f"result type {result.data.dtype} can't be cast to the desired output type {t.data.dtype}")
    if result.data.shape != t.data.shape:
        raise RuntimeError(
            f"output with shape {shape_str(t.data.shape)} doesn't match the broadcast shape "
            f"{shape_str(result.data.shape)}"
        )
    if result.data is not t.data:
        _assign(t, ..., result.data)
    mark_written(t)


def _assign(t: Tensor, key, value) -> None:
    try:
        t.data[key] = value
    except ValueError:
        if not t.data.flags.writeable:
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers to a single memory "
                "location. Please clone() the tensor before performing the operation."
            ) from None
        raise


def _check_recordable(t: Tensor) -> None:
    if t._backward is None and t._rg:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    owner = _versions.owner_of(t.data)
    if owner is t.data:
        return
    base = next((p for p in t._parents if _versions.owner_of(p.data) is owner), None)
    if t._backward is not None and base is None:
        return  # its memory is a temporary of the op that made it, not another tensor's
    if base is not None and base._backward is None and base._rg:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    raise RuntimeError(
        "minigrad does not record in-place operations on a view of another tensor (the base would not see "
        "the change in its graph); write into the base, or clone() the view first"
    )


def _split_off(t: Tensor) -> Tensor:
    """A new tensor object taking over ``t``'s node (op, parents, rule, id, hooks) with a copy of its value."""
    old = Tensor.__new__(Tensor)
    old.data = t.data.copy()
    old._grad = None
    old._rg = t._rg
    old._parents = t._parents
    old._backward = t._backward
    old._op = t._op
    old._id = t._id
    old._device = t._device
    old.name = t.name
    meta = t._meta or {}
    moved = {k: v for k, v in meta.items() if k not in ("retains_grad", "rebased")}
    old._meta = moved or None
    t._meta = {k: v for k, v in meta.items() if k in ("retains_grad", "rebased")} or None
    return old


def _take_node(t: Tensor, result: Tensor, old: Tensor, name: str) -> None:
    """Make ``t`` the node of ``result`` (the out-of-place op on ``old``), named ``name``."""
    t._rg = result._rg
    t._parents = result._parents
    t._backward = result._backward
    t._op = name
    t._id = result._id
    t.meta().setdefault("rebased", []).append((result._id, old))
    _versions.rebased[id(t)] = t


def version_error(saved: Tensor | None, arr, node) -> RuntimeError:
    """PyTorch's error for a saved value (``arr``, of the tensor ``saved``) written in place after ``node`` saved it.

    Like PyTorch, it names the op that made the saved tensor: the node itself
    for a saved output, else the tensor's current op.
    """
    what = f"[minigrad.{_TYPE_NAMES.get(arr.dtype.name, '')}Tensor {shape_str(arr.shape)}]"
    if saved is not None and saved.name:
        what += f" named '{saved.name}'"
    if saved is not None and saved._backward is not None:
        from ..tensor import _op_class_name

        history = (saved._meta or {}).get("rebased", ())
        op = node._op if any(old is node for _, old in history) else saved._op
        what += f", which is output 0 of {_op_class_name(op).removesuffix('Backward')},"
    hint = (
        "Hint: the backtrace further above shows the operation that failed to compute its gradient. "
        "The variable in question was changed in there or anywhere later. Good luck!"
        if _state.anomaly.enabled
        else "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
        "with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
    )
    return RuntimeError(
        "one of the variables needed for gradient computation has been modified by an inplace operation: "
        f"{what} is at version {_versions.version(arr)}; expected version {_versions.version_at(arr, node._id)} "
        f"instead. {hint}"
    )


# ---------------------------------------------------------------- the in-place ops
def _inplace_binary(op):
    def method(self, other, *args, **kwargs):
        return apply_inplace(self, op.__name__ + "_", lambda s, o: op(s, o, *args, **kwargs), other)

    method.__name__ = op.__name__ + "_"
    method.__doc__ = f"In-place {op.__name__}: writes the result into this tensor (recorded under grad mode)."
    return method


def _fill_rule(g):
    return (g * 0,)


def _fill_tangent(t):
    return t * 0


def _filled(t: Tensor, value) -> Tensor:
    return make(t._device.xp.full_like(t.data, value), (t,), _fill_rule, "fill", _fill_tangent)


def zero_(t: Tensor) -> Tensor:
    """Fill with zeros in place."""
    return apply_inplace(t, "zero_", _filled, 0)


def fill_(t: Tensor, value) -> Tensor:
    """Fill with ``value`` (a number or a one-element tensor) in place."""
    if isinstance(value, Tensor):
        if value.data.size != 1:
            raise RuntimeError(
                f"fill_ only supports 0-dimension value tensor but got tensor with {value.data.ndim} dimensions."
            )
        value = value.item()
    if value is None or not isinstance(value, (int, float, bool, np.generic)):
        raise TypeError(f"fill_(): argument 'value' (position 1) must be Number, not {type(value).__name__}")
    return apply_inplace(t, "fill_", _filled, value)


def _copied(t: Tensor, src: Tensor) -> Tensor:
    out = src if src.data.dtype == t.data.dtype else src.to(t.data.dtype)
    return out.expand(*t.data.shape) if out.data.shape != t.data.shape else out


def copy_(t: Tensor, src) -> Tensor:
    """Copy ``src`` (a tensor, array, list or number, broadcast to this shape) into this tensor in place."""
    if not isinstance(src, Tensor):
        src = Tensor(B.to_host(src) if B.is_cupy_array(src) else src, dtype=t.data.dtype, device=t._device)
    elif src._device is not t._device:
        src = src.to(t._device)
    return apply_inplace(t, "copy_", _copied, src)


def clamp_(t: Tensor, min=None, max=None) -> Tensor:  # noqa: A002  (torch's argument names)
    """In-place clamp."""
    return apply_inplace(t, "clamp_", lambda s: s.clamp(min, max))


def masked_fill_(t: Tensor, mask, value) -> Tensor:
    """In-place masked_fill."""
    return apply_inplace(t, "masked_fill_", lambda s, v: s.masked_fill(mask, v), value)


def setitem(t: Tensor, key, value) -> None:
    """``t[key] = value`` in place; recorded (as ``index_put_``) when ``t`` or ``value`` requires grad."""
    from .indexing import put

    _check_not_inference(t)
    if isinstance(value, Tensor) and value._device is not t._device:
        raise RuntimeError(
            f"Expected all tensors to be on the same device, but found at least two devices, "
            f"{t._device} and {value._device}! (in setitem)"
        )
    if isinstance(value, Tensor) and value._rg and _state.grad.enabled:
        apply_inplace(t, "index_put_", lambda s, v: put(s, key, v), value)
        return
    if t._rg and _state.grad.enabled:
        apply_inplace(t, "index_put_", lambda s: put(s, key, value))
        return
    put(t, key, value, into=t)
    mark_written(t)


def _bind() -> None:
    from . import arithmetic

    T = Tensor
    for name in ("add", "sub", "mul", "div", "pow"):
        method = _inplace_binary(getattr(arithmetic, name))
        setattr(T, name + "_", method)
        setattr(T, f"__i{'truediv' if name == 'div' else name}__", method)
    T.zero_ = zero_
    T.fill_ = fill_
    T.copy_ = copy_
    T.clamp_ = clamp_
    T.masked_fill_ = masked_fill_
    T.__setitem__ = setitem


_bind()
