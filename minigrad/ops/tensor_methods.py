"""Tensor methods PyTorch code calls that are about the tensor rather than its values: factories that
copy its dtype and device (``new_zeros``), ``type``, ``is_floating_point``, the storage facts
(``stride``, ``storage_offset``, ``element_size``, ``nbytes``), ``unfold``, and the alias names of
ops minigrad has under another name (``multiply``, ``subtract``, ``clamp_min``...).
"""

from __future__ import annotations

from .. import backend as B
from .. import creation
from ..tensor import Tensor, tensor
from ._util import check_int, normalize_dims
from .arithmetic import abs, div, mul, neg, sub  # noqa: A004  (torch's names)
from .declare import LOOP, bind_methods, op
from .elementwise import clamp
from .types import Number

__all__ = ["multiply", "subtract", "true_divide", "negative", "absolute", "clamp_min", "clamp_max"]

_TENSOR_TYPE_NAMES = {
    "float16": "torch.HalfTensor",
    "float32": "torch.FloatTensor",
    "float64": "torch.DoubleTensor",
    "uint8": "torch.ByteTensor",
    "int8": "torch.CharTensor",
    "int16": "torch.ShortTensor",
    "int32": "torch.IntTensor",
    "int64": "torch.LongTensor",
    "bool": "torch.BoolTensor",
}
_DTYPE_OF_TYPE_NAME = {name: B.to_dtype(dt) for dt, name in _TENSOR_TYPE_NAMES.items()}


# ---------------------------------------------------------------- aliases
multiply = mul
subtract = sub
true_divide = div
negative = neg
absolute = abs


@op(batch=LOOP, methods="clamp_min")
def clamp_min(input: Tensor, min: Tensor | Number | None) -> Tensor:  # noqa: A002  (torch's argument names)
    """``clamp(input, min=min)``."""
    return clamp(input, min=min)


@op(batch=LOOP, methods="clamp_max")
def clamp_max(input: Tensor, max: Tensor | Number | None) -> Tensor:  # noqa: A002
    """``clamp(input, max=max)``."""
    return clamp(input, max=max)


# ---------------------------------------------------------------- factories with self's dtype and device
def _like(self: Tensor, dtype, device) -> dict:
    return {"dtype": self.array.dtype if dtype is None else dtype, "device": self.device if device is None else device}


@op(batch=LOOP, methods="new_zeros")
def new_zeros(self: Tensor, *size, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Zeros of ``size``, with this tensor's dtype and device unless given."""
    return creation.zeros(*size, requires_grad=requires_grad, **_like(self, dtype, device))


@op(batch=LOOP, methods="new_ones")
def new_ones(self: Tensor, *size, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Ones of ``size``, with this tensor's dtype and device unless given."""
    return creation.ones(*size, requires_grad=requires_grad, **_like(self, dtype, device))


@op(batch=LOOP, methods="new_empty")
def new_empty(self: Tensor, *size, dtype=None, device=None, requires_grad=False) -> Tensor:
    """An uninitialised tensor of ``size`` (zeros here), with this tensor's dtype and device unless given."""
    return creation.empty(*size, requires_grad=requires_grad, **_like(self, dtype, device))


@op(batch=LOOP, methods="new_full")
def new_full(self: Tensor, size, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """``fill_value`` everywhere in ``size``, with this tensor's dtype and device unless given."""
    return creation.full(size, fill_value, requires_grad=requires_grad, **_like(self, dtype, device))


@op(batch=LOOP, methods="new_tensor")
def new_tensor(self: Tensor, data, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A new leaf holding a copy of ``data``, with this tensor's dtype and device unless given."""
    if isinstance(data, Tensor):
        data = data.detach().numpy().copy()
    return tensor(data, requires_grad=requires_grad, **_like(self, dtype, device))


# ---------------------------------------------------------------- type and storage facts
@op(batch=LOOP, methods="type")
def type(self: Tensor, dtype=None, non_blocking: bool = False, **kwargs):  # noqa: A001  (torch's name)
    """With no argument, the tensor type's name (``'torch.FloatTensor'``); with a dtype or such a name,
    this tensor cast to it (itself when it already has it)."""
    if dtype is None:
        name = _TENSOR_TYPE_NAMES.get(self.array.dtype.name, f"torch.{self.array.dtype.name}")
        return name.replace("torch.", "torch.cuda.") if self.device.type == "cuda" else name
    if isinstance(dtype, str):
        cuda = dtype.startswith("torch.cuda.")
        key = dtype.replace("torch.cuda.", "torch.")
        if key not in _DTYPE_OF_TYPE_NAME:
            raise ValueError(f"invalid type: '{dtype}'")
        out = self.to(_DTYPE_OF_TYPE_NAME[key])
        return out.to("cuda") if cuda else out
    return self.to(dtype)


@op(batch=LOOP, methods="is_floating_point")
def is_floating_point(self: Tensor) -> bool:
    """Whether the dtype is a floating one."""
    return self.array.dtype.kind == "f"


@op(batch=LOOP, methods="nelement")
def nelement(self: Tensor) -> int:
    """The number of elements (``numel``'s other name)."""
    return int(self.array.size)


@op(batch=LOOP, methods="element_size")
def element_size(self: Tensor) -> int:
    """Bytes per element."""
    return self.array.dtype.itemsize


def _nbytes(self: Tensor) -> int:
    return int(self.array.nbytes)


def _itemsize(self: Tensor) -> int:
    return self.array.dtype.itemsize


@op(batch=LOOP, methods="stride")
def stride(self: Tensor, dim: int | None = None):
    """Elements (not bytes) to step in memory for one step along each dim, or along ``dim``."""
    d = self.array
    steps = tuple(s // d.dtype.itemsize for s in d.strides)
    if dim is None:
        return steps
    (axis,) = normalize_dims(check_int(dim, "stride", "dim"), d.ndim)
    return steps[axis]


def _address(arr) -> int:
    interface = getattr(arr, "__array_interface__", None)
    return interface["data"][0] if interface is not None else arr.data.ptr  # a CuPy array's pointer


@op(batch=LOOP, methods="storage_offset")
def storage_offset(self: Tensor) -> int:
    """Where this tensor's first element sits in the memory it shares with its base, in elements."""
    d = self.array
    root = d
    while getattr(root, "base", None) is not None and hasattr(root.base, "dtype"):
        root = root.base
    return (_address(d) - _address(root)) // d.dtype.itemsize


@op(batch=LOOP, methods="unfold")
def unfold(self: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """Every window of ``size`` elements along ``dimension``, ``step`` apart: that dim becomes the window
    count and a last dim of ``size`` is added (a copy here; PyTorch returns a view)."""
    d = self.array
    ndim = max(d.ndim, 1)
    (axis,) = normalize_dims(check_int(dimension, "unfold", "dimension"), ndim)
    length = d.shape[axis] if d.ndim else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {axis} is {length} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if d.ndim == 0:
        return self.reshape(1)
    xp = self.device.xp
    starts = xp.arange(0, length - size + 1, step)
    windows = starts[:, None] + xp.arange(size)[None, :]
    picked = self.movedim(axis, -1)[..., tensor(windows, device=self.device)]
    return picked.movedim(-2, axis)


bind_methods(Tensor, __name__)
Tensor.nbytes = property(_nbytes, doc="Bytes the elements take.")
Tensor.itemsize = property(_itemsize, doc="Bytes per element.")
# the names PyTorch also gives ops that arithmetic declares (as ``mul``, ``sub``, ...)
Tensor.multiply, Tensor.subtract, Tensor.true_divide, Tensor.negative, Tensor.absolute = mul, sub, div, neg, abs
