"""view, contiguous and t: the ops whose meaning is about memory layout, as in PyTorch.

``view`` never copies: it refuses, with PyTorch's error, a shape that the tensor's strides
cannot express (a transposed matrix flattened, say), where ``reshape`` would copy.
``contiguous`` makes that copy, so ``x.t().contiguous().view(-1)`` works as in PyTorch.
"""

from __future__ import annotations

from ..tensor import Tensor, make
from ._util import check_tensor
from .arithmetic import _pass_through, _same_jvp
from .declare import LOOP, TRAILING, bind_methods, on_first_batched, op
from .shape import _batched_reshape, _shape_arg, reshape, transpose

__all__ = ["t"]  # view is a method only, as in PyTorch

_NOT_A_VIEW = (
    "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
    "contiguous subspaces). Use .reshape(...) instead."
)


def _inferred(shape: tuple, numel: int) -> tuple | None:
    """``shape`` with its -1 filled in; None when it does not hold ``numel`` elements (reshape says why)."""
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    if -1 in shape:
        if known == 0 or numel % known:
            return None
        shape = tuple(numel // known if s == -1 else s for s in shape)
    else:
        if known != numel:
            return None
    return shape


def view_strides(old_shape: tuple, old_strides: tuple, new_shape: tuple) -> tuple | None:
    """Strides (in elements) that show ``old_shape``'s elements as ``new_shape`` without a copy, or None.

    PyTorch's ``computeStride``: walk the old dims from the last, grouping them into chunks that
    are contiguous with each other; each chunk must be covered exactly by a run of new dims.
    """
    if not old_shape:
        return (1,) * len(new_shape)
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = old_strides[-1]
    tensor_numel = view_numel = 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        if tensor_d == 0 or (
            old_shape[tensor_d - 1] != 1 and old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride
        ):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_strides[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = old_strides[tensor_d - 1]
                tensor_numel = view_numel = 1
    return tuple(new_strides) if view_d == -1 else None


@op(batch=_batched_reshape, methods="view")
def view(input: Tensor, *shape) -> Tensor:  # noqa: A002  (torch's argument name)
    """The same elements in a new shape, sharing memory; PyTorch's error where that needs a copy.

    The rule is reshape's: the gradient is reshaped back.
    """
    a = check_tensor(input, "view", "input")
    d = a.array
    target = _inferred(_shape_arg(shape), d.size)
    if target is not None and d.size and not d.flags.c_contiguous:
        strides = tuple(s // d.itemsize for s in d.strides)
        if view_strides(d.shape, strides, target) is None:
            raise RuntimeError(_NOT_A_VIEW)
    return reshape(a, *shape)


@op(batch=LOOP, methods="is_contiguous")
def is_contiguous(a: Tensor) -> bool:
    """Whether the elements lie in memory in row-major order, with no gaps (as PyTorch's is_contiguous)."""
    return bool(a.array.flags.c_contiguous)


@op(batch=TRAILING, methods="contiguous")
def contiguous(a: Tensor) -> Tensor:
    """``a`` itself when contiguous, else a row-major copy; the gradient passes through."""
    if a.array.flags.c_contiguous:
        return a
    return make(a.device.xp.ascontiguousarray(a.array), (a,), _pass_through, "contiguous", _same_jvp)


@on_first_batched
def _batched_t(call, v):
    """``t`` of a batch of matrices (or vectors, or scalars): the entries' two dims swapped, past the batch dim."""
    if v.dim() - 1 > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {v.dim() - 1}D")
    return call.wrap(v.transpose(1, 2)) if v.dim() == 3 else call.args[0]


@op(batch=_batched_t, methods="t")
def t(input: Tensor) -> Tensor:  # noqa: A002
    """The transpose of a matrix (dims 0 and 1); tensors of fewer dims are returned as they are."""
    a = check_tensor(input, "t", "input")
    if a.array.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a.array.ndim}D")
    return transpose(a, 0, 1) if a.array.ndim == 2 else a


bind_methods(Tensor, __name__)
