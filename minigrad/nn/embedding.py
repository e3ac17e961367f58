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

    Rows start ``N(0, 1)``; the row at ``padding_idx`` (if given) starts at zero and gets no gradient.
    ``max_norm``, ``norm_type``, ``scale_grad_by_freq`` and ``sparse`` are :func:`functional.embedding`'s;
    ``_weight`` (and ``_freeze``: no gradient) start from given values, as :meth:`from_pretrained` does.
    """

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight=None,
        _freeze: bool = False,
        device=None,
        dtype=None,
    ):
        super().__init__()
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise AssertionError("Padding_idx must be within num_embeddings")
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = None if padding_idx is None else padding_idx % num_embeddings
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            self.weight = Parameter(zeros(num_embeddings, embedding_dim, dtype=dtype, device=device), not _freeze)
            self.reset_parameters()
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    @classmethod
    def from_pretrained(
        cls,
        embeddings,
        freeze: bool = True,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
    ) -> Embedding:
        """An Embedding whose weight is ``embeddings`` (2-D); ``freeze`` (the default) gives it no gradient."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(
            rows,
            cols,
            padding_idx,
            max_norm,
            norm_type,
            scale_grad_by_freq,
            sparse,
            _weight=embeddings,
            _freeze=freeze,
        )

    def reset_parameters(self) -> None:
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight.array[self.padding_idx] = 0

    def forward(self, indices):
        return embedding(
            indices, self.weight, self.padding_idx, self.max_norm, self.norm_type, self.scale_grad_by_freq, self.sparse
        )

    def extra_repr(self) -> str:
        extra = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            extra += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            extra += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            extra += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            extra += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse is not False:
            extra += ", sparse=True"
        return extra
