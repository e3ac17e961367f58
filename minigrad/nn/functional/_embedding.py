"""embedding: rows of a weight matrix picked by integer indices, and its backward (row sums)."""

from __future__ import annotations

import numpy as np

from ...ops._util import check_same_device
from ...ops.declare import TRAILING, op, rules_saving
from ...tensor import Tensor, make, make_leaf, shape_str

__all__ = ["embedding"]


@rules_saving(("indices", "num_rows", "keep"))
def _gather_rows(weight: Tensor, indices, padding_idx: int | None) -> Tensor:
    """``weight[indices]``; backward scatters the gradient back into rows (zero at ``padding_idx``)."""
    num_rows = weight.array.shape[0]
    if padding_idx is None:

        def backward(g):
            return (_scatter_rows(g, indices, num_rows),)

    else:  # the padding row gets no gradient
        keep = make_leaf((indices != padding_idx)[..., None], weight.device)

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
def embedding(indices: Tensor, weight: Tensor, padding_idx: int | None = None) -> Tensor:
    """Look up rows of ``weight`` ``[num_embeddings, D]``: the result is ``[*indices.shape, D]``.

    ``indices`` is an integer tensor or array; the row at ``padding_idx`` gets no gradient.
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
    return _gather_rows(weight, idx, padding_idx)
