"""MultiheadAttention, as torch.nn.MultiheadAttention (same parameters, names, layouts and masks)."""

from __future__ import annotations

import math

from ..creation import zeros
from ..tensor import Tensor, shape_str
from . import functional as F
from . import init
from .linear import Linear
from .module import Module
from .parameter import Parameter

__all__ = ["MultiheadAttention"]


class MultiheadAttention(Module):
    """Attention over ``num_heads`` heads of size ``embed_dim / num_heads``, then an output projection.

    Inputs are ``[L, N, E]`` (``[N, L, E]`` with ``batch_first``, or unbatched ``[L, E]``).
    ``forward`` returns ``(output, weights)``; the weights (softmax of the scores) are
    averaged over heads unless ``average_attn_weights=False``, and None when
    ``need_weights=False``. In ``attn_mask`` and ``key_padding_mask`` a True entry
    (boolean masks) is a position NOT attended to; float masks are added to the scores.
    """

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        bias: bool = True,
        add_bias_kv: bool = False,
        add_zero_attn: bool = False,
        kdim: int | None = None,
        vdim: int | None = None,
        batch_first: bool = False,
        device=None,
        dtype=None,
    ):
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(
                f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and num_heads={num_heads}"
            )
        if embed_dim % num_heads:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if add_bias_kv or add_zero_attn:
            raise NotImplementedError("MultiheadAttention: add_bias_kv and add_zero_attn are not supported")
        self.embed_dim, self.num_heads, self.dropout, self.batch_first = embed_dim, num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        kw = dict(dtype=dtype, device=device)
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(zeros(3 * embed_dim, embed_dim, **kw))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.register_parameter("in_proj_weight", None)
            self.q_proj_weight = Parameter(zeros(embed_dim, embed_dim, **kw))
            self.k_proj_weight = Parameter(zeros(embed_dim, self.kdim, **kw))
            self.v_proj_weight = Parameter(zeros(embed_dim, self.vdim, **kw))
        if bias:
            self.in_proj_bias = Parameter(zeros(3 * embed_dim, **kw))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, **kw)
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        """Xavier-uniform input projections and zero biases, as PyTorch."""
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for w in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(w)
        if self.in_proj_bias is not None:
            init.zeros_(self.in_proj_bias)
            init.zeros_(self.out_proj.bias)

    def _projections(self, query: Tensor, key: Tensor, value: Tensor) -> tuple:
        e = self.embed_dim
        if self._qkv_same_embed_dim:
            weights = (self.in_proj_weight[:e], self.in_proj_weight[e : 2 * e], self.in_proj_weight[2 * e :])
        else:
            weights = (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)
        b = self.in_proj_bias
        biases = (None, None, None) if b is None else (b[:e], b[e : 2 * e], b[2 * e :])
        return tuple(F.linear(x, w, bb) for x, w, bb in zip((query, key, value), weights, biases))

    def forward(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        key_padding_mask: Tensor | None = None,
        need_weights: bool = True,
        attn_mask: Tensor | None = None,
        average_attn_weights: bool = True,
        is_causal: bool = False,
    ) -> tuple:
        if is_causal and attn_mask is None:
            raise RuntimeError(
                "Need attn_mask if specifying the is_causal hint. You may use the Transformer module method "
                "`generate_square_subsequent_mask` to create this mask."
            )
        unbatched = query.dim() == 2  # shapes are one entry's inside vmap
        if unbatched:
            query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
            if key_padding_mask is not None:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        elif self.batch_first:
            query, key, value = (x.transpose(0, 1) for x in (query, key, value))
        if query.dim() != 3 or query.shape[2] != self.embed_dim:
            raise AssertionError(
                f"was expecting embedding dimension of {self.embed_dim}, but got query of shape "
                f"{shape_str(query.shape)}"
            )
        length, n, _ = query.shape
        source = key.shape[0]
        h, hd = self.num_heads, self.head_dim
        q, k, v = self._projections(query, key, value)
        # [L, N, E] -> [N, H, L, hd]
        q, k, v = (x.reshape(x.shape[0], n, h, hd).permute(1, 2, 0, 3) for x in (q, k, v))
        scores = (q * (1 / math.sqrt(hd))) @ k.transpose(-2, -1)  # [N, H, L, S]
        if attn_mask is not None:
            mask = attn_mask if attn_mask.dim() == 2 else attn_mask.reshape(n, h, length, source)
            scores = scores.masked_fill(mask, float("-inf")) if mask.array.dtype.kind == "b" else scores + mask
        if key_padding_mask is not None:
            pad = key_padding_mask.reshape(n, 1, 1, source)
            scores = scores.masked_fill(pad, float("-inf")) if pad.array.dtype.kind == "b" else scores + pad
        weights = scores.softmax(dim=-1)
        if self.dropout > 0.0:
            weights = F.dropout(weights, self.dropout, training=self.training)
        out = (weights @ v).permute(2, 0, 1, 3).reshape(length, n, self.embed_dim)
        out = self.out_proj(out)
        if self.batch_first and not unbatched:
            out = out.transpose(0, 1)
        if unbatched:
            out = out.squeeze(1)
        if not need_weights:
            return out, None
        if average_attn_weights:
            weights = weights.mean(dim=1)
        return out, weights.squeeze(0) if unbatched else weights

    def extra_repr(self) -> str:
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, batch_first={self.batch_first}"
