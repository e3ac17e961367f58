"""Moves and casts: to(), cpu(), cuda(), clone() and the dtype shortcuts; all differentiable."""

from __future__ import annotations

from .. import backend as B
from ..tensor import Tensor, make
from .declare import BROADCASTING, TRAILING, batches_gradients, bind_methods, op

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
            device, dtype = arg.device, arg.array.dtype
        elif isinstance(arg, B.Device) or (isinstance(arg, str) and arg.split(":")[0] in ("cpu", "cuda")):
            device = arg
        else:
            dtype = arg
    return (None if device is None else B.device(device)), (None if dtype is None else B.to_dtype(dtype)), copy


@batches_gradients
@op(batch=TRAILING, methods="to", saves=("src_dev", "src_dtype"))
def to(a: Tensor, *args, **kwargs) -> Tensor:
    """Return a tensor on the given device and/or dtype; ``a`` itself when nothing changes.

    ``to(device)``, ``to(dtype)``, ``to(device, dtype)``, ``to(other_tensor)``.
    The gradient flows back to ``a``'s device and dtype.
    """
    device, dtype, copy = _parse_to_args(a, args, dict(kwargs))
    src_dev, src_dtype = a.device, a.array.dtype
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
    out.device = dst_dev
    if dst_dtype.kind != "f" and out._rg:
        out._rg, out.parents, out._backward, out.op = False, (), None, None
    return out


@batches_gradients
@op(batch=TRAILING, methods="clone")
def clone(a: Tensor) -> Tensor:
    """A copy of ``a`` that stays in the graph (gradient passes straight through)."""

    def backward(g):
        return (g,)

    def jvp(t):
        return t.clone()

    return make(a.array.copy(), (a,), backward, "clone", jvp)


@op(batch=BROADCASTING, methods="cpu")
def cpu(self: Tensor) -> Tensor:
    """This tensor on the CPU: ``to("cpu")`` (itself when it is there already)."""
    return to(self, B.CPU)


@op(batch=BROADCASTING, methods="cuda")
def cuda(self: Tensor, device=None) -> Tensor:
    """This tensor on a CUDA device: ``to("cuda")``, or ``to("cuda:n")`` for ``device`` n (itself when it is there)."""
    return to(self, B.device("cuda" if device is None else (f"cuda:{device}" if isinstance(device, int) else device)))


@op(batch=BROADCASTING, methods="type_as")
def type_as(self: Tensor, other: Tensor) -> Tensor:
    """This tensor in ``other``'s dtype: ``to(other.dtype)``."""
    return to(self, other.array.dtype)


def _cast_method(name: str, dtype, dtype_name: str):
    """The method ``name`` (``x.float()``): ``to(dtype)``, declared as an op of its own."""

    def method(self: Tensor) -> Tensor:
        return to(self, dtype)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"This tensor as ``{dtype_name}``: ``to(minigrad.{dtype_name})`` (itself when it is that already)."
    return op(batch=BROADCASTING, methods=name)(method)


_CASTS = tuple(
    _cast_method(name, dtype, dtype_name)
    for name, dtype, dtype_name in (
        ("float", B.float32, "float32"),
        ("double", B.float64, "float64"),
        ("half", B.float16, "float16"),
        ("byte", B.uint8, "uint8"),
        ("char", B.int8, "int8"),
        ("short", B.int16, "int16"),
        ("int", B.int32, "int32"),
        ("long", B.int64, "int64"),
        ("bool", B.bool_, "bool"),
    )
)

bind_methods(Tensor, __name__)
