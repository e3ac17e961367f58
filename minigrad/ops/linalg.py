"""Matrix products: matmul (1-D, 2-D, batched with broadcasting), mm, bmm, mv, dot, outer, einsum.

As in PyTorch, the operands of a product must share a dtype (no silent promotion):
mixing float32 weights with float64 data is almost always a bug worth hearing about.
"""

from __future__ import annotations

import functools
import operator

from .. import backend as B
from .._state import extras, grad
from ..tensor import Tensor, make, make_leaf, shape_str
from ._util import binary_arrays, check_same_device
from .declare import BatchedCall, batches_gradients, bind_methods, op, rules_saving
from .decompositions import (  # noqa: F401  (torch.linalg's names, as mg.linalg.solve...)
    cholesky,
    det,
    eigh,
    eigvalsh,
    inv,
    lstsq,
    lu,
    lu_factor,
    matrix_exp,
    matrix_norm,
    matrix_rank,
    norm,
    pinv,
    qr,
    slogdet,
    solve,
    svd,
    svdvals,
)
from .matrix import vector_norm  # noqa: F401  (torch.linalg.vector_norm, as mg.linalg.vector_norm)

__all__ = ["matmul", "mm", "bmm", "mv", "dot", "outer", "einsum"]


def _check_operands(a, b, op: str) -> None:
    if type(a) is Tensor and type(b) is Tensor and a.device is b.device and a.array.dtype is b.array.dtype:
        return  # the common case, in two tests
    if not isinstance(a, Tensor) or not isinstance(b, Tensor):
        bad = b if isinstance(a, Tensor) else a
        raise TypeError(f"{op}(): argument must be Tensor, not {type(bad).__name__}")
    check_same_device(a, b, op)
    if a.array.dtype != b.array.dtype:
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {a.array.dtype} != {b.array.dtype} (in {op})"
        )


def _matmul_error(a: Tensor, b: Tensor) -> RuntimeError:
    sa, sb = a.array.shape, b.array.shape
    if len(sa) == 2 and len(sb) == 2:
        return RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({sa[0]}x{sa[1]} and {sb[0]}x{sb[1]})")
    if len(sa) == 2 and len(sb) == 1:
        return RuntimeError(f"size mismatch, got input ({sa[0]}), mat ({sa[0]}x{sa[1]}), vec ({sb[0]})")
    if len(sa) == 1 and len(sb) == 1:
        return RuntimeError(
            f"inconsistent tensor size, expected tensor [{sa[0]}] and src [{sb[0]}] to have the same number of "
            f"elements, but got {sa[0]} and {sb[0]} elements respectively"
        )
    return RuntimeError(f"matmul: shapes {shape_str(sa)} and {shape_str(sb)} cannot be multiplied")


def _matmul(a: Tensor, b: Tensor, op: str) -> Tensor:
    ad, bd = a.array, b.array
    if (ad.ndim == 1 and bd.ndim > 2) or (bd.ndim == 1 and ad.ndim > 2):
        # a vector against a batch of matrices: as a one-row (one-column) matrix, the dim dropped after (PyTorch's graph)
        if ad.ndim == 1:
            return _matmul(a.unsqueeze(0), b, op).squeeze(-2)
        return _matmul(a, b.unsqueeze(-1), op).squeeze(-1)
    try:
        out = _product(ad, bd)
    except ValueError:
        raise _matmul_error(a, b) from None
    if not (grad.enabled or extras.on):  # no graph, no tangents: the rules are not kept
        return make(out, (a, b), None, op)
    return make(out, (a, b), _matmul_rule(a, b), op, lambda ta, tb: ta @ b + a @ tb)


