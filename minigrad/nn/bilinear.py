"""Bilinear layer: ``y = x1^T A x2 + b``, as torch.nn.Bilinear."""

from __future__ import annotations

import math

from ..creation import empty
from ..tensor import Tensor
from . import init
from .functional._bilinear import bilinear
from .module import Module
from .parameter import Parameter

__all__ = ["Bilinear"]


class Bilinear(Module):
    """``weight`` is ``[out_features, in1_features, in2_features]``; weight and bias start uniform in
    ``[-1/sqrt(in1_features), 1/sqrt(in1_features)]``, as PyTorch's."""

    def __init__(
        self, in1_features: int, in2_features: int, out_features: int, bias: bool = True, device=None, dtype=None
    ):
        super().__init__()
        self.in1_features, self.in2_features, self.out_features = in1_features, in2_features, out_features
        kw = dict(device=device, dtype=dtype)
        self.weight = Parameter(empty((out_features, in1_features, in2_features), **kw))
        if bias:
            self.bias = Parameter(empty((out_features,), **kw))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={self.bias is not None}"
        )
