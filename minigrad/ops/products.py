"""Fused products as PyTorch defines them: addmm, addmv, addbmm, baddbmm, addcmul, addcdiv, and kron,
tensordot, dist, renorm.

Each is composed of the ops its definition names (``beta * input + alpha * (mat1 @ mat2)``), so
the debugger shows a matmul, a mul and an add, each with its own rule.
"""

from __future__ import annotations

from ..tensor import Tensor, make_leaf
from ._util import check_tensor, normalize_dims
from .declare import LOOP, bind_methods, op
from .elementwise import where

__all__ = ["addmm", "addmv", "addbmm", "baddbmm", "addcmul", "addcdiv", "kron", "tensordot", "dist", "renorm"]


def _scaled_sum(input: Tensor, product: Tensor, beta, alpha) -> Tensor:  # noqa: A002
    """beta * input + alpha * product; with beta 0 ``input`` is not read (its NaN does not pass), as in PyTorch."""
    scaled = product if alpha == 1 else product * alpha
    if beta == 0:
        return input.masked_fill(make_leaf(input.device.xp.ones((), dtype=bool), input.device), 0) + scaled
    return (input if beta == 1 else input * beta) + scaled


def _check_dims(t: Tensor, ndim: int, name: str) -> None:
    if t.array.ndim != ndim:
        what = "a matrix" if ndim == 2 else "a 3D tensor"
        raise RuntimeError(f"{name} must be {what}, got {t.array.ndim}-D tensor")


@op(batch=LOOP, methods="addmm")
def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1) -> Tensor:  # noqa: A002
    """beta * input + alpha * (mat1 @ mat2), ``input`` broadcast to the product's shape."""
    check_tensor(input, "addmm", "input")
    _check_dims(check_tensor(mat1, "addmm", "mat1"), 2, "mat1")
    _check_dims(check_tensor(mat2, "addmm", "mat2"), 2, "mat2")
    return _scaled_sum(input, mat1.mm(mat2), beta, alpha)


@op(batch=LOOP, methods="addmv")
def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta=1, alpha=1) -> Tensor:  # noqa: A002
    """beta * input + alpha * (mat @ vec)."""
    dims = tuple(check_tensor(t, "addmv", n).array.ndim for t, n in ((input, "input"), (mat, "mat"), (vec, "vec")))
    if dims[1:] != (2, 1) or dims[0] > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {', '.join(map(str, dims))}")
    return _scaled_sum(input, mat.mv(vec), beta, alpha)


@op(batch=LOOP, methods="baddbmm")
def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:  # noqa: A002
    """beta * input + alpha * (batch1 @ batch2), batch by batch."""
    check_tensor(input, "baddbmm", "input")
    _check_dims(check_tensor(batch1, "baddbmm", "batch1"), 3, "batch1")
    _check_dims(check_tensor(batch2, "baddbmm", "batch2"), 3, "batch2")
    return _scaled_sum(input, batch1.bmm(batch2), beta, alpha)


@op(batch=LOOP, methods="addbmm")
def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:  # noqa: A002
    """beta * input + alpha * the sum over the batch of batch1[i] @ batch2[i]."""
    check_tensor(input, "addbmm", "input")
    _check_dims(check_tensor(batch1, "addbmm", "batch1"), 3, "batch1")
    _check_dims(check_tensor(batch2, "addbmm", "batch2"), 3, "batch2")
    return _scaled_sum(input, batch1.bmm(batch2).sum(0), beta, alpha)


@op(batch=LOOP, methods="addcmul")
def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:  # noqa: A002
    """input + value * tensor1 * tensor2 (broadcast)."""
    product = check_tensor(tensor1, "addcmul", "tensor1") * check_tensor(tensor2, "addcmul", "tensor2")
    return check_tensor(input, "addcmul", "input") + (product if value == 1 else product * value)


