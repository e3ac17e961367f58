"""Linear algebra beyond products (``torch.linalg``): inv, det, slogdet, solve, cholesky, eigh, svd,
svdvals, qr as ops with their rules; pinv, lstsq, matrix_norm and norm composed of them.

Every op works on the last two dims and batches over the others. A decomposition's outputs come
from one node (its factors packed side by side) and are read out of it by indexing, so a rule sees
the gradients of all the factors at once, as the mathematics needs. The rules are the standard
ones (Giles 2008, "An extended collection of matrix derivative results"; Townsend 2016 for the SVD;
Murray 2016 for Cholesky), written with Tensor ops so that they can be differentiated again.
"""

from __future__ import annotations

import collections
import weakref

from .. import backend
from ..tensor import Tensor, make, make_leaf, shape_str
from ._util import check_tensor
from .arranging import diag_embed
from .elementwise import where
from .matrix import vector_norm
from .shape import cat

# the top-level names (torch.det, torch.inverse...); LINALG_NAMES are torch.linalg's (ops/linalg.py imports them)
__all__ = ["inverse", "det", "slogdet", "logdet", "pinverse"]
LINALG_NAMES = (
    "inv",
    "det",
    "slogdet",
    "solve",
    "cholesky",
    "eigh",
    "eigvalsh",
    "svd",
    "svdvals",
    "qr",
    "pinv",
    "lstsq",
    "matrix_norm",
    "norm",
    "vector_norm",
)

SlogdetResult = collections.namedtuple("slogdet", ["sign", "logabsdet"])
EighResult = collections.namedtuple("eigh", ["eigenvalues", "eigenvectors"])
SvdResult = collections.namedtuple("svd", ["U", "S", "Vh"])
QrResult = collections.namedtuple("qr", ["Q", "R"])
LstsqResult = collections.namedtuple("lstsq", ["solution", "residuals", "rank", "singular_values"])


def _matrices(x, op: str, square: bool = True) -> Tensor:
    a = check_tensor(x, op, "A")
    if a.array.ndim < 2:
        raise RuntimeError(f"linalg.{op}: The input tensor A must have at least 2 dimensions.")
    if square and a.array.shape[-1] != a.array.shape[-2]:
        raise RuntimeError(
            f"linalg.{op}: A must be batches of square matrices, but they are {a.array.shape[-2]} by "
            f"{a.array.shape[-1]} matrices"
        )
    if a.array.dtype.kind != "f":
        raise RuntimeError(
            f"linalg.{op}: Expected a floating point or complex tensor as input. Got {backend.scalar_type_name(a.array.dtype)}"
        )
    return a


def _eye_like(a: Tensor, n: int) -> Tensor:
    return make_leaf(a.device.xp.eye(n, dtype=a.array.dtype), a.device)


def _diag(v: Tensor) -> Tensor:
    """A batch of diagonal matrices from a batch of vectors."""
    return diag_embed(v)


def _diagonal(m: Tensor) -> Tensor:
    return m.diagonal(0, -2, -1)


def _off_diagonal_reciprocal(w: Tensor, squared: bool = False) -> Tensor:
    """F[i, j] = 1 / (w_j - w_i) off the diagonal (of squares, with ``squared``), 0 on it: a constant."""
    xp = w.device.xp
    d = w.array * w.array if squared else w.array
    gaps = d[..., None, :] - d[..., :, None]
    n = d.shape[-1]
    off = ~xp.eye(n, dtype=bool)
    with backend.quiet(xp):
        f = xp.where(off, 1 / xp.where(off, gaps, 1), 0)
    return make_leaf(f.astype(w.array.dtype), w.device)


def _packed_parts(packed: Tensor, shapes: list) -> list:
    """The factors of a packed node: the last dim of ``packed`` holds each factor flattened, in turn."""
    parts, start = [], 0
    batch = packed.array.shape[:-1]
    for shape in shapes:
        size = 1
        for s in shape:
            size *= s
        parts.append(packed.narrow(-1, start, size).reshape(*batch, *shape))
        start += size
    return parts


def _pack(arrays: list, batch: tuple, xp):
    """The factors flattened side by side along one last dim, after the batch dims."""
    return xp.concatenate([a.reshape(*batch, -1) for a in arrays], axis=-1)


