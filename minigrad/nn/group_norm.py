"""GroupNorm: normalisation over groups of channels, independent of the batch size."""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F
from .module import Module
from .normalization import register_scale_and_shift

__all__ = ["GroupNorm"]


class GroupNorm(Module):
    """Split ``num_channels`` into ``num_groups`` groups; normalise each over its channels and positions.

    With ``affine`` (default) each channel then gets a learned scale (``weight``, ones)
    and shift (``bias``, zeros).
    """

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-5,
        affine: bool = True,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        register_scale_and_shift(self, num_channels, affine, bias, dtype, device)

    def forward(self, x: Tensor) -> Tensor:
        return F.group_norm(x, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, bias={self.bias is not None}"
