"""one_hot: class indices to rows of zeros with a one (an int64 constant, not differentiable)."""

from __future__ import annotations

from ... import backend as B
from ...tensor import Tensor, make_leaf

__all__ = ["one_hot"]


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