# ---------------------------------------------------------------- inverse, determinant, solve
def inv(A: Tensor) -> Tensor:  # noqa: N803  (torch's argument name)
    """The inverse of each square matrix; d(A^-1) = -A^-1 dA A^-1."""
    a = _matrices(A, "inv")
    xp = a.device.xp
    try:
        out = xp.linalg.inv(a.array)
    except Exception as e:  # NumPy's LinAlgError, CuPy's
        raise RuntimeError(
            "linalg.inv: The diagonal element 1 is zero, the inversion could not be completed because "
            "the input matrix is singular."
        ) from e

    def backward(g):
        y = out_ref()
        return (-(y.mT @ g @ y.mT),)

    def jvp(t):
        y = a.inverse()
        return -(y @ t @ y)

    result = make(out, (a,), backward, "linalg_inv", jvp)
    out_ref = weakref.ref(result)
    return result


inverse = inv


def det(A: Tensor) -> Tensor:  # noqa: N803
    """The determinant of each square matrix; d(det A) = det A * trace(A^-1 dA)."""
    a = _matrices(A, "det")

    def backward(g):
        return ((g * a.det())[..., None, None] * a.inverse().mT,)

    def jvp(t):
        return a.det() * (a.inverse().mT * t).sum((-2, -1))

    return make(a.device.xp.linalg.det(a.array), (a,), backward, "linalg_det", jvp)


def _logabsdet(a: Tensor, logabs) -> Tensor:
    def backward(g):
        return (g[..., None, None] * a.inverse().mT,)

    def jvp(t):
        return (a.inverse().mT * t).sum((-2, -1))

    return make(logabs, (a,), backward, "linalg_slogdet", jvp)


def slogdet(A: Tensor):  # noqa: N803
    """(sign, log |det|) of each square matrix; the sign is not differentiable."""
    a = _matrices(A, "slogdet")
    sign, logabs = a.device.xp.linalg.slogdet(a.array)
    return SlogdetResult(make_leaf(sign.astype(a.array.dtype), a.device), _logabsdet(a, logabs))


def logdet(input: Tensor) -> Tensor:  # noqa: A002
    """log det A: NaN for a negative determinant, -inf for a zero one."""
    sign, logabs = slogdet(input)
    return where(sign < 0, float("nan"), logabs)


def _solve_arrays(xp, a, b):
    try:
        return xp.linalg.solve(a, b)
    except Exception as e:
        raise RuntimeError("torch.linalg.solve: The solver failed because the input matrix is singular.") from e


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:  # noqa: N803
    """X with A X = B (``left=False``: X A = B); B a matrix or a batch of vectors. dX = A^-1 (dB - dA X)."""
    a = _matrices(A, "solve")
    b = check_tensor(B, "solve", "B")
    if not left:
        return solve(a.mT, b.mT).mT
    vector = b.array.ndim == 1 or (b.array.ndim == a.array.ndim - 1 and b.array.shape == a.array.shape[:-1])
    if vector:
        return solve(a, b.unsqueeze(-1)).squeeze(-1)
    if b.array.shape[-2] != a.array.shape[-1]:
        raise RuntimeError(
            f"linalg.solve: Incompatible shapes of A and B for the equation AX = B ({a.array.shape[-2]}x"
            f"{a.array.shape[-1]} and {b.array.shape[-2]}x{b.array.shape[-1]})"
        )
    xp = a.device.xp
    dt = backend.result_dtype(a, b)
    out = _solve_arrays(xp, a.array.astype(dt, copy=False), b.array.astype(dt, copy=False))

    def backward(g):
        gb = solve(a.mT, g)
        return lambda: -(gb @ solve(a, b).mT), lambda: gb

    def jvp(ta, tb):
        return solve(a, tb - ta @ solve(a, b))

    return make(out, (a, b), backward, "linalg_solve", jvp)


# ---------------------------------------------------------------- Cholesky
def _phi(m: Tensor) -> Tensor:
    """The lower triangle of ``m`` with its diagonal halved."""
    return m.tril() - _diag(_diagonal(m)) * 0.5


