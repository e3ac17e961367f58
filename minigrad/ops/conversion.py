"""Moves and casts: to(), cpu(), cuda(), clone() and the dtype shortcuts; all differentiable."""

from __future__ import annotations

from .. import backend as B
from ..tensor import Tensor, make

__all__ = ["to", "clone"]


def _parse_to_args(a: Tensor, args, kwargs):
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    kwargs.pop("non_blocking", None)
    copy = kwargs.pop("copy", False)
    if kwargs:
        raise TypeError(f"to() got unexpected keyword arguments {sorted(kwargs)}")
    for arg in args:
        if isinstance(arg, Tensor):
            device, dtype = arg._device, arg.array.dtype
        elif isinstance(arg, B.Device) or (isinstance(arg, str) and arg.split(":")[0] in ("cpu", "cuda")):
            device = arg
        else:
            dtype = arg
    return (None if device is None else B.device(device)), (None if dtype is None else B.to_dtype(dtype)), copy


def to(a: Tensor, *args, **kwargs) -> Tensor:
    """Return a tensor on the given device and/or dtype; ``a`` itself when nothing changes.

    ``to(device)``, ``to(dtype)``, ``to(device, dtype)``, ``to(other_tensor)``.
    The gradient flows back to ``a``'s device and dtype.
    """
    device, dtype, copy = _parse_to_args(a, args, dict(kwargs))
    src_dev, src_dtype = a._device, a.array.dtype
    dst_dev = device or src_dev
    dst_dtype = dtype or src_dtype
    if dst_dev is src_dev and dst_dtype == src_dtype and not copy:
        return a
    data = a.array
    if dst_dev is not src_dev:
        data = B.to_device_array(data, dst_dev)
    if dst_dtype != src_dtype:
        data = B.cast(data, dst_dtype)
    elif copy and data is a.array:
        data = data.copy()

    def backward(g):
        return (g.to(src_dev, src_dtype),)

    def jvp(t):
        return t.to(dst_dev, dst_dtype)

    out = make(data, (a,), backward, "to", jvp)
    out._device = dst_dev
    if dst_dtype.kind != "f" and out._rg:
        out._rg, out._parents, out._backward, out._op = False, (), None, None
    return out


def clone(a: Tensor) -> Tensor:
    """A copy of ``a`` that stays in the graph (gradient passes straight through)."""

    def backward(g):
        return (g,)

    def jvp(t):
        return t.clone()

    return make(a.array.copy(), (a,), backward, "clone", jvp)


def _bind() -> None:
    Tensor.to = to
    Tensor.clone = clone
    Tensor.cpu = lambda self: to(self, B.CPU)
    Tensor.cuda = lambda self, device=None: to(
        self, B.device("cuda" if device is None else (f"cuda:{device}" if isinstance(device, int) else device))
    )
    Tensor.float = lambda self: to(self, B.float32)
    Tensor.double = lambda self: to(self, B.float64)
    Tensor.half = lambda self: to(self, B.float16)
    Tensor.int = lambda self: to(self, B.int32)
    Tensor.long = lambda self: to(self, B.int64)
    Tensor.bool = lambda self: to(self, B.bool_)
    Tensor.type_as = lambda self, other: to(self, other.array.dtype)
    Tensor.contiguous = lambda self: self


_bind()
