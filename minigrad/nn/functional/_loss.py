"""Loss functions: mse, l1, cross-entropy, nll, binary cross-entropy (plain and with logits).

Every loss takes ``reduction`` = ``"mean"`` (default), ``"sum"`` or ``"none"``.
cross_entropy is one graph node whose backward is ``softmax(x) - target``; the
others are compositions of differentiable ops.
"""

from __future__ import annotations

import warnings

from ... import backend as B
from ..._state import extras, grad
from ..._workspace import leave, left, work_array
from ...ops._util import check_same_device, refuse_dtype
from ...ops.declare import COMPOSITE, BatchedCall, op, rules_saving
from ...ops.elementwise import clamp, softplus
from ...ops.indexing import index_with_key
from ...ops.reduction import log_softmax
from ...tensor import Tensor, _tangents_of, make, make_leaf, shape_str
from ._softmax import softmax_node

__all__ = [
    "mse_loss",
    "l1_loss",
    "cross_entropy",
    "nll_loss",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
]

_REDUCTIONS = ("none", "mean", "sum")


def _check_reduction(reduction: str) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _warn_size(name: str, input: Tensor, target: Tensor) -> None:
    if input.shape != target.shape:
        warnings.warn(
            f"{name}: using a target size ({shape_str(target.shape)}) that is different to the input size "
            f"({shape_str(input.shape)}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.",
            stacklevel=3,
        )


def _as_target(target, like: Tensor, name: str) -> Tensor:
    if isinstance(target, Tensor):
        check_same_device(like, target, name)
        return target
    return Tensor(target, device=like.device)


def _numeric(t: Tensor, other: Tensor) -> Tensor:
    """A bool operand of mse_loss as the other's dtype (torch promotes it there; ``-`` and l1_loss refuse bools)."""
    if t.array.dtype.kind != "b":
        return t
    return t.to(other.array.dtype if other.array.dtype.kind != "b" else B.get_default_dtype())


def _flag(value, op: str, arg: str):
    if isinstance(value, Tensor) and value.numel() != 1:
        raise TypeError(f"{op}(): argument '{arg}' must be bool (or None), not a Tensor of {value.numel()} elements")
    return value


def _legacy_reduction(size_average, reduce, reduction: str, op: str) -> str:
    """PyTorch's deprecated ``size_average``/``reduce`` flags, turned into a ``reduction``."""
    size_average, reduce = _flag(size_average, op, "size_average"), _flag(reduce, op, "reduce")
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    warnings.warn(
        "size_average and reduce args will be deprecated, please use reduction='"
        + ("none" if not reduce else "mean" if size_average else "sum")
        + "' instead.",
        UserWarning,
        stacklevel=3,
    )
    return "none" if not reduce else "mean" if size_average else "sum"


def _reduction(size_average, reduce, reduction, op: str) -> str:
    """``reduction``, or what the deprecated flags stand for (:func:`_legacy_reduction`); checked."""
    reduction = _legacy_reduction(size_average, reduce, reduction, op)
    _check_reduction(reduction)
    return reduction


# ---------------------------------------------------------------- regression
@op(batch=COMPOSITE)
def mse_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
    weight: Tensor | None = None,
) -> Tensor:
    """Mean squared error ``(input - target)**2``, reduced; with ``weight`` (input's size) each entry is
    weighed, and the mean divides by the weights' sum (PyTorch's)."""
    reduction = _reduction(size_average, reduce, reduction, "mse_loss")
    target = _as_target(target, input, "mse_loss")
    _warn_size("mse_loss", input, target)
    diff = _numeric(input, target) - _numeric(target, input)
    return _weighted(diff * diff, weight, input, reduction)


@op(batch=COMPOSITE)
def l1_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
    weight: Tensor | None = None,
) -> Tensor:
    """Mean absolute error ``|input - target|``, reduced; ``weight`` as :func:`mse_loss`'s."""
    reduction = _reduction(size_average, reduce, reduction, "l1_loss")
    target = _as_target(target, input, "l1_loss")
    _warn_size("l1_loss", input, target)
    return _weighted((input - target).abs(), weight, input, reduction)


def _weighted(losses: Tensor, weight: Tensor | None, input: Tensor, reduction: str) -> Tensor:  # noqa: A002
    """``losses`` reduced; with ``weight``, ``weight * losses`` reduced, the mean over the weights' sum."""
    if weight is None:
        return _reduce(losses, reduction)
    if tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")
    weighted = losses * weight
    if reduction == "mean":
        return weighted.sum() / weight.sum()
    return _reduce(weighted, reduction)


