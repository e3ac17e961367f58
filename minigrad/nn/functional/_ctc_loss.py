"""ctc_loss: the connectionist temporal classification loss, as the forward (alpha) recursion over time
written with differentiable ops (gather, pad, where, logsumexp), every sample of the batch at once.

The gradient is autograd's through the recursion: the true derivative of the loss with respect to
``log_probs``. PyTorch's hand-written gradient adds ``exp(log_probs)``, which a ``log_softmax`` in front
of the loss cancels: through ``log_softmax`` the two agree, which is how the loss is used.
"""

from __future__ import annotations

import numpy as np

from ...ops import logsumexp, pad, stack, where  # the public ops: inside vmap they reach their batching rules
from ...ops.declare import LOOP, op
from ...tensor import Tensor
from ._loss import _check_reduction

__all__ = ["ctc_loss"]

# Stands for log(0) inside the recursion: -inf would give logsumexp NaN gradients where every path is
# impossible; exp(_NEVER - anything finite) is exactly 0, so the value and gradient are unchanged.
_NEVER = -1e30


def _lengths(value, n: int, name: str) -> np.ndarray:
    data = value.detach().cpu().numpy() if isinstance(value, Tensor) else np.asarray(value)
    data = np.atleast_1d(data).astype(np.int64)
    if data.shape != (n,):
        raise RuntimeError(f"{name} must be of size batch_size ({n}), got {data.shape[0] if data.ndim else 1}")
    return data


def _label_rows(targets: Tensor, target_lengths: np.ndarray) -> list:
    """Each sample's labels, from padded ``[N, S]`` targets or one concatenated 1-D tensor."""
    data = targets.detach().cpu().numpy().astype(np.int64)
    if data.ndim == 2:
        longest = int(target_lengths.max(initial=0))
        if data.shape[1] < longest:
            raise RuntimeError(
                f"Expected tensor to have size at least {longest} at dimension 1, but got size {data.shape[1]} "
                "for argument #2 'targets' (while checking arguments for ctc_loss_cpu)"
            )
        return [data[i, :length] for i, length in enumerate(target_lengths)]
    ends = np.cumsum(target_lengths)
    if ends.size and ends[-1] > data.shape[0]:
        raise RuntimeError(
            f"Expected tensor to have size at least {ends[-1]} at dimension 0, but got size {data.shape[0]} for "
            "argument #2 'targets' (while checking arguments for ctc_loss_cpu)"
        )
    return [data[end - length : end] for end, length in zip(ends, target_lengths)]


@op(batch=LOOP)
def ctc_loss(
    log_probs: Tensor,
    targets: Tensor,
    input_lengths,
    target_lengths,
    blank: int = 0,
    reduction: str = "mean",
    zero_infinity: bool = False,
) -> Tensor:
    """The negative log-likelihood of each target sequence under the per-step class log-probabilities
    ``log_probs`` ``[T, N, C]`` (or ``[T, C]``), summed over every alignment (repeats merged, ``blank``
    removed). ``reduction="mean"`` divides each loss by its target length, then averages over the batch;
    ``zero_infinity`` turns impossible alignments' infinite losses into 0."""
    _check_reduction(reduction)
    unbatched = log_probs.dim() == 2
    if unbatched:
        log_probs = log_probs.unsqueeze(1)
        targets = targets.unsqueeze(0)
    if log_probs.dim() != 3:
        raise RuntimeError(f"ctc_loss: expected log_probs of 2 or 3 dims [T, (N,) C], got {log_probs.dim()}")
    steps, n, classes = log_probs.shape
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    in_lens = _lengths(input_lengths, n, "input_lengths")
    tgt_lens = _lengths(target_lengths, n, "target_lengths")
    if in_lens.size and in_lens.max() > steps:
        raise RuntimeError(
            f"Expected input_lengths to have value at most {steps}, but got value {in_lens.max()} (while checking "
            "arguments for ctc_loss_cpu)"
        )
    rows = _label_rows(targets, tgt_lens)
    ext_len = 2 * tgt_lens + 1
    width = int(ext_len.max(initial=1))
    ext = np.full((n, width), blank, dtype=np.int64)  # labels with blanks between and around them
    for i, row in enumerate(rows):
        ext[i, 1 : 2 * len(row) : 2] = row
    skip = np.zeros((n, width), dtype=bool)  # s may be reached from s - 2: a label unlike the one before
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    xp = log_probs.device.xp
    index = Tensor(xp.broadcast_to(xp.asarray(ext), (steps, n, width)).copy(), device=log_probs.device)
    emit = log_probs.gather(2, index)  # [T, N, width]: log p of each extended label at each step
    start = np.zeros((n, width), dtype=bool)
    start[:, :2] = True
    alpha = where(_const(start, log_probs), emit[0], _NEVER)
    skip_t, lens_t = _const(skip, log_probs), _const(in_lens.reshape(n, 1), log_probs)
    for t in range(1, steps):
        from_prev = pad(alpha[:, :-1], (1, 0), value=_NEVER)
        from_skip = where(skip_t, pad(alpha[:, :-2], (2, 0), value=_NEVER), _NEVER) if width > 2 else from_prev
        step = logsumexp(stack([alpha, from_prev, from_skip]), 0) + emit[t]
        alpha = where(lens_t > t, step, alpha)  # a sample past its input length keeps its alphas
    last = _const((ext_len - 1).reshape(n, 1), log_probs)
    ends = stack([alpha.gather(1, last), where(last >= 1, alpha.gather(1, (last - 1).clamp(min=0)), _NEVER)])
    nll = -logsumexp(ends, 0).reshape(n)
    impossible = _const(nll.detach().cpu().numpy() > -_NEVER / 10, log_probs)
    nll = where(impossible, 0.0 if zero_infinity else float("inf"), nll)
    if reduction == "mean":
        return (nll / _const(np.maximum(tgt_lens, 1), log_probs).to(nll.dtype)).mean()
    if reduction == "sum":
        return nll.sum()
    return nll.reshape(()) if unbatched else nll


def _const(array: np.ndarray, like: Tensor) -> Tensor:
    return Tensor(like.device.xp.asarray(array), device=like.device)
