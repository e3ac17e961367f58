"""Margin and embedding losses: cosine_embedding_loss, margin_ranking_loss, hinge_embedding_loss,
soft_margin_loss, multi_margin_loss, multilabel_margin_loss, multilabel_soft_margin_loss, triplet_margin_loss (also with any
distance function), and pairwise_distance.

Each is PyTorch's formula written with differentiable ops (``where`` picks a case, ``clamp`` is the
hinge), so its gradient is theirs and the debugger shows the ops it is made of.
"""

from __future__ import annotations

import numpy as np

from ... import backend
from ...creation import arange
from ...ops import logsigmoid, minimum, norm, where  # the public ops: inside vmap they reach their batching rules
from ...ops.declare import COMPOSITE, LOOP, op
from ...tensor import Tensor, shape_str, tensor
from ._loss import _check_reduction, _reduce, _reduction

__all__ = [
    "pairwise_distance",
    "cosine_embedding_loss",
    "margin_ranking_loss",
    "hinge_embedding_loss",
    "soft_margin_loss",
    "multi_margin_loss",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
    "multilabel_soft_margin_loss",
    "multilabel_margin_loss",
]


@op(batch=COMPOSITE)
def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    """The ``p``-norm of ``x1 - x2 + eps`` along the last dim (they broadcast)."""
    last = max(x1.dim(), x2.dim()) - 1
    return norm(x1 - x2 + eps, p, last, keepdim)


@op(batch=COMPOSITE)
def cosine_embedding_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``1 - cos(x1, x2)`` where ``target`` is 1, ``max(0, cos(x1, x2) - margin)`` where it is -1."""
    reduction = _reduction(size_average, reduce, reduction, "cosine_embedding_loss")
    if target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    expected = target.dim() + 1
    if input1.dim() != expected or input2.dim() != expected:
        raise RuntimeError(
            f"{target.dim()}D target tensor expects {expected}D input tensors, but found inputs with sizes "
            f"{shape_str(input1.shape)} and {shape_str(input2.shape)}."
        )
    dim = expected - 1
    eps = 1e-12  # PyTorch's EPSILON, added to each squared length
    products = (input1 * input2).sum(dim)
    lengths = (((input1 * input1).sum(dim) + eps) * ((input2 * input2).sum(dim) + eps)).sqrt()
    cos = products / lengths
    loss = where(target == 1, 1 - cos, 0.0) + where(target == -1, (cos - margin).clamp(min=0), 0.0)
    return _reduce(loss, reduction)


@op(batch=COMPOSITE)
def margin_ranking_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``max(0, -target * (x1 - x2) + margin)``: ``x1`` should rank above ``x2`` where ``target`` is 1."""
    reduction = _reduction(size_average, reduce, reduction, "margin_ranking_loss")
    if not input1.dim() == input2.dim() == target.dim():
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {_size(input1)}, input2: {_size(input2)}, target: {_size(target)} "
        )
    return _reduce((-target * (input1 - input2) + margin).clamp(min=0), reduction)


def _size(t: Tensor) -> str:
    return f"torch.Size([{', '.join(map(str, t.shape))}])"


@op(batch=COMPOSITE)
def hinge_embedding_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    margin: float = 1.0,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``x`` where ``target`` is 1, ``max(0, margin - x)`` where it is -1 (``x`` is a distance)."""
    reduction = _reduction(size_average, reduce, reduction, "hinge_embedding_loss")
    hinge = where(target != 1, (margin - input).clamp(min=0), 0.0)
    return _reduce(hinge + where(target != -1, input, 0.0), reduction)


@op(batch=COMPOSITE)
def soft_margin_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``log(1 + exp(-target * x))``: the logistic loss of labels in {-1, 1}."""
    reduction = _reduction(size_average, reduce, reduction, "soft_margin_loss")
    return _reduce((-input * target).exp().log1p(), reduction)


@op(batch=LOOP)
def multi_margin_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    p: int = 1,
    margin: float = 1.0,
    weight: Tensor | None = None,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """The multi-class hinge loss: ``sum_{j != y} max(0, margin - x[y] + x[j])**p / C`` for each sample,
    times ``weight[y]`` when given."""
    reduction = _reduction(size_average, reduce, reduction, "multi_margin_loss")
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    if input.dim() > 2 or (input.dim() == 2 and input.shape[0] == 0):
        raise RuntimeError(
            f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: {shape_str(input.shape)}"
        )
    x = input.reshape(1, -1) if input.dim() < 2 else input
    n, classes = x.shape
    y = target.reshape(-1)
    if y.shape[0] != n:
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples (batch "
            f"size). Expected target size [{n}], but got {shape_str(target.shape)}. Input has shape "
            f"{shape_str(input.shape)}."
        )
    labels = y.detach().cpu().numpy()
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        raise RuntimeError("target out of range")
    if weight is not None and weight.shape[0] != classes:
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got {shape_str(weight.shape)}")
    column = y.reshape(n, 1)
    hinge = (margin - x.gather(1, column) + x).clamp(min=0)
    if p == 2:
        hinge = hinge * hinge
    if weight is not None:
        hinge = hinge * weight[y].reshape(n, 1)
    others = _arange_like(x, classes) != column
    loss = where(others, hinge, 0.0).sum(1) / classes
    if input.dim() < 2:
        loss = loss.reshape(())
    return _reduce(loss, reduction)