# ---------------------------------------------------------------- classification
def _rows(input: Tensor, target: Tensor, name: str):
    """Bring ``input`` to ``[M, C]`` rows (class dim last) and ``target`` along; also return the
    shape an unreduced loss has (input's shape without the class dim)."""
    shape = input.array.shape
    if input.array.ndim == 0:
        raise ValueError(f"{name}(): input must have at least 1 dim (the classes), got a 0-d tensor")
    if input.array.ndim == 1:
        loss_shape = ()
        x = input.reshape(1, shape[0])
    elif input.array.ndim == 2:
        loss_shape = (shape[0],)
        x = input
    else:
        loss_shape = (shape[0],) + shape[2:]
        x = input.movedim(1, -1).reshape(-1, shape[1])
    probs = target.array.dtype.kind == "f"
    expected = shape if probs else loss_shape
    if target.array.shape != expected:
        kind = "probability" if probs else "class-index"
        batched = input.array.ndim >= 2 and target.array.ndim >= 1
        if batched and target.array.shape[0] != shape[0]:
            raise ValueError(
                f"Expected input batch_size ({shape[0]}) to match target batch_size ({target.array.shape[0]})."
            )
        raise (RuntimeError if batched else ValueError)(
            f"{name}(): {kind} target of shape {shape_str(target.array.shape)} does not match input of shape "
            f"{shape_str(shape)} (expected target shape {shape_str(expected)})"
        )
    if not probs:
        t = target if target.array.ndim == 1 else target.reshape(-1)
    elif input.array.ndim == 2:
        t = target
    elif input.array.ndim == 1:
        t = target.reshape(1, shape[0])
    else:
        t = target.movedim(1, -1).reshape(-1, shape[1])
    return x, t, loss_shape


def _class_weights(input: Tensor, weight, num_classes: int, name: str):
    if weight is None:
        return None
    w = _as_target(weight, input, name).array if isinstance(weight, Tensor) else input.device.xp.asarray(weight)
    if w.shape != (num_classes,):
        raise RuntimeError(
            f"{name}(): weight of shape {shape_str(w.shape)} does not match the {num_classes} classes "
            f"(expected [{num_classes}])"
        )
    return w.astype(input.array.dtype, copy=False)


def _ignored_rows(t, num_classes: int, ignore_index: int, name: str):
    """Check class-index targets ``t`` ([M]); return the mask of rows whose target is ``ignore_index``,
    or None when there are none. Every other target must be a class in ``[0, num_classes)``."""
    if t.dtype.kind not in "iu":
        raise RuntimeError(
            f"{name}(): expected class-index targets of an integer dtype (or float class probabilities "
            f"shaped like the input), got dtype {t.dtype}"
        )
    lo, hi = (int(t.min()), int(t.max())) if t.size else (0, -1)
    in_range = 0 <= lo and hi < num_classes
    ignored = None if in_range and not lo <= ignore_index <= hi else t == ignore_index
    any_ignored = ignored is not None and bool(ignored.any())
    kept = None if ignored is None else ~ignored
    valid = t[kept] if any_ignored else t
    if not in_range and valid.size and (int(valid.min()) < 0 or int(valid.max()) >= num_classes):
        bad = valid[(valid < 0) | (valid >= num_classes)]
        raise IndexError(
            f"{name}(): target {int(bad[0])} is out of bounds for {num_classes} classes "
            f"(expected values in [0, {num_classes - 1}]"
            + (f" or ignore_index={ignore_index})" if any_ignored else ")")
        )
    return ignored if any_ignored else None


def _mean_divisor(num_rows: int, row_weight) -> float:
    """What the mean divides by: the number of rows, or the sum of their ``c_i`` (:func:`_row_weights`)."""
    return float(num_rows) if row_weight is None else float(row_weight.sum())


def _mean_of_rows(total, divisor: float):
    """``total / divisor``; a mean over no rows (divisor 0: every row ignored or weighted 0) is NaN, as in
    PyTorch, without NumPy's division warning."""
    return total / divisor if divisor else total * float("nan")


def _rule_divisor(divisor: float, ignored) -> float:
    """The mean's divisor as a rule uses it: 1 where every row is ignored, so that the rows' zero weights give a
    zero gradient (PyTorch skips ignored rows: the loss is NaN, 0/0, and nothing flows back)."""
    return 1.0 if divisor == 0 and ignored is not None and bool(ignored.all()) else divisor


