"""one_hot: class indices to rows of zeros with a one (an int64 constant, not differentiable)."""

from __future__ import annotations

from ... import backend as B
from ...ops.declare import BatchedCall, op
from ...tensor import Tensor, make_leaf

__all__ = ["one_hot"]


def _one_hot_rule(call: BatchedCall):
    """``one_hot`` acts on each index alone, given ``num_classes``; inferred, the class count would depend on
    each entry's values, so it is refused as PyTorch refuses it."""
    num_classes = call.get("num_classes")
    if isinstance(num_classes, int) and not isinstance(num_classes, bool) and num_classes <= 0:
        raise RuntimeError(
            "When vmap-ing torch.nn.functional.one_hot, please provide an explicit positive num_classes argument."
        )
    # the trailing dims of the indices only: the batch dim in front changes nothing
    v = call.value(call.args[0])
    if v is None or call.batched_among(list(call.args[1:]) + list(call.kwargs.values())):
        return call.loop()
    return call.wrap(call.run(call.fn, v, *call.args[1:], **call.kwargs))


@op(batch=_one_hot_rule)
def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """``[*]`` int64 class indices -> ``[*, num_classes]`` int64 (``num_classes = max + 1`` when -1)."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"one_hot(): argument 'input' must be Tensor, not {type(tensor).__name__}")
    if isinstance(num_classes, bool) or not isinstance(num_classes, int):
        raise TypeError(f"one_hot(): argument 'num_classes' must be int, not {type(num_classes).__name__}")
    d = tensor.array
    if d.dtype != B.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    xp = tensor.device.xp
    if d.size and int(d.min()) < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if d.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(d.max()) + 1
    elif num_classes < -1:
        raise RuntimeError("num_classes should be positive")
    elif d.size and int(d.max()) >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = (d[..., None] == xp.arange(num_classes)).astype(B.int64)
    return make_leaf(out, tensor.device)