def _product(ad, bd):
    """``ad @ bd``; a batch of matrices against one matrix (or one matrix broadcast over the batch) is one
    GEMM on the batch's rows folded together (NumPy's matmul runs one small GEMM per matrix: an LSTM's
    [35, 20, 200] @ [200, 800], one thread, 6.4 ms that way, 2.6 ms folded)."""
    if bd.ndim > 2 and ad.ndim >= bd.ndim:
        one = _repeated_matrix(bd)
        batch_a, batch_b = ad.shape[ad.ndim - bd.ndim : -2], bd.shape[:-2]
        if one is not None and all(nb in (1, na) for na, nb in zip(batch_a, batch_b)):
            bd = one  # one matrix broadcast over a's batch: the product against it, once
    if bd.ndim == 2 and ad.ndim > 2 and ad.shape[-1] == bd.shape[0]:
        rows = _fold_rows(ad)
        if rows is not None:
            return _rows_product(rows, bd).reshape(ad.shape[:-1] + (bd.shape[1],))
    if ad.ndim == 2 and bd.ndim == 2 and ad.strides[0] == 0:
        return _rows_product(ad, bd)
    if ad.ndim >= 2 and bd.ndim >= 2 and ad.shape[-1] == 1 == bd.shape[-2]:
        # columns times rows: every entry is one product, so a broadcast multiply gives matmul's result
        # (per-example weight gradients, [64, 784, 1] @ [64, 1, 128], one thread: 7.4 ms as matmul, 3.5 ms so)
        return ad * bd
    return ad @ bd


def _rows_product(rows, bd):
    """``rows @ bd`` for matrices; rows that one row repeats (stride 0: a vector that vmap lifted over the
    batch, as ``jacfwd`` lifts its primal) cost that row's product, copied (NumPy would copy the rows to
    multiply them: [256, 256] of them, half a megabyte to fault in, for a [256, 4] result)."""
    if rows.strides[0] == 0 and rows.shape[0] > 1:
        return (rows[:1] @ bd).repeat(rows.shape[0], axis=0)
    return rows @ bd


def _repeated_matrix(bd):
    """The one matrix a batch ``bd`` repeats by broadcasting (every batch stride 0 or size 1), or None.

    vmap lifts an unbatched weight so (stride 0, not copies); NumPy's matmul would run one GEMM per
    repeat, and on stride-0 operands a slow loop."""
    batch = zip(bd.strides[:-2], bd.shape[:-2])
    if all((stride == 0 and size > 0) or size == 1 for stride, size in batch):
        return bd[(0,) * (bd.ndim - 2)]
    return None


def _fold_rows(ad):
    """``ad`` ``[*, k]`` viewed as ``[rows, k]`` without a copy, or None where its batch dims do not fold."""
    for dim in range(ad.ndim - 2):
        if ad.shape[dim + 1] != 1 and ad.strides[dim] != ad.strides[dim + 1] * ad.shape[dim + 1]:
            return None
    return ad.reshape(-1, ad.shape[-1])


@batches_gradients
@rules_saving(("a", "b"))
def _matmul_rule(a: Tensor, b: Tensor):
    """The backward rule of ``a @ b`` for its operands' ranks, each the formula a lesson writes (``G Bᵀ``,
    ``Aᵀ G``); the engine sums away the batch dims broadcasting added."""
    if a.ndim == 1 and b.ndim == 1:  # dot product

        def backward(g):
            return lambda: g * b, lambda: g * a

    elif b.ndim == 1:  # matrix @ vector

        def backward(g):
            return lambda: g.outer(b), lambda: a.mT @ g

    elif a.ndim == 1:  # vector @ matrix

        def backward(g):
            return lambda: b @ g, lambda: a.outer(g)

    else:

        def backward(g):
            return lambda: g @ b.mT, lambda: a.mT @ g

    return backward


def _matmul_of(call: BatchedCall, a, b):
    """``a @ b`` with either batched: vectors become matrices, the batch dims of both operands are padded
    to the same count, one broadcasting matmul, then the added dims go again."""
    ra, rb = call.rank(a), call.rank(b)
    if ra == 0 or rb == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {ra}D and {rb}D")
    va, vb = call.value(a), call.value(b)
    if vb is None and rb == 2:  # entries @ one matrix: the batch is more rows of one matmul
        return call.wrap(call.run(matmul, va, b))
    if va is None and ra == 2 and rb == 1:  # one matrix @ a batch of vectors: (vectors @ matrixᵀ)
        return call.wrap(call.run(matmul, vb, a.transpose(-1, -2)))
    left, right = (a if va is None else va), (b if vb is None else vb)
    if ra == 1:
        left = left.unsqueeze(-2)
    if rb == 1:
        right = right.unsqueeze(-1)
    stacked = max(max(ra, 2), max(rb, 2)) - 2  # batch dims of the matmul itself
    if va is not None:
        left = call.padded(left, stacked + 2)
    if vb is not None:
        right = call.padded(right, stacked + 2)
    out = call.run(matmul, left, right)
    if ra == 1:
        out = out.squeeze(-2)
    if rb == 1:
        out = out.squeeze(-1)
    return call.wrap(out)


