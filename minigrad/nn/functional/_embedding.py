"""embedding: rows of a weight matrix picked by integer indices, and its backward (row sums)."""

from __future__ import annotations

import warnings

import numpy as np

from ...ops._util import check_same_device
from ...ops.declare import TRAILING, op, rules_saving
from ...tensor import Tensor, make, make_leaf, mark_written, shape_str

__all__ = ["embedding"]


@rules_saving(("indices", "num_rows", "keep"))
def _gather_rows(weight: Tensor, indices, padding_idx: int | None, scale_grad_by_freq: bool = False) -> Tensor:
    """``weight[indices]``; backward scatters the gradient back into rows (zero at ``padding_idx``; each row's
    divided by how often its index appears, with ``scale_grad_by_freq``)."""
    num_rows = weight.array.shape[0]
    keep = None
    if scale_grad_by_freq and indices.size:
        counts = weight.device.xp.bincount(indices.reshape(-1), minlength=num_rows)
        keep = 1.0 / counts[indices].astype(weight.array.dtype)[..., None]
    if padding_idx is not None:  # the padding row gets no gradient
        padded = (indices != padding_idx)[..., None]
        keep = padded if keep is None else keep * padded
    if keep is None:

        def backward(g):
            return (_scatter_rows(g, indices, num_rows),)

    else:
        keep = make_leaf(keep, weight.device)

        def backward(g):
            return (_scatter_rows(g * keep, indices, num_rows),)

    def jvp(t):
        return _gather_rows(t, indices, None)

    return make(weight.array[indices], (weight,), backward, "embedding", jvp)


@rules_saving(("indices",))
def _scatter_rows(g: Tensor, indices, num_rows: int) -> Tensor:
    """Sum the rows of ``g`` (``[*indices.shape, D]``) into ``[num_rows, D]`` at ``indices``."""
    xp = g.device.xp
    out = xp.zeros((num_rows, g.array.shape[-1]), dtype=g.array.dtype)
    rows, values = indices.reshape(-1), g.array.reshape(-1, g.array.shape[-1])
    if xp.__name__ == "numpy":
        _add_rows_at(out, rows, values)
    else:
        xp.add.at(out, rows, values)

    def backward(gg):
        return (_gather_rows(gg, indices, None),)

    def jvp(t):
        return _scatter_rows(t, indices, num_rows)

    return make(out, (g,), backward, "embedding_backward", jvp)


def _add_rows_at(out, rows, values) -> None:
    """``out[rows[k]] += values[k]`` for every k, repeats summed (``np.add.at``'s result).

    The rows are sorted by index (stably). Where no index repeats much, round ``r`` adds every index's ``r``-th
    row with one fancy-indexed ``+=`` (the indices of a round are distinct, so none is lost); otherwise each run
    of equal indices is summed by one ``add.reduceat``, whose cost is about a microsecond a run. W12's 700 rows
    of 200 into 1 000 rows (about 500 runs, at most 5 or 6 rounds), one thread: ``np.add.at`` 1.2 ms, the
    runs' ``add.reduceat`` 0.65 ms, the rounds 0.11-0.24 ms."""
    if rows.size == 0:
        return
    order = np.argsort(rows, kind="stable")
    sorted_rows = rows[order]
    starts = np.flatnonzero(np.concatenate(([True], sorted_rows[1:] != sorted_rows[:-1])))
    run_lengths = np.diff(starts, append=rows.size)
    rounds = int(run_lengths.max())
    if rounds * _RUNS_PER_ROUND > starts.size:
        out[sorted_rows[starts]] += np.add.reduceat(values[order], starts, axis=0)
        return
    occurrence = np.arange(rows.size) - np.repeat(starts, run_lengths)  # 0 at an index's first row, 1 at its second...
    for r in range(rounds):
        picked = order[occurrence == r]
        out[rows[picked]] += values[picked]


#: A round (a fancy-indexed ``+=``) costs about as much as summing this many runs by ``add.reduceat``.
_RUNS_PER_ROUND = 16


@op(batch=TRAILING)
def embedding(
    indices: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """Look up rows of ``weight`` ``[num_embeddings, D]``: the result is ``[*indices.shape, D]``.

    ``indices`` is an integer tensor or array; the row at ``padding_idx`` gets no gradient. With ``max_norm``,
    each looked-up row whose ``norm_type``-norm is above it is first scaled down to it in ``weight`` itself (an
    in-place write, as PyTorch's); ``scale_grad_by_freq`` divides each row's gradient by how often its index
    appears in ``indices``. ``sparse=True`` is taken for PyTorch programs, with a warning: the gradient is dense.
    """
    if isinstance(indices, Tensor):
        check_same_device(weight, indices, "embedding")
    idx = indices.array if isinstance(indices, Tensor) else weight.device.xp.asarray(indices)
    if idx.dtype.kind not in "iu":
        raise RuntimeError(
            f"Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
            f"but got dtype {idx.dtype} instead (while checking arguments for embedding)"
        )
    if weight.array.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    num_rows = weight.array.shape[0]
    if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= num_rows):
        bad = int(idx.max()) if int(idx.max()) >= num_rows else int(idx.min())
        raise IndexError(
            f"embedding(): index {bad} is out of range for a weight of shape {shape_str(weight.array.shape)} "
            f"(expected indices in [0, {num_rows - 1}])"
        )
    if padding_idx is not None and padding_idx < 0:
        padding_idx += num_rows
    if sparse:
        warnings.warn(
            "embedding(sparse=True): minigrad has no sparse tensors; the weight's gradient is dense (same values)",
            UserWarning,
            stacklevel=3,
        )
    if max_norm is not None:
        _renorm_rows(weight, idx, max_norm, norm_type)
    return _gather_rows(weight, idx, padding_idx, scale_grad_by_freq)


def _renorm_rows(weight: Tensor, idx, max_norm: float, norm_type: float) -> None:
    """Scale each row of ``weight`` that ``idx`` looks up and whose norm is above ``max_norm`` down to
    ``max_norm / (norm + 1e-7)`` times itself, in place, outside the graph (PyTorch's ``embedding_renorm_``)."""
    xp = weight.device.xp
    rows = xp.unique(idx.reshape(-1))
    picked = weight.array[rows]
    norms = xp.linalg.norm(picked, ord=norm_type, axis=1)
    over = norms > max_norm
    if bool(over.any()):
        scale = (max_norm / (norms[over] + 1e-7)).astype(weight.array.dtype)
        weight.array[rows[over]] = picked[over] * scale[:, None]
        mark_written(weight)
