"""Linear algebra beyond products (``torch.linalg``): inv, det, slogdet, solve, cholesky, eigh, svd,
svdvals, qr, matrix_exp and lu_factor as ops with their rules; pinv, lstsq, matrix_norm, norm and lu
composed of them; matrix_rank (a count, with no gradient).

Every op works on the last two dims and batches over the others. A decomposition's outputs come
from one node (its factors packed side by side) and are read out of it by indexing, so a rule sees
the gradients of all the factors at once, as the mathematics needs. The rules are the standard
ones (Giles 2008, "An extended collection of matrix derivative results"; Townsend 2016 for the SVD;
Murray 2016 for Cholesky), written with Tensor ops so that they can be differentiated again.
"""

from __future__ import annotations

import collections
import warnings
import weakref

from .. import backend
from ..tensor import Tensor, make, make_leaf, shape_str
from ._util import check_tensor
from .arranging import diag_embed
from .declare import LOOP, TRAILING, bind_methods, op, rules_saving
from .elementwise import where
from .matrix import vector_norm
from .shape import cat
from .types import Dim

# the top-level names (torch.det, torch.inverse...); LINALG_NAMES are torch.linalg's (ops/linalg.py imports them)
__all__ = ["inverse", "det", "slogdet", "logdet", "pinverse", "matrix_exp"]
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
    "matrix_rank",
    "matrix_exp",
    "lu_factor",
    "lu",
)

SlogdetResult = collections.namedtuple("slogdet", ["sign", "logabsdet"])
EighResult = collections.namedtuple("eigh", ["eigenvalues", "eigenvectors"])
SvdResult = collections.namedtuple("svd", ["U", "S", "Vh"])
QrResult = collections.namedtuple("qr", ["Q", "R"])
LstsqResult = collections.namedtuple("lstsq", ["solution", "residuals", "rank", "singular_values"])
LuFactorResult = collections.namedtuple("linalg_lu_factor", ["LU", "pivots"])
LuResult = collections.namedtuple("linalg_lu", ["P", "L", "U"])


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
@op(batch=LOOP, methods="inverse", saves=("out_ref",))
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


@op(batch=LOOP, methods="det", saves=("a",))
def det(A: Tensor) -> Tensor:  # noqa: N803
    """The determinant of each square matrix; d(det A) = det A * trace(A^-1 dA)."""
    a = _matrices(A, "det")

    def backward(g):
        return ((g * a.det())[..., None, None] * a.inverse().mT,)

    def jvp(t):
        return a.det() * (a.inverse().mT * t).sum((-2, -1))

    return make(a.device.xp.linalg.det(a.array), (a,), backward, "linalg_det", jvp)


@rules_saving(("a",))
def _logabsdet(a: Tensor, logabs) -> Tensor:
    def backward(g):
        return (g[..., None, None] * a.inverse().mT,)

    def jvp(t):
        return (a.inverse().mT * t).sum((-2, -1))

    return make(logabs, (a,), backward, "linalg_slogdet", jvp)


@op(batch=LOOP, methods="slogdet")
def slogdet(A: Tensor):  # noqa: N803
    """(sign, log |det|) of each square matrix; the sign is not differentiable."""
    a = _matrices(A, "slogdet")
    sign, logabs = a.device.xp.linalg.slogdet(a.array)
    return SlogdetResult(make_leaf(sign.astype(a.array.dtype), a.device), _logabsdet(a, logabs))


@op(batch=LOOP, methods="logdet")
def logdet(input: Tensor) -> Tensor:  # noqa: A002
    """log det A: NaN for a negative determinant, -inf for a zero one."""
    sign, logabs = slogdet(input)
    return where(sign < 0, float("nan"), logabs)


def _solve_arrays(xp, a, b):
    try:
        return xp.linalg.solve(a, b)
    except Exception as e:
        raise RuntimeError("torch.linalg.solve: The solver failed because the input matrix is singular.") from e


@op(batch=LOOP, saves=("a", "b"))
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


@op(batch=LOOP, saves=("a",))
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
@op(batch=LOOP, saves=("n", "packed_ref"))
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