@op(batch=LOOP)
def multilabel_margin_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """The multi-label hinge loss: for each sample, ``sum_{j, i} max(0, 1 - (x[y_j] - x[i])) / C`` over its
    target classes y_j (``target``'s leading entries, up to the first -1) and every class i not a target."""
    reduction = _reduction(size_average, reduce, reduction, "multilabel_margin_loss")
    if input.dim() > 2:
        raise RuntimeError(
            f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: {shape_str(input.shape)}"
        )
    if tuple(target.shape) != tuple(input.shape):
        raise RuntimeError(
            f"inconsistent target size: {shape_str(target.shape)} for input of size: {shape_str(input.shape)}"
        )
    if target.dtype != np.int64:
        raise RuntimeError(f"expected scalar type Long but found {backend.scalar_type_name(target.dtype)}")
    if input.dtype.kind != "f":
        raise NotImplementedError(
            f"\"multilabel_margin_loss_forward_out_frame\" not implemented for '{backend.scalar_type_name(input.dtype)}'"
        )
    x = input.reshape(1, -1) if input.dim() < 2 else input
    classes = x.shape[1]
    labels = target.detach().cpu().numpy().reshape(x.shape)
    if labels.size and (labels.min() < -1 or labels.max() >= classes):
        raise RuntimeError("argument #2 'target' is out of range")
    listed = np.cumprod(labels != -1, axis=1).astype(bool)  # a sample's targets end at its first -1
    is_target = np.zeros(labels.shape, dtype=bool)
    rows, cols = np.nonzero(listed)
    is_target[rows, labels[rows, cols]] = True
    counted = listed[:, :, None] & ~is_target[:, None, :]  # (sample, listed target j, class i)
    picked = x.gather(1, tensor(np.where(listed, labels, 0), device=x.device))
    hinge = (1 - picked.unsqueeze(2) + x.unsqueeze(1)).clamp(min=0)
    loss = where(tensor(counted, device=x.device), hinge, 0.0).sum((1, 2)) / classes
    if input.dim() < 2:
        loss = loss.reshape(())
    return _reduce(loss, reduction)


def _arange_like(x: Tensor, n: int) -> Tensor:
    return arange(n, device=x.device).reshape(1, n)


@op(batch=COMPOSITE)
def triplet_margin_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    margin: float = 1.0,
    p: float = 2,
    eps: float = 1e-6,
    swap: bool = False,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``max(0, margin + d(a, p) - d(a, n))`` with ``d`` the ``p``-norm distance (``swap``: the smaller of
    ``d(a, n)`` and ``d(p, n)``)."""
    reduction = _reduction(size_average, reduce, reduction, "triplet_margin_loss")
    return _triplet(anchor, positive, negative, lambda a, b: pairwise_distance(a, b, p, eps), margin, swap, reduction)


def _triplet(anchor: Tensor, positive: Tensor, negative: Tensor, distance, margin, swap: bool, reduction: str):
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if len(set(dims)) != 1:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but "
            f"got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D inputs"
        )
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    to_positive = distance(anchor, positive)
    to_negative = distance(anchor, negative)
    if swap:
        to_negative = minimum(to_negative, distance(positive, negative))
    return _reduce((margin + to_positive - to_negative).clamp(min=0), reduction)


@op(batch=COMPOSITE)
def triplet_margin_with_distance_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    *,
    distance_function=None,
    margin: float = 1.0,
    swap: bool = False,
    reduction: str = "mean",
) -> Tensor:
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` with ``d`` any function of two tensors
    (``pairwise_distance`` when None)."""
    _check_reduction(reduction)
    distance = pairwise_distance if distance_function is None else distance_function
    return _triplet(anchor, positive, negative, distance, margin, swap, reduction)


@op(batch=COMPOSITE)
def multilabel_soft_margin_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """The logistic loss of each class's 0/1 ``target`` (times ``weight`` when given), averaged over the
    classes (the last dim)."""
    reduction = _reduction(size_average, reduce, reduction, "multilabel_soft_margin_loss")
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    loss = loss.sum(input.dim() - 1) / input.shape[-1]
    return _reduce(loss, reduction)
