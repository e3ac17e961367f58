"""Shape ops: reshape/view, expand, transpose, stack — forward beside backward."""

from __future__ import annotations

from ..tensor import Tensor, make, shape_str
from ._util import normalize_dims

__all__ = ["reshape", "expand", "transpose", "permute", "unsqueeze", "squeeze", "select", "stack"]


def _shape_arg(shape) -> tuple:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return tuple(int(s) for s in shape)


def reshape(a: Tensor, *shape) -> Tensor:
    """Same data in a new shape (one dim may be -1)."""
    shape = _shape_arg(shape)
    src = a.data.shape
    try:
        out = a.data.reshape(shape)
    except ValueError:
        raise RuntimeError(f"shape '{shape_str(shape)}' is invalid for input of size {a.data.size}") from None

    def backward(g):
        return (g.reshape(src),)

    return make(out, (a,), backward, "reshape")


def expand(a: Tensor, *shape) -> Tensor:
    """Broadcast to a larger shape without copying (-1 keeps a dim)."""
    shape = _shape_arg(shape)
    src = a.data.shape
    lead = len(shape) - len(src)
    if lead < 0:
        raise RuntimeError(
            f"expand: the number of sizes provided ({len(shape)}) must be greater or equal to the "
            f"number of dimensions in the tensor ({len(src)})"
        )
    target = tuple(src[i - lead] if n == -1 and i >= lead else n for i, n in enumerate(shape))
    for i, n in enumerate(src):
        if n != 1 and n != target[lead + i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[lead + i]}) must match the existing size ({n}) "
                f"at non-singleton dimension {lead + i}.  Target sizes: {shape_str(shape)}.  "
                f"Tensor sizes: {shape_str(src)}"
            )
    if target == src:
        return a

    def backward(g):
        from ._util import unbroadcast

        return (unbroadcast(g, src),)

    return make(a._device.xp.broadcast_to(a.data, target), (a,), backward, "expand")


def transpose(a: Tensor, dim0: int, dim1: int) -> Tensor:
    """Swap two dims."""
    ndim = a.data.ndim
    if ndim == 0:
        normalize_dims(dim0, 0), normalize_dims(dim1, 0)
        return a
    (d0,), (d1,) = normalize_dims(dim0, ndim), normalize_dims(dim1, ndim)

    def backward(g):
        return (g.transpose(d0, d1),)

    return make(a._device.xp.swapaxes(a.data, d0, d1), (a,), backward, "transpose")


def permute(a: Tensor, *dims) -> Tensor:
    """Reorder dims."""
    dims = _shape_arg(dims)
    ndim = a.data.ndim
    if len(dims) != ndim:
        raise RuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the length "
            f"of the desired ordering of dimensions i.e. input.dim() = {ndim} is not equal to "
            f"len(dims) = {len(dims)}".replace("(sparse_coo)", "")
        )
    axes = tuple(normalize_dims(d, ndim)[0] for d in dims)
    if len(set(axes)) != ndim:
        raise RuntimeError(f"permute(): duplicate dims are not allowed, got {list(dims)}")
    inverse = tuple(sorted(range(ndim), key=axes.__getitem__))

    def backward(g):
        return (g.permute(inverse),)

    return make(a._device.xp.transpose(a.data, axes), (a,), backward, "permute")


def unsqueeze(a: Tensor, dim: int) -> Tensor:
    """Insert a dim of size 1 at ``dim``."""
    (axis,) = normalize_dims(dim, a.data.ndim + 1)
    src = a.data.shape

    def backward(g):
        return (g.reshape(src),)

    return make(a._device.xp.expand_dims(a.data, axis), (a,), backward, "unsqueeze")


def squeeze(a: Tensor, dim=None) -> Tensor:
    """Remove dims of size 1 (all of them, or those in ``dim`` that have size 1)."""
    src = a.data.shape
    axes = normalize_dims(dim, a.data.ndim) if dim is not None else tuple(range(a.data.ndim))
    axes = tuple(ax for ax in axes if src[ax] == 1)
    if not axes:
        return a

    def backward(g):
        return (g.reshape(src),)

    return make(a._device.xp.squeeze(a.data, axis=axes), (a,), backward, "squeeze")


def select(a: Tensor, dim: int, index: int) -> Tensor:
    """The slice at ``index`` along ``dim`` (that dim removed)."""
    (axis,) = normalize_dims(dim, a.data.ndim)
    size = a.data.shape[axis]
    if not -size <= index < size:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size {shape_str(a.data.shape)} at dimension {axis}"
        )
    index %= size
    src, dtype, dev = a.data.shape, a.data.dtype, a._device
    key = (slice(None),) * axis + (index,)

    def backward(g):
        from ..tensor import make_leaf

        zeros = make_leaf(dev.xp.zeros(src[:axis] + src[axis + 1 :], dtype=dtype), dev)
        parts = [zeros] * size
        parts[index] = g
        return (stack(parts, axis),)

    return make(a.data[key], (a,), backward, "select")


def _T(a: Tensor) -> Tensor:
    if a.data.ndim < 2:
        return a
    return permute(a, tuple(range(a.data.ndim - 1, -1, -1)))


def stack(tensors, dim: int = 0) -> Tensor:
    """Join same-shaped tensors along a new dim."""
    tensors = tuple(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0]
    for i, t in enumerate(tensors):
        if t.data.shape != first.data.shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {shape_str(first.data.shape)} at "
                f"entry 0 and {shape_str(t.data.shape)} at entry {i}"
            )
        if t._device is not first._device:
            raise RuntimeError(
                f"Expected all tensors to be on the same device, but found at least two devices, "
                f"{first._device} and {t._device}! (in stack)"
            )
    (axis,) = normalize_dims(dim, first.data.ndim + 1)
    xp = first._device.xp
    out = xp.stack([t.data for t in tensors], axis=axis)
    n = len(tensors)

    def backward(g):
        return tuple(g.select(axis, i) for i in range(n))

    return make(out, tensors, backward, "stack")


def _bind() -> None:
    Tensor.reshape = Tensor.view = reshape
    Tensor.expand = expand
    Tensor.transpose = transpose
    Tensor.permute = permute
    Tensor.unsqueeze = unsqueeze
    Tensor.squeeze = squeeze
    Tensor.select = select
    Tensor.T = property(_T)
    Tensor.mT = property(lambda self: transpose(self, -2, -1))


_bind()