def _batched_matmul(call: BatchedCall):
    """``matmul`` (and ``mm``, ``bmm``, ``mv``, ``dot``): one broadcasting matmul of the batched operands."""
    a, b = call.args[0], call.args[1] if len(call.args) > 1 else next(iter(call.kwargs.values()))
    return _matmul_of(call, a, b)


@op(batch=_batched_matmul, methods=("matmul", "__matmul__"))
def matmul(a: Tensor, b: Tensor) -> Tensor:
    """Matrix product with NumPy/PyTorch semantics for 1-D, 2-D and batched (broadcast) operands."""
    _check_operands(a, b, "matmul")
    if a.array.ndim == 0 or b.array.ndim == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {a.array.ndim}D and {b.array.ndim}D"
        )
    return _matmul(a, b, "matmul")


@op(batch=_batched_matmul, methods="mm")
def mm(a: Tensor, b: Tensor) -> Tensor:
    """Product of two matrices (2-D only)."""
    _check_operands(a, b, "mm")
    if a.array.ndim != 2:
        raise RuntimeError(f"self must be a matrix, got {a.array.ndim}-D tensor")
    if b.array.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {b.array.ndim}-D tensor")
    return _matmul(a, b, "mm")


@op(batch=_batched_matmul, methods="bmm")
def bmm(a: Tensor, b: Tensor) -> Tensor:
    """Batched product of (b, n, m) and (b, m, p) tensors (no broadcasting)."""
    _check_operands(a, b, "bmm")
    if a.array.ndim != 3:
        raise RuntimeError(f"batch1 must be a 3D tensor, got {a.array.ndim}-D tensor")
    if b.array.ndim != 3:
        raise RuntimeError(f"batch2 must be a 3D tensor, got {b.array.ndim}-D tensor")
    (n, _, m), (bn, bm, _) = a.array.shape, b.array.shape
    if (n, m) != (bn, bm):
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{n}, {m}] but got: [{bn}, {bm}]."
        )
    return _matmul(a, b, "bmm")


@op(batch=_batched_matmul, methods="mv")
def mv(a: Tensor, v: Tensor) -> Tensor:
    """Product of a matrix and a vector."""
    _check_operands(a, v, "mv")
    if a.array.ndim != 2 or v.array.ndim != 1:
        raise RuntimeError(
            f"vector + matrix @ vector expected, got 1, {a.array.ndim}, {v.array.ndim} "
            f"(mv needs a 2-D matrix and a 1-D vector)"
        )
    return _matmul(a, v, "mv")


@op(batch=_batched_matmul, methods=("dot", "inner"))
def dot(a: Tensor, b: Tensor) -> Tensor:
    """Inner product of two 1-D tensors of the same length."""
    if not isinstance(a, Tensor) or not isinstance(b, Tensor):
        bad = b if isinstance(a, Tensor) else a
        raise TypeError(f"dot(): argument must be Tensor, not {type(bad).__name__}")
    if a.array.ndim != 1 or b.array.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.array.ndim}D and {b.array.ndim}D tensors")
    if a.array.dtype != b.array.dtype:
        raise RuntimeError(
            f"dot : expected both vectors to have same dtype, but found {a.array.dtype} and {b.array.dtype}"
        )
    check_same_device(a, b, "dot")
    return _matmul(a, b, "dot")


def _batched_outer(call: BatchedCall):
    """``outer`` of batched vectors: a column times a row, broadcast."""
    a, b = call.args
    return a.unsqueeze(-1) * b.unsqueeze(-2)


@op(batch=_batched_outer, methods="outer", saves=("a", "b"))
def outer(a: Tensor, b: Tensor) -> Tensor:
    """Outer product of two 1-D tensors: ``out[i, j] = a[i] * b[j]`` (dtypes promote, as for ``*``)."""
    for name, t in (("self", a), ("vec2", b)):
        if not isinstance(t, Tensor):
            raise TypeError(f"outer(): argument '{name}' must be Tensor, not {type(t).__name__}")
        if t.array.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.array.ndim}-D")
    ad, bd = binary_arrays(a, b, "outer")
    xp = a.device.xp

    def backward(g):
        return lambda: g @ b.to(g.dtype), lambda: a.to(g.dtype) @ g

    def jvp(ta, tb):
        return outer(ta, b) + outer(a, tb)

    return make(xp.multiply.outer(ad, bd), (a, b), backward, "outer", jvp)