def cholesky(A: Tensor, *, upper: bool = False) -> Tensor:  # noqa: N803
    """L, lower triangular with A = L L^T, for each symmetric positive-definite A (``upper``: L^T)."""
    a = _matrices(A, "cholesky")
    xp = a.device.xp
    try:
        out = xp.linalg.cholesky(a.array)
    except Exception as e:
        raise RuntimeError(
            "linalg.cholesky: The factorization could not be completed because the input is not positive-definite."
        ) from e

    def backward(g):
        low = a.cholesky()
        low_inv = low.inverse()
        s = low_inv.mT @ _phi(low.mT @ g) @ low_inv
        return ((s + s.mT) * 0.5,)

    def jvp(t):
        low = a.cholesky()
        low_inv = low.inverse()
        return low @ _phi(low_inv @ t @ low_inv.mT)

    low = make(out, (a,), backward, "linalg_cholesky", jvp)
    return low.mT if upper else low


# ---------------------------------------------------------------- symmetric eigendecomposition
def eigh(A: Tensor, UPLO: str = "L"):  # noqa: N803
    """(eigenvalues ascending, eigenvectors as columns) of each symmetric matrix (its ``UPLO`` triangle read)."""
    a = _matrices(A, "eigh")
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    xp = a.device.xp
    w, v = xp.linalg.eigh(a.array, UPLO=UPLO)
    n = a.array.shape[-1]

    def backward(g):
        gw, gv = _packed_parts(g, [(n,), (n, n)])
        vals, vecs = _packed_parts(packed_ref(), [(n,), (n, n)])
        inner = _diag(gw) + _off_diagonal_reciprocal(vals.detach()) * (vecs.mT @ gv)
        return (vecs @ inner @ vecs.mT,)

    def jvp(t):
        vals, vecs = eigh(a)
        inner = vecs.mT @ t @ vecs
        return _pack_tensors(
            [_diagonal(inner), vecs @ (_off_diagonal_reciprocal(vals.detach()) * inner)], a.array.shape[:-2]
        )

    packed = make(_pack([w, v], a.array.shape[:-2], xp), (a,), backward, "linalg_eigh", jvp)
    packed_ref = weakref.ref(packed)
    vals, vecs = _packed_parts(packed, [(n,), (n, n)])
    return EighResult(vals, vecs)


def eigvalsh(A: Tensor, UPLO: str = "L") -> Tensor:  # noqa: N803
    """The eigenvalues (ascending) of each symmetric matrix."""
    return eigh(A, UPLO).eigenvalues


def _pack_tensors(parts: list, batch: tuple) -> Tensor:
    """``_pack`` of tensors (a jvp's tangents of the factors)."""
    return cat([p.reshape(*batch, -1) for p in parts], -1)


# ---------------------------------------------------------------- singular values
def svd(A: Tensor, full_matrices: bool = True, *, driver=None):  # noqa: N803
    """(U, S, Vh) with A = U diag(S) Vh, singular values descending. Gradients are for the reduced
    form (``full_matrices=False``), as in PyTorch."""
    a = _matrices(A, "svd", square=False)
    xp = a.device.xp
    m, n = a.array.shape[-2:]
    k = min(m, n)
    if full_matrices and m != n:
        u, s, vh = xp.linalg.svd(a.array, full_matrices=True)
        if a.requires_grad:
            raise NotImplementedError(
                "torch.linalg.svd: the gradient of full_matrices=True of a non-square matrix is not implemented "
                "(PyTorch refuses it too); use full_matrices=False"
            )
        return SvdResult(*(make_leaf(x, a.device) for x in (u, s, vh)))
    u, s, vh = xp.linalg.svd(a.array, full_matrices=False)
    shapes = [(m, k), (k,), (k, n)]

    def backward(g):
        gu, gs, gvh = _packed_parts(g, shapes)
        uu, ss, vvh = (p.detach() for p in _packed_parts(packed_ref(), shapes))
        f = _off_diagonal_reciprocal(ss, squared=True)
        v, gv = vvh.mT, gvh.mT
        ut_gu, vt_gv = uu.mT @ gu, v.mT @ gv
        core = (f * (ut_gu - ut_gu.mT)) * ss[..., None, :] + _diag(gs) + ss[..., :, None] * (f * (vt_gv - vt_gv.mT))
        s_inv = 1 / ss
        outside_u = (_eye_like(a, m) - uu @ uu.mT) @ gu * s_inv[..., None, :] @ vvh
        outside_v = uu @ (s_inv[..., :, None] * gv.mT) @ (_eye_like(a, n) - v @ vvh)
        return (uu @ core @ vvh + outside_u + outside_v,)

    def jvp(t):
        uu, ss, vvh = svd(a, full_matrices=False)
        v = vvh.mT
        f = _off_diagonal_reciprocal(ss.detach(), squared=True)
        p = uu.mT @ t @ v
        s_inv = 1 / ss
        du = uu @ (f * (p * ss[..., None, :] + ss[..., :, None] * p.mT)) + (
            (_eye_like(a, m) - uu @ uu.mT) @ t @ v * s_inv[..., None, :]
        )
        dv = v @ (f * (ss[..., :, None] * p + p.mT * ss[..., None, :])) + (
            (_eye_like(a, n) - v @ vvh) @ t.mT @ uu * s_inv[..., None, :]
        )
        return _pack_tensors([du, _diagonal(p), dv.mT], a.array.shape[:-2])

    packed = make(_pack([u, s, vh], a.array.shape[:-2], xp), (a,), backward, "linalg_svd", jvp)
    packed_ref = weakref.ref(packed)
    return SvdResult(*_packed_parts(packed, shapes))


