"""Matrix products: matmul (1-D, 2-D, batched with broadcasting)."""

from __future__ import annotations

from ..tensor import Tensor, make, shape_str
from ._util import binary_arrays, unbroadcast

__all__ = ["matmul"]


def _matmul_error(a: Tensor, b: Tensor) -> RuntimeError:
    sa, sb = a.data.shape, b.data.shape
    if len(sa) == 2 and len(sb) == 2:
        return RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({sa[0]}x{sa[1]} and {sb[0]}x{sb[1]})")
    return RuntimeError(f"matmul: shapes {shape_str(sa)} and {shape_str(sb)} cannot be multiplied")


def matmul(a: Tensor, b: Tensor) -> Tensor:
    """Matrix product with NumPy/PyTorch semantics for 1-D, 2-D and batched operands."""
    if not isinstance(b, Tensor) or not isinstance(a, Tensor):
        raise TypeError("matmul(): arguments must be Tensors")
    if a.data.ndim == 0 or b.data.ndim == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {a.data.ndim}D and {b.data.ndim}D"
        )
    ad, bd = binary_arrays(a, b, "matmul")
    try:
        out = ad @ bd
    except ValueError:
        raise _matmul_error(a, b) from None
    a_vec, b_vec = a.data.ndim == 1, b.data.ndim == 1
    a_shape, b_shape = a.data.shape, b.data.shape

    def backward(g):
        # Treat vectors as (1, k) / (k, 1) matrices, then undo broadcasting and the promotion.
        A = a.reshape(1, -1) if a_vec else a
        Bm = b.reshape(-1, 1) if b_vec else b
        if a_vec:
            g = g.unsqueeze(-2)
        if b_vec:
            g = g.unsqueeze(-1)
        ga = gb = None
        if a._rg:
            ga = unbroadcast(g @ Bm.transpose(-1, -2), A.data.shape).reshape(a_shape)
        if b._rg:
            gb = unbroadcast(A.transpose(-1, -2) @ g, Bm.data.shape).reshape(b_shape)
        return ga, gb

    return make(out, (a, b), backward, "matmul")


def _bind() -> None:
    Tensor.__matmul__ = Tensor.matmul = matmul
    Tensor.__rmatmul__ = lambda self, other: matmul(other if isinstance(other, Tensor) else Tensor(other), self)


_bind()
