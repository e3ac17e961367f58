"""Linear (affine) layer and Identity."""

from __future__ import annotations

import math

from ..creation import zeros
from ..tensor import Tensor, shape_str
from . import init
from .functional import linear
from .module import Module
from .parameter import Parameter

__all__ = ["Linear", "Identity"]


class Linear(Module):
    """``y = x @ weight.T + bias`` over the last dim of ``x``.

    ``weight`` is ``[out_features, in_features]``; both parameters start uniform in
    ``±1/sqrt(in_features)``, as in PyTorch.
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(zeros(out_features, in_features, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(zeros(out_features, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Re-draw the parameters (kaiming uniform with a = sqrt(5), as torch.nn.Linear)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            bound = 1 / math.sqrt(self.in_features) if self.in_features > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, x: Tensor) -> Tensor:
        shape = tuple(x.shape)  # one entry's, inside vmap
        if not shape or shape[-1] != self.in_features:
            raise RuntimeError(
                f"{self._label()}: expected input with in_features={self.in_features} in its last dim, "
                f"got input of shape {shape_str(shape)} ({shape[-1] if shape else 'no'} features)"
            )
        params = self._parameters  # read directly: Module.__getattr__ is the slow path of attribute lookup
        weight = params["weight"] if "weight" in params else self.weight
        bias = params["bias"] if "bias" in params else self.bias
        return linear(x, weight, bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Identity(Module):
    """Returns its input unchanged (a placeholder layer)."""

    def forward(self, x: Tensor) -> Tensor:
        return x