def svdvals(A: Tensor, *, driver=None) -> Tensor:  # noqa: N803
    """The singular values of each matrix, descending; dS = diag(U^T dA V)."""
    a = _matrices(A, "svdvals", square=False)
    xp = a.device.xp
    u, s, vh = xp.linalg.svd(a.array, full_matrices=False)
    left, right = make_leaf(u, a.device), make_leaf(vh, a.device)

    def backward(g):
        return (left @ _diag(g) @ right,)

    def jvp(t):
        return _diagonal(left.mT @ t @ right.mT)

    return make(s, (a,), backward, "linalg_svdvals", jvp)


# ---------------------------------------------------------------- QR
def qr(A: Tensor, mode: str = "reduced"):  # noqa: N803
    """(Q, R) with A = Q R, Q with orthonormal columns, R upper triangular (``mode``: 'reduced',
    'complete' or 'r'). Gradients for the reduced form with at least as many rows as columns."""
    a = _matrices(A, "qr", square=False)
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(
            f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or 'complete'"
        )
    xp = a.device.xp
    m, n = a.array.shape[-2:]
    if mode == "r":
        return QrResult(make_leaf(xp.zeros((0,), dtype=a.array.dtype), a.device), qr(a).R)
    if (mode == "complete" and m > n) or m < n:
        q, r = xp.linalg.qr(a.array, mode=mode)
        if a.requires_grad:
            raise NotImplementedError(
                f"linalg.qr: the gradient of a {m} by {n} matrix in mode '{mode}' is not implemented here; use mode="
                "'reduced' with at least as many rows as columns"
            )
        return QrResult(make_leaf(q, a.device), make_leaf(r, a.device))
    q, r = xp.linalg.qr(a.array, mode="reduced")
    shapes = [(m, n), (n, n)]

    def backward(g):
        gq, gr = _packed_parts(g, shapes)
        qq, rr = (p.detach() for p in _packed_parts(packed_ref(), shapes))
        middle = rr @ gr.mT - gq.mT @ qq
        sym = middle.tril(-1) + middle.tril(-1).mT + _diag(_diagonal(middle))
        return ((gq + qq @ sym) @ rr.inverse().mT,)

    def jvp(t):
        qq, rr = qr(a)
        r_inv = rr.inverse()
        x = qq.mT @ t @ r_inv
        omega = x.tril(-1) - x.tril(-1).mT
        dr = (x - omega) @ rr
        return _pack_tensors([(t - qq @ dr) @ r_inv, dr], a.array.shape[:-2])

    packed = make(_pack([q, r], a.array.shape[:-2], xp), (a,), backward, "linalg_qr", jvp)
    packed_ref = weakref.ref(packed)
    return QrResult(*_packed_parts(packed, shapes))


