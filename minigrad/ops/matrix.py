"""Matrix parts and products: tril, triu, diag, trace, cross, vector_norm (outer and norm live in their families)."""

from __future__ import annotations

from .. import backend as B
from .. import creation
from ..tensor import Tensor, make, make_leaf
from ._util import binary_arrays, broadcast_shapes, check_int, check_tensor, normalize_dims
from .declare import BY_DIM, TRAILING, BatchedCall, bind_methods, op
from .indexing import index_with_key
from .reduction import norm
from .types import Dim

# ``trace`` is not exported at the top level: ``minigrad.trace`` is the tracing package (events,
# record(), the Stepper). The matrix trace is ``x.trace()`` (or ``minigrad.ops.matrix.trace(x)``).
__all__ = ["tril", "triu", "diag", "cross", "vector_norm"]


def _check_matrix(a: Tensor, op: str) -> None:
    if a.array.ndim < 2:
        raise RuntimeError(f"{op}: input tensor must have at least 2 dimensions")


@op(batch=TRAILING, methods="tril", saves=("k",))
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


@op(batch=TRAILING, methods="triu", saves=("k",))
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


def _diagonal_positions(rows: int, cols: int, k: int) -> tuple:
    start_r, start_c = (0, k) if k >= 0 else (-k, 0)
    n = max(0, min(rows - start_r, cols - start_c))
    return list(range(start_r, start_r + n)), list(range(start_c, start_c + n))


def _batched_diag(call: BatchedCall):
    """``diag``: a matrix's diagonal is one indexing of the batch; a vector's matrix is ``Rᵀ diag(v) C``,
    with ``R``/``C`` the one-hot rows and columns of the diagonal's places."""
    v, k = call.value(call.args[0]), call.get("diagonal")
    if v is None or not isinstance(k, int) or v.dim() - 1 not in (1, 2):
        return call.loop()
    if v.dim() == 3:
        rows, cols = _diagonal_positions(v.shape[1], v.shape[2], k)
        return call.wrap(v[:, rows, cols])
    n = v.shape[1]
    size = n + abs(k)
    rows, cols = _diagonal_positions(size, size, k)
    eye = creation.eye(size, dtype=v.dtype, device=v.device)
    r, c = eye[rows], eye[cols]  # [n, size] one-hot
    return call.wrap((r.T.unsqueeze(0) * v.unsqueeze(1)) @ c)


@op(batch=_batched_diag, methods="diag", saves=("k",))
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


def _batched_trace(call: BatchedCall):
    """``trace`` of a batch of matrices: their diagonals picked by one indexing, summed."""
    v = call.value(call.args[0])
    if v is None or v.dim() != 3:
        return call.loop()
    rows, cols = _diagonal_positions(v.shape[1], v.shape[2], 0)
    picked = v[:, rows, cols]
    return call.wrap(picked.sum(1) if v.dtype.kind == "f" else picked.long().sum(1))


@op(batch=_batched_trace, methods="trace", saves=("eye",))
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


def _batched_cross(call: BatchedCall):
    """``cross``: along the entries' ``dim`` (by default their first dim of size 3), one dim further in."""
    a, b = call.get("input"), call.get("other")
    dim = call.get("dim")
    rank = call.rank(a)
    if rank == 0 or call.rank(b) != rank or not isinstance(dim, (int, type(None))):
        return call.loop()
    shapes = [tuple(x.shape) for x in (a, b)]  # the entries' shapes
    if dim is None:
        common = tuple(max(m, n) for m, n in zip(*shapes))
        dim = next((i for i, n in enumerate(common) if n == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    va, vb = call.value(a), call.value(b)
    left = a.unsqueeze(0) if va is None else va
    right = b.unsqueeze(0) if vb is None else vb
    return call.wrap(call.run(call.fn, left, right, dim=call.physical(dim, rank)))


@op(batch=_batched_cross, methods="cross", saves=("a", "ax", "b"))
def cross(input: Tensor, other: Tensor, dim: Dim = None) -> Tensor:  # noqa: A002
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


@op(batch=BY_DIM)
def vector_norm(x: Tensor, ord=2, dim: Dim = None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A002
    """``torch.linalg.vector_norm``: the ``ord``-norm of ``x`` over ``dim`` (all elements when None)."""
    x = check_tensor(x, "linalg_vector_norm", "input")
    if x.array.ndim == 0 and dim is not None:
        normalize_dims(dim, 0)
    return norm(x, ord, dim, keepdim, dtype)


bind_methods(Tensor, __name__)