@op(batch=LOOP, methods="addcdiv")
def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:  # noqa: A002
    """input + value * tensor1 / tensor2 (broadcast); integer divisions are refused, as in PyTorch."""
    t1, t2 = check_tensor(tensor1, "addcdiv", "tensor1"), check_tensor(tensor2, "addcdiv", "tensor2")
    if t1.array.dtype.kind in "biu" and t2.array.dtype.kind in "biu":
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future release addcdiv will perform a "
            "true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + "
            "value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * "
            "tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes."
        )
    quotient = t1 / t2
    return check_tensor(input, "addcdiv", "input") + (quotient if value == 1 else quotient * value)


@op(batch=LOOP, methods="kron")
def kron(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """The Kronecker product: every element of ``input`` times the whole of ``other``, in blocks."""
    a, b = check_tensor(input, "kron", "input"), check_tensor(other, "kron", "other")
    ndim = max(a.array.ndim, b.array.ndim)
    a = a.reshape(*((1,) * (ndim - a.array.ndim) + a.array.shape))
    b = b.reshape(*((1,) * (ndim - b.array.ndim) + b.array.shape))
    interleaved_a = a.reshape(*(s for n in a.array.shape for s in (n, 1)))
    interleaved_b = b.reshape(*(s for n in b.array.shape for s in (1, n)))
    return (interleaved_a * interleaved_b).reshape(*(m * n for m, n in zip(a.array.shape, b.array.shape)))


@op(batch=LOOP, methods="tensordot")
def tensordot(a: Tensor, b: Tensor, dims=2) -> Tensor:
    """Sum of products over ``dims``: the last ``dims`` of ``a`` with the first of ``b``, or the pairs
    of dims given as two lists; a matmul of the two reshaped to matrices."""
    a, b = check_tensor(a, "tensordot", "a"), check_tensor(b, "tensordot", "b")
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.array.ndim, b.array.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(a.array.ndim - dims, a.array.ndim)), list(range(dims))
    else:
        dims_a, dims_b = ([d] if isinstance(d, int) else list(d) for d in dims)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    dims_a = [normalize_dims(d, a.array.ndim)[0] for d in dims_a]  # one at a time: the pairing is by order
    dims_b = [normalize_dims(d, b.array.ndim)[0] for d in dims_b]
    for da, db in zip(dims_a, dims_b):
        if a.array.shape[da] != b.array.shape[db]:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {a.array.shape[da]} in dim {da} and second "
                f"has size {b.array.shape[db]} in dim {db}"
            )
    free_a = [d for d in range(a.array.ndim) if d not in dims_a]
    free_b = [d for d in range(b.array.ndim) if d not in dims_b]
    size = 1
    for d in dims_a:
        size *= a.array.shape[d]
    left = a.permute(*free_a, *dims_a).reshape(-1, size)
    right = b.permute(*dims_b, *free_b).reshape(size, -1)
    shape = [a.array.shape[d] for d in free_a] + [b.array.shape[d] for d in free_b]
    return left.mm(right).reshape(*shape)


@op(batch=LOOP, methods="dist")
def dist(input: Tensor, other: Tensor, p=2) -> Tensor:  # noqa: A002
    """The p-norm of input - other (broadcast)."""
    a, b = check_tensor(input, "dist", "input"), check_tensor(other, "dist", "other")
    return (a - b).norm(p)


@op(batch=LOOP, methods="renorm")
def renorm(input: Tensor, p, dim: int, maxnorm) -> Tensor:  # noqa: A002
    """Each slice along ``dim`` whose p-norm exceeds ``maxnorm`` scaled down to norm ``maxnorm``
    (by maxnorm / (norm + 1e-7), as PyTorch does); the others unchanged."""
    a = check_tensor(input, "renorm", "input")
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm}")
    if a.array.ndim <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {a.array.ndim} dimensions")
    (axis,) = normalize_dims(dim, a.array.ndim)
    others = tuple(d for d in range(a.array.ndim) if d != axis)
    norms = a.norm(p, dim=others, keepdim=True)
    return a * where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)


bind_methods(Tensor, __name__)