# ---------------------------------------------------------------- einsum
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _parse_einsum(equation: str, operands: tuple) -> tuple[list, str]:
    """Explicit subscripts for each operand and the output, with '...' replaced by fresh letters."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    inputs = lhs.split(",")
    if len(inputs) != len(operands):
        raise RuntimeError(
            "einsum(): more operands were provided than specified in the equation"
            if len(operands) > len(inputs)
            else "einsum(): fewer operands were provided than specified in the equation"
        )
    for part in inputs + ([rhs] if arrow else []):
        bad = set(part.replace("...", "")) - set(_LETTERS)
        if bad or part.replace("...", "").count(".") or part.count("...") > 1:
            raise RuntimeError(
                f"einsum(): invalid subscript given at index {eq.index(part)} in the equation string, subscripts "
                f"must be in [a-zA-Z] or a single '...' per operand"
            )
    used = set(eq) - {".", ",", "-", ">"}
    fresh = [c for c in _LETTERS if c not in used]
    ell_dims = 0
    for i, (part, t) in enumerate(zip(inputs, operands)):
        named = len(part.replace("...", ""))
        if "..." in part:
            ell_dims = max(ell_dims, t.array.ndim - named)
        if ("..." in part and t.array.ndim < named) or ("..." not in part and t.array.ndim != named):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({named}) does not match the number of "
                f"dimensions ({t.array.ndim}) for operand {i}" + ("" if "..." in part else " and no ellipsis was given")
            )
    ell = "".join(fresh[:ell_dims])
    explicit = []
    for part, t in zip(inputs, operands):
        if "..." in part:
            k = t.array.ndim - len(part.replace("...", ""))
            part = part.replace("...", ell[ell_dims - k :] if k else "")
        explicit.append(part)
    if arrow:
        rhs_full = rhs.replace("...", ell)  # without '...' in the output, the ellipsis dims are summed
        for c in rhs_full:
            if rhs_full.count(c) > 1:
                raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the output")
            if not any(c in p for p in explicit):
                raise RuntimeError(
                    f"einsum(): output subscript {c} does not appear in the equation for any input operand"
                )
    else:
        counts = {}
        for p in explicit:
            for c in p:
                counts[c] = counts.get(c, 0) + 1
        rhs_full = ell + "".join(sorted((c for c in counts if counts[c] == 1 and c not in ell), key=_LETTERS.index))
    return explicit, rhs_full


class _Rank:
    """Stands in for an operand when parsing an equation: one entry's rank, where ``.array.ndim`` is read."""

    def __init__(self, ndim: int):
        self.array, self.ndim = self, ndim


def _batched_einsum(call: BatchedCall):
    """``einsum``: the batched operands and the output gain one fresh letter in front of their subscripts."""
    equation, operands = call.args[0], call.args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    subs, out_sub = _parse_einsum(equation, tuple(_Rank(call.rank(t)) for t in operands))
    used = set("".join(subs) + out_sub)
    letter = next((c for c in _LETTERS if c not in used), None)
    if letter is None:
        return call.loop()
    values = [call.value(t) for t in operands]
    lhs = ",".join(s if v is None else letter + s for s, v in zip(subs, values))
    inputs = [t if v is None else v for t, v in zip(operands, values)]
    return call.wrap(call.run(call.fn, f"{lhs}->{letter}{out_sub}", *inputs))