@op(batch=LOOP)
def eigvalsh(A: Tensor, UPLO: str = "L") -> Tensor:  # noqa: N803
    """The eigenvalues (ascending) of each symmetric matrix."""
    return eigh(A, UPLO).eigenvalues


def _pack_tensors(parts: list, batch: tuple) -> Tensor:
    """``_pack`` of tensors (a jvp's tangents of the factors)."""
    return cat([p.reshape(*batch, -1) for p in parts], -1)


# ---------------------------------------------------------------- singular values
@op(batch=LOOP, saves=("a", "m", "n", "packed_ref", "shapes"))
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


@op(batch=LOOP, saves=("left", "right"))
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
@op(batch=LOOP, saves=("packed_ref", "shapes"))
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
@op(batch=LOOP)
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


@op(batch=LOOP)
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


@op(batch=LOOP)
def matrix_norm(A: Tensor, ord="fro", dim: Dim = (-2, -1), keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: N803,A002
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


@op(batch=LOOP)
def norm(A: Tensor, ord=None, dim: Dim = None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: N803,A002
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


# ---------------------------------------------------------------- rank, exponential, LU
@op(batch=TRAILING)
def matrix_rank(A: Tensor, tol=None, hermitian: bool = False, *, atol=None, rtol=None) -> Tensor:  # noqa: N803
    """The number of singular values of each matrix above ``max(atol, rtol * largest)`` (int64; a count has
    no gradient). Without either, ``rtol`` is the dtype's eps times ``max(m, n)``; with only ``atol`` above
    0, ``rtol`` is 0; ``tol`` (torch's older argument) is ``atol`` with ``rtol=0``."""
    a = check_tensor(A, "matrix_rank", "A")
    if a.array.ndim < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    if a.array.dtype.kind != "f":
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, 0.0
    xp = a.device.xp
    d = a.array
    if hermitian:
        s = xp.abs(xp.linalg.eigvalsh(d))
    else:
        s = xp.linalg.svd(d, compute_uv=False)
    if rtol is None:
        rtol = 0.0 if atol is not None and _positive(atol) else xp.finfo(d.dtype).eps * max(d.shape[-2:])
    largest = s.max(-1, keepdims=True) if s.shape[-1] else xp.zeros(s.shape[:-1] + (1,), s.dtype)
    bound = xp.maximum(_bound(atol, xp), _bound(rtol, xp) * largest)
    return make_leaf((s > bound).sum(-1).astype(xp.int64), a.device)


def _positive(value) -> bool:
    return bool(value.array.min() > 0) if isinstance(value, Tensor) else value > 0


def _bound(value, xp):
    """A tolerance (a number or a tensor of one per matrix) as an array that broadcasts against (..., 1)."""
    if value is None:
        return xp.zeros(())
    if isinstance(value, Tensor):
        return value.array[..., None]
    return xp.asarray(value)


_TAYLOR_DEGREE = 18  # with the 1-norm scaled to at most 1, the series' tail is below 1/19! ~ 8e-18


def _expm_array(xp, d):
    """exp of each square matrix by scaling and squaring a degree-18 Taylor polynomial (as PyTorch,
    after Bader, Blanes and Casas 2019), computed in float64."""
    work = d.astype(xp.float64)
    norm = xp.abs(work).sum(-2).max(-1) if work.shape[-1] else xp.zeros(work.shape[:-2])
    with backend.quiet(xp):
        squarings = xp.maximum(xp.ceil(xp.log2(xp.maximum(norm, 1.0))), 0).astype(xp.int64)
    work = work / (2.0**squarings)[..., None, None]
    eye = xp.eye(work.shape[-1])
    out = eye
    for k in range(_TAYLOR_DEGREE, 0, -1):
        out = eye + work @ out / k
    for step in range(int(squarings.max()) if squarings.size else 0):
        out = xp.where((squarings > step)[..., None, None], out @ out, out)
    return out.astype(d.dtype, copy=False)


def _upper_right_block(top_left: Tensor, top_right: Tensor) -> Tensor:
    """The upper-right block of exp([[M, E], [0, M]]): the derivative of exp at M in the direction E."""
    n = top_left.shape[-1]
    zeros = make_leaf(top_left.device.xp.zeros(top_left.array.shape, top_left.array.dtype), top_left.device)
    block = cat([cat([top_left, top_right], -1), cat([zeros, top_left], -1)], -2)
    return matrix_exp(block)[..., :n, n:]


@op(batch=TRAILING, methods="matrix_exp", saves=("a",))
def matrix_exp(A: Tensor) -> Tensor:  # noqa: N803
    """The matrix exponential of each square matrix. Its vector-Jacobian product at G is the upper-right
    block of exp([[A^T, G], [0, A^T]]) (and its jvp at T that of exp([[A, T], [0, A]]))."""
    a = _matrices(A, "matrix_exp")

    def backward(g):
        return (_upper_right_block(a.mT, g),)

    def jvp(t):
        return _upper_right_block(a, t)

    return make(_expm_array(a.device.xp, a.array), (a,), backward, "linalg_matrix_exp", jvp)


def _scipy_lu_factor(xp, op: str):
    """SciPy's (CuPy's) ``lu_factor``; a clear error where SciPy is not installed."""
    try:
        if xp.__name__ == "numpy":
            from scipy.linalg import lu_factor as factor
        else:
            from cupyx.scipy.linalg import lu_factor as factor
    except ImportError:
        raise RuntimeError(f"torch.linalg.{op}: minigrad's LU decomposition needs SciPy (pip install scipy)") from None
    return factor


def _lu_arrays(a: Tensor, op: str):
    """The packed factors (L below the diagonal, U on and above it) and 0-based row swaps of each matrix."""
    xp = a.device.xp
    factor = _scipy_lu_factor(xp, op)
    d = a.array
    batch, (m, n) = d.shape[:-2], d.shape[-2:]
    flat = d.reshape((-1, m, n))
    packed, swaps = xp.empty_like(flat), xp.empty((flat.shape[0], min(m, n)), xp.int64)
    with backend.quiet(xp), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SciPy's LinAlgWarning on a singular matrix: torch's lu says nothing
        for i in range(flat.shape[0]):  # SciPy's (and CuPy's) lu_factor takes one matrix
            lu, piv = factor(flat[i], check_finite=False)
            packed[i], swaps[i] = lu, piv
    return packed.reshape(d.shape), swaps.reshape(batch + (min(m, n),))


def _check_pivot(pivot: bool, device) -> None:
    if not pivot:  # torch names lu_factor for linalg.lu too
        raise RuntimeError(f"linalg.lu_factor: LU without pivoting is not implemented on the {device.type.upper()}")


def _permutation(a: Tensor, swaps) -> Tensor:
    """P with A = P L U, from LAPACK's row swaps (row i was swapped with row swaps[i], in turn)."""
    xp = a.device.xp
    m = a.array.shape[-2]
    flat = swaps.reshape((-1, swaps.shape[-1]))
    rows = xp.arange(flat.shape[0])
    order = xp.broadcast_to(xp.arange(m), (flat.shape[0], m)).copy()
    for i in range(flat.shape[1]):
        j = flat[:, i]
        first = order[rows, i].copy()
        order[rows, i] = order[rows, j]
        order[rows, j] = first
    perm = xp.zeros((flat.shape[0], m, m), a.array.dtype)
    perm[rows[:, None], order, xp.arange(m)[None, :]] = 1  # column i of P picks row order[i]
    return make_leaf(perm.reshape(a.array.shape[:-2] + (m, m)), a.device)


def _unpacked(lu: Tensor, m: int, n: int) -> tuple[Tensor, Tensor]:
    """L (m x k, unit diagonal) and U (k x n) from the packed factors, k = min(m, n)."""
    k = min(m, n)
    eye = make_leaf(lu.device.xp.eye(m, k, dtype=lu.array.dtype), lu.device)
    return lu[..., :, :k].tril(-1) + eye, lu[..., :k, :].triu()


@rules_saving(("m", "n", "out_ref", "perm"))
def _lu_node(a: Tensor, packed, perm: Tensor) -> Tensor:
    """The packed factors as one node. With A = P L U (square): the rule is
    gA = P L^-T (tril(L^T gL, -1) + triu(gU U^T)) U^-T, gL and gU being g's two triangles, and the
    jvp, with X = L^-1 P^T dA U^-1, is dL + dU = L tril(X, -1) + triu(X) U."""
    m, n = a.array.shape[-2:]

    def square_only():
        if m != n:
            raise NotImplementedError("linalg.lu_factor: minigrad's LU derivatives are for square matrices only")

    def backward(g):
        square_only()
        low, up = _unpacked(out_ref(), m, n)
        inner = (low.mT @ g).tril(-1) + (g @ up.mT).triu()
        return (perm @ low.inverse().mT @ inner @ up.inverse().mT,)

    def jvp(t):
        square_only()
        low, up = _unpacked(lu_factor(a).LU, m, n)
        x = low.inverse() @ perm.mT @ t @ up.inverse()
        return low @ x.tril(-1) + x.triu() @ up

    out = make(packed, (a,), backward, "linalg_lu_factor", jvp)
    out_ref = weakref.ref(out)
    return out


def _lu(A: Tensor, pivot: bool, op: str) -> tuple:  # noqa: N803
    a = check_tensor(A, op, "A")
    if a.array.ndim < 2:
        prefix = "torch.lu_factor" if op == "linalg.lu_factor" else op  # torch's own two spellings
        raise RuntimeError(
            f"{prefix}: Expected tensor with 2 or more dimensions. Got size: {shape_str(a.array.shape)} instead"
        )
    if a.array.dtype.kind != "f":
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{backend.scalar_type_name(a.array.dtype)}'")
    _check_pivot(pivot, a.device)
    packed, swaps = _lu_arrays(a, op)
    perm = _permutation(a, swaps)
    return _lu_node(a, packed, perm), swaps, perm


@op(batch=TRAILING)
def lu_factor(A: Tensor, *, pivot: bool = True) -> LuFactorResult:  # noqa: N803
    """(LU, pivots): L (unit diagonal, below) and U (on and above the diagonal) packed in one matrix, and
    the rows swapped, 1-based (int32), as LAPACK's getrf. A singular matrix is refused, as torch's."""
    lu, swaps, _ = _lu(A, pivot, "linalg.lu_factor")
    xp = lu.device.xp
    diagonal = xp.diagonal(lu.array, 0, -2, -1)
    zero = xp.argwhere(diagonal.reshape((-1, diagonal.shape[-1])) == 0)
    if zero.shape[0]:
        batch, i = (int(v) for v in zero[0])
        where_ = f"(Batch element {batch}): " if lu.array.ndim > 2 else ""
        raise RuntimeError(
            f"torch.linalg.lu_factor: {where_}U[{i + 1},{i + 1}] is zero and using it on lu_solve would result in "
            "a division by zero. If you still want to perform the factorization, consider calling linalg.lu(A, "
            "pivot) or linalg.lu_factor_ex(A, pivot)"
        )
    return LuFactorResult(lu, make_leaf((swaps + 1).astype(xp.int32), lu.device))


@op(batch=TRAILING)
def lu(A: Tensor, *, pivot: bool = True) -> LuResult:  # noqa: N803
    """(P, L, U) with A = P L U: P a permutation, L lower triangular with a unit diagonal (m x k), U upper
    triangular (k x n), k = min(m, n). L and U are read out of ``lu_factor``'s node, so one rule serves both."""
    packed, _, perm = _lu(A, pivot, "linalg.lu")
    low, up = _unpacked(packed, *packed.array.shape[-2:])
    return LuResult(perm, low, up)


@op(batch=LOOP, methods="pinverse")
def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:  # noqa: A002
    """``linalg.pinv(input, rtol=rcond)`` (torch.pinverse)."""
    return pinv(input, rtol=rcond)


@op(batch=LOOP, methods="cholesky")
def _tensor_cholesky(self: Tensor, upper: bool = False) -> Tensor:
    """``linalg.cholesky`` (the method form, torch's Tensor.cholesky)."""
    return cholesky(self, upper=upper)


bind_methods(Tensor, __name__)