def _row_weights(targets, weight, ignored, dtype, xp):
    """Each row's ``c_i`` = ``weight[t_i]`` (1 without class weights), 0 where ``ignored``; None when every
    ``c_i`` is 1. ``targets`` holds a class in each ignored row."""
    if weight is None and ignored is None:
        return None
    row_weight = weight[targets] if weight is not None else xp.ones(targets.shape[0], dtype=dtype)
    return row_weight if ignored is None else row_weight * ~ignored


def _prob_target_matrix(t, num_classes: int, weight, smoothing: float, dtype):
    t = t.astype(dtype, copy=False)
    q = t if not smoothing else t * (1 - smoothing) + smoothing / num_classes
    return q if weight is None else q * weight


def _class_loss_rule(call: BatchedCall):
    """``cross_entropy`` and ``nll_loss`` (``[C]``, ``[N, C]`` or ``[N, C, d1, ...]`` entries): the batch's
    rows (class dim last) flattened into one call without reduction, then each entry reduced as the call asked: the mean divides by the summed
    class weights of the rows that are not ignored (by the row count for probability targets)."""
    input, target = call.get("input"), call.get("target")  # noqa: A001
    if call.get("size_average") is not None or call.get("reduce") is not None:
        return call.loop()  # the legacy flags decide the reduction: entry by entry
    weight, ignore_index = call.get("weight"), call.get("ignore_index")
    reduction = call.get("reduction")
    rank = call.rank(input)
    if not isinstance(target, Tensor) or rank == 0 or call.value(weight) is not None:
        return call.loop()
    vi = call.value(input)
    size = (vi if vi is not None else call.value(target)).shape[0]
    vi, vt = call.expanded(input, size), call.expanded(target, size)
    class_dim = 1 if rank == 1 else 2
    classes = vi.shape[class_dim]
    probabilities = vt.dtype.kind == "f"
    rows = vt.movedim(class_dim, -1).reshape(-1, classes) if probabilities else vt.reshape(-1)
    inputs = vi.movedim(class_dim, -1).reshape(-1, classes)
    args, kwargs = call.replaced(input=inputs, target=rows, reduction="none")
    losses = call.run(call.fn, *args, **kwargs).reshape(size, -1)
    if reduction == "none":
        return call.wrap(losses.reshape(tuple(vi.shape[:class_dim]) + tuple(vi.shape[class_dim + 1 :])))
    if reduction == "sum":
        return call.wrap(losses.sum(1))
    if probabilities:
        return call.wrap(losses.mean(1))
    kept = vt.reshape(size, -1) != ignore_index
    if weight is None:
        counted = kept.sum(1).to(losses.dtype)
    else:
        counted = (weight.to(losses.dtype).detach()[kept.long() * vt.reshape(size, -1)] * kept).sum(1)
    return call.wrap(losses.sum(1) / counted)


