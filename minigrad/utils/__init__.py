"""``torch.utils``'s place: ``minigrad.utils.data`` is :mod:`minigrad.data`."""

from . import data

__all__ = ["data"]
