"""Matrix parts and products: tril, triu, diag, trace, cross, vector_norm (outer and norm live in their families)."""

from __future__ import annotations

from .. import backend as B
from ..tensor import Tensor, make, make_leaf
from ._util import binary_arrays, broadcast_shapes, check_int, check_tensor, normalize_dims
from .indexing import index_with_key
from .reduction import norm

# ``trace`` is not exported at the top level: ``minigrad.trace`` is the tracing package (events,
# record(), the Stepper). The matrix trace is ``x.trace()`` (or ``minigrad.ops.matrix.trace(x)``).
__all__ = ["tril", "triu", "diag", "cross", "vector_norm"]


def _check_matrix(a: Tensor, op: str) -> None:
    if a.array.ndim < 2:
        raise RuntimeError(f"{op}: input tensor must have at least 2 dimensions")


def tril(input: Tensor, diagonal: int = 0) -> Tensor:  # noqa: A002  (torch's argument name)
    """The lower triangle of the last two dims (elements above ``diagonal`` zeroed); the rule keeps g's lower triangle."""
    a = check_tensor(input, "tril", "input")
    k = check_int(diagonal, "tril", "diagonal")
    _check_matrix(a, "tril")

    def backward(g):
        return (g.tril(k),)

    def jvp(t):
        return t.tril(k)

    return make(a.device.xp.tril(a.array, k), (a,), backward, "tril", jvp)


def triu(input: Tensor, diagonal: int = 0) -> Tensor:  # noqa: A002
    """The upper triangle of the last two dims (elements below ``diagonal`` zeroed); the rule keeps g's upper triangle."""
    a = check_tensor(input, "triu", "input")
    k = check_int(diagonal, "triu", "diagonal")
    _check_matrix(a, "triu")

    def backward(g):
        return (g.triu(k),)

    def jvp(t):
        return t.triu(k)

    return make(a.device.xp.triu(a.array, k), (a,), backward, "triu", jvp)


def _diagonal_index(xp, shape: tuple, k: int) -> tuple:
    m, n = shape
    start_r, start_c = (0, k) if k >= 0 else (-k, 0)
    length = max(0, min(m - start_r, n - start_c))
    i = xp.arange(length)
    return (i + start_r, i + start_c)


def diag(input: Tensor, diagonal: int = 0) -> Tensor:  # noqa: A002
    """A 1-D tensor as the ``diagonal``-th diagonal of a square matrix, or a matrix's ``diagonal``-th diagonal.

    The two forms are each other's rule: the gradient of building a matrix from a
    vector is the matrix gradient's diagonal, and reading a diagonal (an indexing op)
    scatters the gradient back onto it.
    """
    a = check_tensor(input, "diag", "input")
    k = check_int(diagonal, "diag", "diagonal")
    if a.array.ndim == 2:
        return index_with_key(a, _diagonal_index(a.device.xp, a.array.shape, k), "diag")
    if a.array.ndim != 1:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {a.array.ndim}D")

    def backward(g):
        return (g.diag(k),)

    def jvp(t):
        return t.diag(k)

    return make(a.device.xp.diag(a.array, k), (a,), backward, "diag", jvp)


def trace(input: Tensor) -> Tensor:  # noqa: A002
    """Sum of a matrix's main diagonal; the rule spreads g over the diagonal (g * eye)."""
    a = check_tensor(input, "trace", "input")
    if a.array.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {a.array.ndim}")
    xp = a.device.xp
    eye = make_leaf(xp.eye(*a.array.shape, dtype=a.array.dtype), a.device)

    def backward(g):
        return (g * eye,)

    def jvp(t):
        return t.trace()

    d = a.array
    out = xp.asarray(d.trace(), dtype=d.dtype if d.dtype.kind == "f" else B.int64)
    return make(out, (a,), backward, "trace", jvp)


def cross(input: Tensor, other: Tensor, dim=None) -> Tensor:  # noqa: A002
    """The 3-vector cross product along ``dim`` (default: the first dim of size 3, as torch.cross); broadcasts.

    For c = a x b: d<g, c>/da = b x g and d<g, c>/db = g x a.
    """
    a = check_tensor(input, "cross", "input")
    b = check_tensor(other, "cross", "other")
    if a.array.ndim != b.array.ndim:
        raise RuntimeError(
            f"linalg.cross: inputs must have the same number of dimensions. Got {a.array.ndim} and {b.array.ndim}"
        )
    if a.array.dtype != b.array.dtype:
        raise RuntimeError(
            f"linalg.cross: expected input and other to have the same dtype, got {a.array.dtype} and {b.array.dtype}"
        )
    shape = broadcast_shapes(a.array.shape, b.array.shape)
    if dim is None:
        ax = next((i for i, n in enumerate(shape) if n == 3), None)
        if ax is None:
            raise RuntimeError("no dimension of size 3 in input")
    else:
        ax = normalize_dims(check_int(dim, "cross", "dim"), len(shape))[0]
    if a.array.shape[ax] != 3 or b.array.shape[ax] != 3:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {ax} must have length 3. Got {a.array.shape[ax]} and {b.array.shape[ax]}"
        )
    ad, bd = binary_arrays(a, b, "cross")

    def backward(g):
        return cross(b, g, ax), cross(g, a, ax)

    def jvp(ta, tb):
        return cross(ta, b, ax) + cross(a, tb, ax)

    return make(a.device.xp.cross(ad, bd, axis=ax), (a, b), backward, "cross", jvp)


def vector_norm(x: Tensor, ord=2, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A002
    """``torch.linalg.vector_norm``: the ``ord``-norm of ``x`` over ``dim`` (all elements when None)."""
    x = check_tensor(x, "linalg_vector_norm", "input")
    if x.array.ndim == 0 and dim is not None:
        normalize_dims(dim, 0)
    return norm(x, ord, dim, keepdim, dtype)


def _bind() -> None:
    for fn in (tril, triu, diag, trace, cross):
        setattr(Tensor, fn.__name__, fn)


_bind()