@op(batch=_class_loss_rule)
def cross_entropy(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    ignore_index: int = -100,
    reduce=None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """Cross-entropy between logits ``input`` ([N, C], [C] or [N, C, d1, ...]) and ``target``.

    ``target`` holds class indices (an integer tensor shaped like ``input`` without
    the class dim) or class probabilities (a float tensor shaped like ``input``).
    Computed through log-sum-exp, so logits of 1e4 are fine. ``weight`` rescales
    classes; rows whose target is ``ignore_index`` add nothing (and do not count in
    the mean); ``label_smoothing`` mixes the target with the uniform distribution.
    """
    reduction = _reduction(size_average, reduce, reduction, "cross_entropy")
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    refuse_dtype(input, "log_softmax_lastdim_kernel_impl", "biu")
    target = _as_target(target, input, "cross_entropy")
    x, t, loss_shape = _rows(input, target, "cross_entropy")
    xp = input.device.xp
    xd = x.array
    num_rows, num_classes = xd.shape
    w = _class_weights(input, weight, num_classes, "cross_entropy")
    class_targets = t.array.dtype.kind != "f"
    ignored = _ignored_rows(t.array, num_classes, ignore_index, "cross_entropy") if class_targets else None
    if class_targets:
        loss = _class_index_cross_entropy(x, t, w, ignored, reduction, label_smoothing)
        return loss.reshape(loss_shape) if reduction == "none" and loss_shape != (num_rows,) else loss
    q = _prob_target_matrix(t.array, num_classes, w, label_smoothing, xd.dtype)
    # Row i's loss is -Q_i . log_softmax(x_i) = sum(Q_i) * logsumexp(s_i) - Q_i . s_i with s_i = x_i - max(x_i).
    shifted = xp.subtract(xd, xd.max(axis=1, keepdims=True))
    target_terms = (q * shifted).sum(axis=1)
    q_sums = q.sum(axis=1, keepdims=True)
    # exp into a new array, not in place over `shifted`: measured in W12 (700 x 1000 logits), the in-place
    # form was 2 ms a step slower with ~900 more page faults, as the backward's first [M, C] array no longer
    # lands in the pages `shifted` had already faulted in. The same holds for `shifted` as a work array
    # (with label_smoothing=0.1, W12 made 4134 -> 4523 faults a step).
    probs = xp.exp(shifted)
    total = probs.sum(axis=1, keepdims=True)
    log_total = xp.log(total[:, 0])
    per_row = log_total * q_sums[:, 0] - target_terms
    probs /= total
    if reduction == "none":
        out = per_row
    elif reduction == "sum":
        out = per_row.sum()
    else:
        out = _mean_of_rows(per_row.sum(), num_rows)
    dev = input.device
    target_parent = t.array.dtype.kind == "f" and (t.requires_grad or bool(_tangents_of(t)))
    each_row = reduction == "none"  # g holds one entry per row
    divisor = num_rows if reduction == "mean" else 1.0
    if target_parent:
        backward = _cross_entropy_rule_with_target(x, probs, t, w, label_smoothing, num_classes, divisor, each_row)
    else:
        backward = _cross_entropy_rule(x, probs, make_leaf(q, dev), make_leaf(q_sums, dev), divisor, each_row)

    parents = (x, t) if target_parent else (x,)
    loss = make(out, parents, backward, "cross_entropy", _row_tangent_rule(backward, out, each_row, dev))
    return loss.reshape(loss_shape) if reduction == "none" and loss_shape != (num_rows,) else loss


def _row_tangent_rule(backward, out, each_row: bool, dev):
    """cross_entropy's forward-mode rule: each row's loss depends on its own row only, so its tangent is that
    row's gradient (g = 1) dotted with the tangent, summed over the classes (and over the rows too, for a
    reduced loss)."""
    unit = make_leaf(dev.xp.ones(out.shape, dtype=out.dtype), dev)
    summed_over = 1 if each_row else None

    def jvp(*tangents):
        return sum(gr * tn for gr, tn in zip(backward(unit), tangents)).sum(summed_over)

    return jvp


def _class_index_cross_entropy(x: Tensor, t: Tensor, weight, ignored, reduction: str, smoothing: float) -> Tensor:
    """cross_entropy of logits ``x`` ([M, C]) against class indices ``t`` ([M]), with no target matrix.

    Row i's loss is ``c_i * nll_i`` with ``nll_i = logsumexp(x_i) - x_i[t_i]`` and ``c_i`` = ``weight[t_i]`` (1
    without class weights, 0 where ``ignored``); with label smoothing ``e`` it is, as PyTorch defines it,
    ``(1 - e) * c_i * nll_i + e / C * k_i * sum_c(-w_c * log_softmax(x_i)_c)`` (``k_i`` 0 where ignored, else 1;
    ``w`` the class weights, ones without), where the sum is ``W * log(sum_c exp(s_ic)) - w . s_i`` with
    ``s_i = x_i - max(x_i)`` and ``W = sum(w)``. So the forward needs each row's maximum, sum of exponentials,
    target logit and (smoothing) weighted sum of shifted logits. The mean divides by the sum of the ``c_i``,
    as PyTorch does."""
    xp, dev = x.device.xp, x.device
    xd = x.array
    num_rows, num_classes = xd.shape
    targets = t.array if ignored is None else xp.where(ignored, 0, t.array)  # class 0 where c_i is 0
    row_max = xd.max(axis=1, keepdims=True)
    row_sum, exps, shifted_sums = _row_exponentials(xp, xd, row_max, weight, smoothing)
    log_sum = xp.log(row_sum[:, 0])
    per_row = log_sum - (xd[xp.arange(num_rows), targets] - row_max[:, 0])
    row_weight = _row_weights(targets, weight, ignored, xd.dtype, xp)
    if row_weight is not None:
        per_row *= row_weight
    if smoothing:
        total_weight = num_classes if weight is None else weight.sum()
        spread = total_weight * log_sum - shifted_sums
        if ignored is not None:
            spread *= ~ignored
        per_row = (1 - smoothing) * per_row + (smoothing / num_classes) * spread
    each_row = reduction == "none"
    if reduction != "mean":
        divisor = 1.0
    else:
        divisor = _mean_divisor(num_rows, row_weight)
    out = per_row if each_row else _mean_of_rows(per_row.sum(), divisor)
    divisor = _rule_divisor(divisor, ignored)
    if ignored is not None:  # the rule reads the targets with class 0 in the ignored rows
        t = make_leaf(targets, dev)
    if smoothing:
        row_kept = None if ignored is None else make_leaf((~ignored[:, None]).astype(xd.dtype), dev)
        class_weight = None if weight is None else make_leaf(weight, dev)
        backward = _smoothed_class_index_rule(
            x, t, row_max, row_sum, smoothing, class_weight, row_kept, divisor, each_row
        )
    elif row_weight is None:
        backward = _class_index_rule(x, t, row_max, row_sum, divisor, each_row)
    else:
        backward = _weighted_class_index_rule(
            x, t, row_max, row_sum, make_leaf(row_weight[:, None], dev), divisor, each_row
        )
    return make(out, (x,), backward, "cross_entropy", _row_tangent_rule(backward, out, each_row, dev))


@rules_saving(("x", "t", "row_max", "row_sum", "divisor"))
def _class_index_rule(x: Tensor, t: Tensor, row_max, row_sum, divisor: float, each_row: bool):
    """cross_entropy's rule for plain class indices ``t``: row i's gradient is ``softmax(x_i) - onehot(t_i)``,
    times the row's share of g (``g / divisor`` for the mean). ``softmax_minus_onehot`` makes it as one array
    from the forward's row maxima and sums."""
    if each_row:

        def backward(g):
            return (softmax_minus_onehot(x, t, row_max, row_sum, times=g.unsqueeze(1)),)

    else:

        def backward(g):
            return (softmax_minus_onehot(x, t, row_max, row_sum, times=g / divisor),)

    return backward


@rules_saving(("x", "t", "row_max", "row_sum", "row_weight", "divisor"))
def _weighted_class_index_rule(x: Tensor, t: Tensor, row_max, row_sum, row_weight: Tensor, divisor, each_row):
    """cross_entropy's rule for class indices ``t`` with class weights or ignored rows: row i's gradient is
    ``(softmax(x_i) - onehot(t_i)) * c_i`` (``row_weight``: the target's class weight, 0 for an ignored row),
    times the row's share of g."""
    if each_row:

        def backward(g):
            return (softmax_minus_onehot(x, t, row_max, row_sum, times=row_weight * g.unsqueeze(1)),)

    else:

        def backward(g):
            return (softmax_minus_onehot(x, t, row_max, row_sum, times=row_weight * (g / divisor)),)

    return backward


_EXPONENTIALS = "cross_entropy exp(x - max)"


def _row_exponentials(xp, xd, row_max, weight, smoothing: float):
    """Each row's sum of ``exp(x - max)`` ([M, 1]), the exponentials, and, for label smoothing, each row's
    class-weighted sum of ``x - max`` ([M]; else None). The exponentials are made in a work array kept
    between calls (a fresh [M, C] array is paged in again every step) and stay there, marked with the row
    sums, until the next call, so that the backward can scale them instead of computing them again."""
    exps = xp.subtract(xd, row_max, out=work_array(xp, _EXPONENTIALS, xd.shape, xd.dtype))
    shifted_sums = None if not smoothing else exps.sum(axis=1) if weight is None else exps @ weight
    row_sum = xp.exp(exps, out=exps).sum(axis=1, keepdims=True)
    leave(_EXPONENTIALS, exps, owner=row_sum)
    return row_sum, exps, shifted_sums


def _exponentials(x: Tensor, row_max, row_sum):
    """``exp(x - row_max)`` as the forward that found ``row_max`` and ``row_sum`` made it: its work array when no
    later call has written over it (read only), else computed again into a new array."""
    found = left(_EXPONENTIALS, row_sum)
    if found is not None:
        return found[0], False
    xp = x.device.xp
    exps = xp.subtract(x.array, row_max)
    return xp.exp(exps, out=exps), True


def softmax_minus_onehot(x: Tensor, t: Tensor, row_max, row_sum, times: Tensor) -> Tensor:
    """``(softmax(x) - onehot(t)) * times`` for logits ``x`` ([M, C]) and class indices ``t`` ([M]).

    softmax(x) is ``exp(x - row_max) / row_sum`` with the row maxima and sums of exponentials the forward
    found (and its exponentials, while its work array still holds them). In a plain backward pass the
    result is one [M, C] array: the exponentials scaled by ``times / row_sum``, then ``times`` subtracted at
    each row's target. Under create_graph (or forward-mode AD) it is made of a softmax node and a one-hot
    constant, so it differentiates again (in ``x`` and in ``times``).
    """
    xp = x.device.xp
    exps, owned = _exponentials(x, row_max, row_sum)
    rows = xp.arange(exps.shape[0])
    if grad.enabled or extras.on:
        probs = xp.divide(exps, row_sum, out=exps if owned else None)
        onehot = xp.zeros_like(probs)
        onehot[rows, t.array] = 1
        return (softmax_node(x, probs, 1) - make_leaf(onehot, x.device)) * times
    result = xp.multiply(exps, times.array / row_sum, out=exps if owned else None)
    result[rows, t.array] -= times.array.reshape(-1)
    return make(result, (x, times), None, "softmax_minus_onehot")


@rules_saving(("x", "t", "row_max", "row_sum", "smoothing", "class_weight", "row_kept", "divisor"))
def _smoothed_class_index_rule(x, t, row_max, row_sum, smoothing, class_weight, row_kept, divisor, each_row):
    """cross_entropy's rule for class indices ``t`` with label smoothing: row i's target is
    ``q_i = (1 - smoothing) * w[t_i] * onehot(t_i) + smoothing / C * w`` (``w``: ``class_weight``, ones without)
    and its gradient ``softmax(x_i) * sum(q_i) - q_i``, times the row's share of g, and 0 for an ignored row
    (``row_kept``)."""
    if row_kept is None and each_row:

        def backward(g):
            return (smoothed_softmax_minus_onehot(x, t, row_max, row_sum, smoothing, class_weight, g.unsqueeze(1)),)

    elif row_kept is None:

        def backward(g):
            return (smoothed_softmax_minus_onehot(x, t, row_max, row_sum, smoothing, class_weight, g / divisor),)

    elif each_row:

        def backward(g):
            return (
                smoothed_softmax_minus_onehot(
                    x, t, row_max, row_sum, smoothing, class_weight, row_kept * g.unsqueeze(1)
                ),
            )

    else:

        def backward(g):
            return (
                smoothed_softmax_minus_onehot(
                    x, t, row_max, row_sum, smoothing, class_weight, row_kept * (g / divisor)
                ),
            )

    return backward


def smoothed_softmax_minus_onehot(x: Tensor, t: Tensor, row_max, row_sum, smoothing: float, class_weight, times):
    """``(softmax(x) * sum(q) - q) * times`` for logits ``x`` ([M, C]), class indices ``t`` ([M]) and the smoothed
    targets ``q_i = (1 - smoothing) * w[t_i] * onehot(t_i) + smoothing / C * w`` (``w``: ``class_weight``, or ones).

    As :func:`softmax_minus_onehot`: in a plain backward pass one [M, C] array, the exponentials scaled by
    ``times * sum(q_i) / row_sum``, less ``times * smoothing / C * w`` everywhere and ``times * (1 - smoothing) *
    w[t_i]`` at each row's target, with no [M, C] target matrix; under create_graph (or forward-mode AD) a
    softmax node and a constant ``q``, so it differentiates again (in ``x`` and in ``times``).
    """
    xp = x.device.xp
    exps, owned = _exponentials(x, row_max, row_sum)
    num_rows, num_classes = exps.shape
    rows = xp.arange(num_rows)
    w = None if class_weight is None else class_weight.array
    hit = (1 - smoothing) * (1.0 if w is None else w[t.array])  # q_i at the target ([M], or one number)
    spread = smoothing / num_classes  # q_i elsewhere, times w
    # sum(q_i): 1 without class weights (a number, so that it keeps the logits' dtype), else one per row
    q_total = 1.0 if w is None else (hit + spread * w.sum())[:, None]
    if grad.enabled or extras.on:
        probs = xp.divide(exps, row_sum, out=exps if owned else None)
        q = xp.full_like(probs, spread) if w is None else xp.broadcast_to(spread * w, probs.shape).copy()
        q[rows, t.array] += hit
        q_sums = xp.full((num_rows, 1), q_total, dtype=probs.dtype)
        return (softmax_node(x, probs, 1) * make_leaf(q_sums, x.device) - make_leaf(q, x.device)) * times
    share = times.array
    result = xp.multiply(exps, share * q_total / row_sum, out=exps if owned else None)
    if w is None:
        result -= share * spread
    elif share.ndim:  # a share per row ([M, 1]) times the weights: an [M, C] product, in scratch memory
        result -= xp.multiply(share, spread * w, out=work_array(xp, "cross_entropy smoothing", exps.shape, exps.dtype))
    else:
        result -= share * spread * w
    result[rows, t.array] -= share.reshape(-1) * hit
    return make(result, (x, times), None, "smoothed_softmax_minus_onehot")


@rules_saving(("x", "probs", "q", "q_total", "divisor"))
def _cross_entropy_rule(x: Tensor, probs, q: Tensor, q_total: Tensor, divisor: float, each_row: bool):
    """cross_entropy's rule for a probability target that is data: row i's gradient is
    ``softmax(x_i) * sum(Q_i) - Q_i`` (Q: the target, smoothed and weighted), times the row's share of g
    (``g / divisor`` for the mean). One rule per case, chosen here, so each reads as its mathematics;
    ``softmax_node`` is softmax(x) from the probabilities the forward computed."""
    if not each_row:

        def backward(g):
            return ((softmax_node(x, probs, 1) * q_total - q) * (g / divisor),)

    else:

        def backward(g):
            return ((softmax_node(x, probs, 1) * q_total - q) * g.unsqueeze(1),)

    return backward


@rules_saving(("x", "probs", "t", "t_weight", "spread", "g_rows", "divisor"))
def _cross_entropy_rule_with_target(x, probs, t, w, label_smoothing: float, num_classes: int, divisor, each_row):
    """cross_entropy's rule for a probability target that requires grad: Q is built from ``t`` with ops
    (smoothed, weighted), so create_graph sees both inputs; ``d loss / d t = -log_softmax(x)`` through Q."""
    dev = x.device
    t_weight = make_leaf(dev.xp.asarray(1.0 - label_smoothing, dtype=x.array.dtype) * (1 if w is None else w), dev)
    spread = label_smoothing / num_classes * (1 if w is None else make_leaf(w, dev))
    g_rows = (-1, 1) if each_row else ()

    def backward(g):
        q = t * t_weight + spread
        share = g.reshape(g_rows) / divisor
        return (softmax_node(x, probs, 1) * q.sum(1, keepdim=True) - q) * share, -log_softmax(x, 1) * t_weight * share

    return backward


@op(batch=_class_loss_rule)
def nll_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    ignore_index: int = -100,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """Negative log-likelihood of class-index targets given log-probabilities ``input``
    ([N, C], [C] or [N, C, d1, ...]); pair it with log_softmax."""
    reduction = _reduction(size_average, reduce, reduction, "nll_loss")
    target = _as_target(target, input, "nll_loss")
    if target.array.dtype.kind == "f":
        raise RuntimeError(f"nll_loss(): expected class-index targets of an integer dtype, got dtype {target.dtype}")
    x, t, loss_shape = _rows(input, target, "nll_loss")
    refuse_dtype(input, "nll_loss_out_frame", "biu")
    num_classes = x.array.shape[1]
    w = _class_weights(input, weight, num_classes, "nll_loss")
    ignored = _ignored_rows(t.array, num_classes, ignore_index, "nll_loss")
    xp, dev = input.device.xp, input.device
    targets = t.array if ignored is None else xp.where(ignored, 0, t.array)  # class 0 where c_i is 0
    # Row i's loss is -c_i * x_i[t_i] (c_i = weight[t_i], 0 where ignored): one entry picked a row, no one-hot
    # matrix (its gradient scatters -c_i * g into zeros).
    picked = index_with_key(x, (xp.arange(targets.shape[0]), targets))
    row_weight = _row_weights(targets, w, ignored, x.array.dtype, xp)
    per_row = -picked if row_weight is None else -(picked * make_leaf(row_weight, dev))
    if reduction == "none":
        return per_row.reshape(loss_shape)
    total = per_row.sum()
    if reduction == "sum":
        return total
    divisor = _mean_divisor(targets.shape[0], row_weight)
    if _rule_divisor(divisor, ignored) != divisor:  # every row ignored: total is 0, its gradient 0
        return total + float("nan")  # PyTorch's mean over no rows: NaN, and nothing flows back
    return total / divisor


def _binary_loss_rule(call: BatchedCall):
    """``binary_cross_entropy(_with_logits)``: elementwise, so one call without reduction (the weights
    padded to line up with the batch), then each entry reduced."""
    names = ("input", "target", "weight", "pos_weight")
    tensors = {n: call.get(n) for n in names}  # None where the op has no such argument (pos_weight)
    reduction = call.get("reduction")
    input, target = tensors["input"], tensors["target"]  # noqa: A001
    if call.get("size_average") is not None or call.get("reduce") is not None:
        return call.loop()  # the legacy flags decide the reduction: entry by entry
    if not isinstance(target, Tensor) or call.rank(target) != call.rank(input):
        return call.loop()
    size = next(call.value(t) for t in tensors.values() if call.value(t) is not None).shape[0]
    rank = call.rank(input)
    changes = {"input": call.expanded(input, size), "target": call.expanded(target, size), "reduction": "none"}
    for name in ("weight", "pos_weight"):
        v = call.value(tensors.get(name))
        if v is not None:
            changes[name] = call.padded(v, rank)
    args, kwargs = call.replaced(**changes)
    losses = call.run(call.fn, *args, **kwargs)
    if reduction == "none" or rank == 0:
        return call.wrap(losses)
    dims = tuple(range(1, rank + 1))
    return call.wrap(losses.sum(dims) if reduction == "sum" else losses.mean(dims))


@op(batch=_binary_loss_rule, saves=("input", "y_const", "w_const"))
def binary_cross_entropy(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """Binary cross-entropy of probabilities ``input`` in [0, 1] against ``target``.

    The logs are clamped at -100 and the gradient's denominator at 1e-12, as in
    PyTorch, so probabilities of exactly 0 or 1 stay finite. ``target`` is a constant.
    """
    reduction = _reduction(size_average, reduce, reduction, "binary_cross_entropy")
    target = _as_target(target, input, "binary_cross_entropy")
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({shape_str(target.shape)}) that is different to the input size "
            f"({shape_str(input.shape)}) is deprecated. Please ensure they have the same size."
        )
    xp = input.device.xp
    p, y = input.array, target.array.astype(input.array.dtype, copy=False)
    if p.size and (bool((p < 0).any()) or bool((p > 1).any())):
        raise RuntimeError("binary_cross_entropy(): all elements of input should be between 0 and 1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        log_p = xp.maximum(xp.log(p), -100.0)
        log_1mp = xp.maximum(xp.log1p(-p), -100.0)
    loss = -(y * log_p + (1 - y) * log_1mp)
    w = None
    if weight is not None:
        w = (
            _as_target(weight, input, "binary_cross_entropy").array
            if isinstance(weight, Tensor)
            else xp.asarray(weight)
        )
    if w is not None:
        loss = loss * w
    y_const = make_leaf(y, input.device)
    w_const = None if w is None else make_leaf(w, input.device)

    if w_const is None:

        def backward(g):
            return ((input - y_const) / clamp(input * (1 - input), min=1e-12) * g,)

        def jvp(t):
            return t * (input - y_const) / clamp(input * (1 - input), min=1e-12)

    else:

        def backward(g):
            return ((input - y_const) / clamp(input * (1 - input), min=1e-12) * w_const * g,)

        def jvp(t):
            return t * (input - y_const) / clamp(input * (1 - input), min=1e-12) * w_const

    return _reduce(make(loss, (input,), backward, "binary_cross_entropy", jvp), reduction)


@op(batch=_binary_loss_rule)
def binary_cross_entropy_with_logits(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    """Binary cross-entropy on logits: ``sigmoid`` and the loss fused stably (any logit size).

    ``loss = (1 - y) * x + (1 + (pos_weight - 1) * y) * softplus(-x)``; ``pos_weight``
    (broadcast over the last dim) weighs the positive class.
    """
    reduction = _reduction(size_average, reduce, reduction, "binary_cross_entropy_with_logits")
    target = _as_target(target, input, "binary_cross_entropy_with_logits")
    if target.shape != input.shape:
        raise ValueError(
            f"Target size ({shape_str(target.shape)}) must be the same as input size ({shape_str(input.shape)})"
        )
    sp = softplus(-input)
    if pos_weight is None:
        loss = (1 - target) * input + sp
    else:
        loss = (1 - target) * input + (
            1 + (_as_target(pos_weight, input, "binary_cross_entropy_with_logits") - 1) * target
        ) * sp
    if weight is not None:
        loss = loss * _as_target(weight, input, "binary_cross_entropy_with_logits")
    return _reduce(loss, reduction)