# ---------------------------------------------------------------- composed of the above
def pinv(A: Tensor, *, atol=None, rtol=None, hermitian: bool = False) -> Tensor:  # noqa: N803
    """The Moore-Penrose pseudo-inverse, V diag(1/S) U^T over the singular values above the cutoff
    max(atol, rtol * largest); rtol defaults to max(m, n) * eps when neither is given."""
    a = _matrices(A, "pinv", square=False)
    u, s, vh = svd(a, full_matrices=False)
    m, n = a.array.shape[-2:]
    eps = float(a.device.xp.finfo(a.array.dtype).eps)
    if rtol is None:
        rtol = max(m, n) * eps if atol is None or atol == 0 else 0.0
    largest = s.detach().amax(-1, keepdim=True) if s.array.shape[-1] else s.detach()
    cutoff = (largest * rtol).clamp(min=0.0 if atol is None else atol)
    kept = s > cutoff
    s_inv = where(kept, 1 / where(kept, s, 1.0), 0.0)
    return (vh.mT * s_inv[..., None, :]) @ u.mT


def lstsq(A: Tensor, B: Tensor, rcond=None, *, driver=None):  # noqa: N803
    """The least-squares solution X of A X = B, as pinv(A) @ B; (solution, residuals, rank,
    singular_values) with residuals and singular values empty, as with PyTorch's default driver."""
    a = _matrices(A, "lstsq", square=False)
    b = check_tensor(B, "lstsq", "B")
    vector = b.array.ndim == a.array.ndim - 1
    rhs = b.unsqueeze(-1) if vector else b
    if rhs.array.shape[-2] != a.array.shape[-2]:
        raise RuntimeError(
            f"torch.linalg.lstsq: input.size(-2) should match other.size(-2), but got {shape_str(a.array.shape)} and "
            f"{shape_str(b.array.shape)}"
        )
    solution = pinv(a, rtol=rcond) @ rhs
    xp = a.device.xp
    rank = xp.linalg.matrix_rank(a.array).astype(backend.int64)
    empty = xp.zeros((0,), dtype=a.array.dtype)
    return LstsqResult(
        solution.squeeze(-1) if vector else solution,
        make_leaf(empty, a.device),
        make_leaf(xp.asarray(rank), a.device),
        make_leaf(empty.copy(), a.device),
    )


def matrix_norm(A: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: N803,A002
    """A matrix norm over ``dim``: 'fro', 'nuc', inf/-inf (max/min absolute row sum), 1/-1 (column
    sum), 2/-2 (largest/smallest singular value)."""
    a = check_tensor(A, "matrix_norm", "A")
    if a.array.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if dtype is not None:
        a = a.to(dtype)
    d0, d1 = (d % a.array.ndim for d in dim)
    if ord == "fro":
        return a.norm(2, dim=(d0, d1), keepdim=keepdim)
    moved = a.movedim((d0, d1), (-2, -1))
    if ord in ("nuc", 2, -2):
        s = svdvals(moved)
        out = s.sum(-1) if ord == "nuc" else (s.amax(-1) if ord == 2 else s.amin(-1))
    elif ord in (1, -1, float("inf"), float("-inf")):
        sums = moved.abs().sum(-2 if ord in (1, -1) else -1)
        out = sums.amax(-1) if ord in (1, float("inf")) else sums.amin(-1)
    else:
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if keepdim:
        for d in sorted((d0, d1)):
            out = out.unsqueeze(d)
    return out


def norm(A: Tensor, ord=None, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: N803,A002
    """``vector_norm`` for an int ``dim`` or a vector, ``matrix_norm`` for two dims or a matrix with ``ord``;
    with neither, the 2-norm of all elements."""
    a = check_tensor(A, "linalg_norm", "A")
    if dim is not None and not isinstance(dim, int) and len(dim) == 2:
        return matrix_norm(a, "fro" if ord is None else ord, dim, keepdim, dtype=dtype)
    if ord is not None and dim is None and a.array.ndim == 2:
        return matrix_norm(a, ord, (-2, -1), keepdim, dtype=dtype)
    if ord is not None and dim is None and a.array.ndim != 1:
        raise RuntimeError(
            f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {a.array.ndim}D."
        )
    return vector_norm(a, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:  # noqa: A002
    """``linalg.pinv(input, rtol=rcond)`` (torch.pinverse)."""
    return pinv(input, rtol=rcond)


def _tensor_cholesky(self: Tensor, upper: bool = False) -> Tensor:
    """``linalg.cholesky`` (the method form, torch's Tensor.cholesky)."""
    return cholesky(self, upper=upper)


def _bind() -> None:
    Tensor.inverse, Tensor.det, Tensor.slogdet, Tensor.logdet = inv, det, slogdet, logdet
    Tensor.cholesky, Tensor.pinverse = _tensor_cholesky, pinverse


_bind()
