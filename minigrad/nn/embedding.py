"""Embedding: a lookup table of learned vectors."""

from __future__ import annotations

from ..autograd.grad_mode import no_grad
from ..creation import zeros
from . import init
from .functional import embedding
from .module import Module
from .parameter import Parameter

__all__ = ["Embedding"]


class Embedding(Module):
    """Row ``i`` of ``weight`` ``[num_embeddings, embedding_dim]`` for each integer index ``i``.

    Rows start ``N(0, 1)``; the row at ``padding_idx`` (if given) starts at zero and
    gets no gradient.
    """

    def __init__(
        self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None, device=None, dtype=None
    ):
        super().__init__()
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise AssertionError("Padding_idx must be within num_embeddings")
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = None if padding_idx is None else padding_idx % num_embeddings
        self.weight = Parameter(zeros(num_embeddings, embedding_dim, dtype=dtype, device=device))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight.array[self.padding_idx] = 0

    def forward(self, indices):
        return embedding(indices, self.weight, self.padding_idx)

    def extra_repr(self) -> str:
        extra = f"{self.num_embeddings}, {self.embedding_dim}"
        return extra if self.padding_idx is None else extra + f", padding_idx={self.padding_idx}"