@op(batch=_batched_einsum)
def einsum(equation: str, *operands) -> Tensor:
    """Einstein summation, e.g. ``einsum("bij,bjk->bik", x, y)``; differentiable in every operand.

    Supports any number of operands, implicit output (letters used once, sorted),
    '...' for broadcast batch dims, and size-1 dims broadcasting against other
    operands. A subscript repeated within one operand (diagonals, traces) is not
    supported; use ``diagonal``-free formulations instead.
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    for i, t in enumerate(operands):
        if not isinstance(t, Tensor):
            raise TypeError(f"einsum(): operand {i} must be a Tensor, not {type(t).__name__}")
        check_same_device(operands[0], t, "einsum")
        if t.array.dtype != operands[0].array.dtype:
            raise RuntimeError(
                f"einsum(): all operands must have the same dtype, but operand 0 is {operands[0].array.dtype} "
                f"and operand {i} is {t.array.dtype}"
            )
    subs, out_sub = _parse_einsum(equation, operands)
    diagonals = [_take_repeated_diagonals(i, s, t) for i, (s, t) in enumerate(zip(subs, operands))]
    subs, operands = [s for s, _ in diagonals], tuple(t for _, t in diagonals)
    sizes: dict = {}
    for i, (s, t) in enumerate(zip(subs, operands)):
        for c, n in zip(s, t.array.shape):
            seen = sizes.get(c, 1)
            if n != 1 and seen != 1 and n != seen:
                raise RuntimeError(
                    f"einsum(): subscript {c} has size {n} for operand {i} which does not broadcast with "
                    f"previously seen size {seen}"
                )
            sizes[c] = max(seen, n)
    # Size-1 dims that broadcast become explicit expands, so the core product sees equal sizes.
    operands = tuple(
        t.expand(tuple(sizes[c] for c in s)) if any(n != sizes[c] for c, n in zip(s, t.array.shape)) else t
        for s, t in zip(subs, operands)
    )
    return _einsum(subs, out_sub, operands, sizes)


def _take_repeated_diagonals(i: int, sub: str, t: Tensor) -> tuple[str, Tensor]:
    """``sub`` with each repeated subscript once, and ``t`` reduced to that diagonal (a mask, then a sum)."""
    xp = t.device.xp
    for c in dict.fromkeys(sub):
        while sub.count(c) > 1:
            j, k = sub.index(c), sub.index(c, sub.index(c) + 1)
            n, m = t.array.shape[j], t.array.shape[k]
            if n != m:
                raise RuntimeError(
                    f"einsum(): subscript {c} is repeated for operand {i} but the sizes don't match, {m} != {n}"
                )
            shape = [1] * t.array.ndim
            shape[j], shape[k] = n, n
            eye = make_leaf(xp.eye(n, dtype=t.array.dtype).reshape(shape), t.device)
            t, sub = (t * eye).sum(k), sub[:k] + sub[k + 1 :]
    return sub, t


@rules_saving(("operands", "out_sub", "sizes", "subs"))
def _einsum(subs: list, out_sub: str, operands: tuple, sizes: dict) -> Tensor:
    xp = operands[0].device.xp
    spec = ",".join(subs) + "->" + out_sub
    out = xp.einsum(spec, *(t.array for t in operands), optimize=len(operands) > 2)

    def backward(g):
        def operand_grad(i):
            others = [s for j, s in enumerate(subs) if j != i]
            # Letters only this operand has (summed out in forward) come back by broadcasting.
            kept = "".join(c for c in subs[i] if c in out_sub or any(c in s for s in others))
            ops = (g,) + tuple(o for j, o in enumerate(operands) if j != i)
            gi = _einsum([out_sub] + others, kept, ops, sizes)
            if kept != subs[i]:
                gi = gi.reshape(tuple(sizes[c] if c in kept else 1 for c in subs[i])).expand(
                    tuple(sizes[c] for c in subs[i])
                )
            return gi

        return tuple(functools.partial(operand_grad, i) for i in range(len(operands)))

    def jvp(*tangents):
        # Product rule: one term per operand, with that operand replaced by its tangent.
        terms = (_einsum(subs, out_sub, operands[:i] + (t,) + operands[i + 1 :], sizes) for i, t in enumerate(tangents))
        return functools.reduce(operator.add, terms)

    return make(out, operands, backward, "einsum", jvp)


def _batched_rmatmul(call: BatchedCall):
    """``other @ self`` (``Tensor.__rmatmul__``): matmul's rule with the operands swapped."""
    return _matmul_of(call, call.args[1], call.args[0])


@op(batch=_batched_rmatmul, methods="__rmatmul__")
def _rmatmul(self: Tensor, other) -> Tensor:
    """``other @ self`` (``Tensor.__rmatmul__``); an array or a list ``other`` becomes a tensor on ``self``'s device."""
    if not isinstance(other, Tensor):
        other = make_leaf(B.to_device_array(self.device.xp.asarray(other), self.device), self.device)
    return matmul(other, self)


bind_methods(Tensor, __name__)
