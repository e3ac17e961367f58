"""``torch.utils``'s place: ``minigrad.utils.data`` is :mod:`minigrad.data`; ``minigrad.utils.checkpoint``
recomputes a segment's activations during backward."""

from . import checkpoint, data

__all__ = ["data", "checkpoint"]
