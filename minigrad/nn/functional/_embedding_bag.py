"""embedding_bag: the sum, mean or max of each bag of embedding rows, as torch.nn.functional's.

The rows are looked up with ``embedding`` (its rule scatter-adds into the weight); a sum or mean is then
one matrix product with a constant bag matrix (a row per bag: 1, a per-sample weight, or 1/count in
each of its positions), and a max takes each bag's rows' maximum. A bag with no entries gives zeros.
"""

from __future__ import annotations

import numpy as np

from ...autograd.grad_mode import no_grad
from ...ops.declare import LOOP, op
from ...ops.shape import stack
from ...tensor import Tensor
from ._embedding import embedding

__all__ = ["embedding_bag"]


def _host(t: Tensor) -> np.ndarray:
    return np.asarray(t.detach().cpu().numpy())


def _bags(input: Tensor, offsets, include_last_offset: bool) -> tuple:  # noqa: A002
    """The flat indices and each bag's (start, end) positions in them."""
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length "
                f"sequences. However, found offsets of type {type(offsets)}"
            )
        bags, length = input.shape
        starts = np.arange(bags) * length
        return input.reshape(-1), starts, starts + length
    if input.dim() != 1:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if offsets.dim() != 1:
        raise ValueError("offsets has to be a 1D Tensor")
    cuts = _host(offsets).astype(np.int64)
    total = input.shape[0]
    if cuts.size and cuts[0] != 0:
        raise RuntimeError(
            "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. "
            f"However, got {cuts[0]}"
        )
    if cuts.size and cuts[-1] > total:
        raise RuntimeError(
            f"offsets[-1] can not be greater than input's length {total} but got offsets[-1] of {cuts[-1]}"
        )
    if include_last_offset:
        return input, cuts[:-1], cuts[1:]
    return input, cuts, np.append(cuts[1:], total)


def _renorm_(weight: Tensor, indices: np.ndarray, max_norm: float, norm_type: float) -> None:
    """Rows of ``weight`` used in ``indices`` whose norm exceeds ``max_norm`` scaled down to it, in place
    (outside the graph), as PyTorch's embedding_renorm_."""
    rows = np.unique(indices)
    data = weight.array[rows]
    norms = (weight.device.xp.abs(data) ** norm_type).sum(axis=1) ** (1.0 / norm_type)
    scale = weight.device.xp.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    with no_grad():
        weight.array[rows] = data * scale[:, None]


@op(batch=LOOP)
def embedding_bag(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    offsets: Tensor | None = None,
    max_norm: float | None = None,
    norm_type: float = 2,
    scale_grad_by_freq: bool = False,
    mode: str = "mean",
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int | None = None,
) -> Tensor:
    """``[B, D]``: for each bag of ``input`` indices (the rows of a 2-D ``input``, or the runs of a 1-D one that
    start at ``offsets``) the ``mode`` ("sum", "mean" or "max") of its rows of ``weight``.

    ``per_sample_weights`` (mode "sum" only) scales each looked-up row; entries equal to ``padding_idx`` are
    left out of their bag (and of its count); ``max_norm`` renormalises the rows used, in place.
    """
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding_bag(): scale_grad_by_freq and sparse gradients are not supported")
    if per_sample_weights is not None:
        if mode != "sum":
            raise NotImplementedError(
                "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
                f"mode='sum' (got mode='{mode}'). Please open a feature request on GitHub."
            )
        if tuple(per_sample_weights.shape) != tuple(input.shape):
            raise ValueError(
                f"embedding_bag: If per_sample_weights ({_size(per_sample_weights)}) is not None, then it must have "
                f"the same shape as the input ({_size(input)})"
            )
    flat, starts, ends = _bags(input, offsets, include_last_offset)
    indices = _host(flat).astype(np.int64)
    count = weight.shape[0]
    bad = np.flatnonzero((indices < 0) | (indices >= count))
    if bad.size:
        raise RuntimeError(
            f"Index {bad[0]} of input takes value {indices[bad[0]]} which is not in the valid range [0, {count})"
        )
    if padding_idx is not None and padding_idx < 0:
        padding_idx += count
    if max_norm is not None:
        _renorm_(weight, indices, max_norm, norm_type)
    rows = embedding(flat, weight)  # [L, D]
    kept = indices != padding_idx if padding_idx is not None else np.ones(indices.shape, dtype=bool)
    if mode == "max":
        return _bag_max(rows, starts, ends, kept, weight)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights.reshape(-1, 1)
    matrix = np.zeros((len(starts), len(indices)), dtype=weight.array.dtype)
    for bag, (start, end) in enumerate(zip(starts, ends)):
        positions = np.arange(start, end)[kept[start:end]]
        if positions.size:
            matrix[bag, positions] = 1.0 / positions.size if mode == "mean" else 1.0
    return Tensor(weight.device.xp.asarray(matrix), device=weight.device) @ rows


def _bag_max(rows: Tensor, starts, ends, kept: np.ndarray, weight: Tensor) -> Tensor:
    zeros = Tensor(weight.device.xp.zeros(weight.shape[1], dtype=weight.array.dtype), device=weight.device)
    out = []
    for start, end in zip(starts, ends):
        positions = np.arange(start, end)[kept[start:end]]
        out.append(rows[positions].max(0)[0] if positions.size else zeros)
    return stack(out) if out else rows[:0]


def _size(t: Tensor) -> str:
    return f"torch.Size([{', '.join(map(str, t.shape))}])"
