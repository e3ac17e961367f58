"""CosineSimilarity as a module (see ``functional.cosine_similarity``)."""

from __future__ import annotations

from . import functional as F
from .module import Module

__all__ = ["CosineSimilarity"]


class CosineSimilarity(Module):
    """The cosine similarity of two inputs along ``dim``, each norm clamped to at least ``eps``."""

    def __init__(self, dim: int = 1, eps: float = 1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
