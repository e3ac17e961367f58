"""``inplace=True`` for layers composed of ops: the result written into the input."""

from __future__ import annotations

from ...tensor import Tensor

__all__ = ["written_into"]


def written_into(fn, input: Tensor, inplace: bool) -> Tensor:  # noqa: A002
    """``fn(input)``; with ``inplace``, its result written into ``input`` (``copy_``, a recorded in-place op)
    and ``input`` returned. The ops then read a clone, so what their rules saved is not the tensor the write
    changes (PyTorch's in-place kernels save their result instead)."""
    if not inplace:
        return fn(input)
    return input.copy_(fn(input.clone()))
