"""Linear (affine) layer, LazyLinear (its in_features read from the first input) and Identity."""

from __future__ import annotations

import math

from ..autograd.grad_mode import no_grad
from ..creation import empty, zeros
from ..tensor import Tensor, shape_str
from . import init
from .functional import linear
from .module import Module
from .parameter import Parameter

__all__ = ["Linear", "LazyLinear", "Identity"]


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


class LazyLinear(Linear):
    """A ``Linear`` whose ``in_features`` is the last dim of the first input it is called with.

    Until then ``in_features`` is 0 and the parameters are empty placeholders (torch's are
    ``UninitializedParameter``s); the first call gives them their shapes, draws them as ``Linear``
    does, and the module becomes a ``Linear`` (its class changes, as torch's ``cls_to_become``). The
    parameter objects stay the same, so an optimizer made before the first call updates them.
    """

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None):
        Module.__init__(self)
        self.in_features = 0
        self.out_features = out_features
        self.weight = Parameter(empty(0, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(empty(0, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)

    def has_uninitialized_params(self) -> bool:
        """Whether the parameters still wait for the first input (torch's LazyModuleMixin)."""
        return self.in_features == 0

    def reset_parameters(self) -> None:
        """Re-draw the parameters once they have their shapes (before that, nothing to draw)."""
        if not self.has_uninitialized_params():
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:  # noqa: A002  (torch's argument name)
        """Give the parameters their shapes from ``input``'s last dim and draw them."""
        if not self.has_uninitialized_params():
            return
        shape = tuple(input.shape)
        if not shape:
            raise RuntimeError(f"{self._label()}: expected an input with at least one dim, got a 0-dim tensor")
        self.in_features = shape[-1]
        with no_grad():
            self.weight.data = zeros(
                self.out_features, self.in_features, dtype=self.weight.dtype, device=self.weight.device
            )
            if self.bias is not None:
                self.bias.data = zeros(self.out_features, dtype=self.bias.dtype, device=self.bias.device)
        self.reset_parameters()

    def forward(self, x: Tensor) -> Tensor:
        self.initialize_parameters(x)
        self.__class__ = self.cls_to_become
        return self.forward(x)


class Identity(Module):
    """Returns its input unchanged (a placeholder layer)."""

    def forward(self, x: Tensor) -> Tensor:
        return x
