"""Dropout1d/2d/3d (whole channels), AlphaDropout and FeatureAlphaDropout (for SELU networks)."""

from __future__ import annotations

from ..tensor import Tensor
from .functional import _channel_dropout as D
from .module import Module

__all__ = ["Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"]


class _DropoutNd(Module):
    _FUNCTION = staticmethod(D.dropout2d)

    def __init__(self, p: float = 0.5, inplace: bool = False):
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return self._FUNCTION(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(_DropoutNd):
    """Zero whole channels of ``[N, C, L]`` (or ``[C, L]``) with probability ``p`` in training mode."""

    _FUNCTION = staticmethod(D.dropout1d)


class Dropout2d(_DropoutNd):
    """Zero whole channels of ``[N, C, H, W]`` (or ``[C, H, W]``) with probability ``p`` in training mode."""

    _FUNCTION = staticmethod(D.dropout2d)


class Dropout3d(_DropoutNd):
    """Zero whole channels of ``[N, C, D, H, W]`` (or ``[C, D, H, W]``) with probability ``p`` in training mode."""

    _FUNCTION = staticmethod(D.dropout3d)


class AlphaDropout(_DropoutNd):
    """Dropout that keeps SELU's mean and variance, in training mode."""

    _FUNCTION = staticmethod(D.alpha_dropout)


class FeatureAlphaDropout(_DropoutNd):
    """AlphaDropout of whole channels, in training mode."""

    _FUNCTION = staticmethod(D.feature_alpha_dropout)
