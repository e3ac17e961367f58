"""Activation layers: ReLU, Tanh, Sigmoid, GELU, LeakyReLU, SiLU, Softmax, LogSoftmax, and the hard/smooth variants."""

from __future__ import annotations

import warnings

from ..tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["ReLU", "Tanh", "Sigmoid", "GELU", "LeakyReLU", "SiLU", "Softmax", "LogSoftmax"]
__all__ += ["Hardtanh", "ReLU6", "Hardsigmoid", "Hardswish", "Mish", "Softsign", "LogSigmoid"]


class ReLU(Module):
    """``max(x, 0)`` elementwise."""

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x: Tensor) -> Tensor:
        return F.relu(x, self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Tanh(Module):
    """Hyperbolic tangent elementwise."""

    def forward(self, x: Tensor) -> Tensor:
        return F.tanh(x)


class Sigmoid(Module):
    """Logistic sigmoid elementwise."""

    def forward(self, x: Tensor) -> Tensor:
        return F.sigmoid(x)


class GELU(Module):
    """Gaussian error linear unit; ``approximate="tanh"`` for the tanh formula."""

    def __init__(self, approximate: str = "none"):
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise ValueError(f"approximate argument must be either none or tanh, got '{approximate}'")
        self.approximate = approximate

    def forward(self, x: Tensor) -> Tensor:
        return F.gelu(x, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate='{self.approximate}'"


class LeakyReLU(Module):
    """``x`` where positive, else ``negative_slope * x``."""

    def __init__(self, negative_slope: float = 0.01, inplace: bool = False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, x: Tensor) -> Tensor:
        return F.leaky_relu(x, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}{', inplace=True' if self.inplace else ''}"


class ELU(Module):
    """``x`` where positive, else ``alpha * (exp(x) - 1)``."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, x: Tensor) -> Tensor:
        return F.elu(x, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}{', inplace=True' if self.inplace else ''}"


class Softplus(Module):
    """``log(1 + exp(beta * x)) / beta``, linear above ``threshold``."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, x: Tensor) -> Tensor:
        return F.softplus(x, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class SiLU(Module):
    """``x * sigmoid(x)``."""

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x: Tensor) -> Tensor:
        return F.silu(x, self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Softmax(Module):
    """Softmax along ``dim``."""

    def __init__(self, dim: int = -1):
        super().__init__()
        self.dim = dim

    def forward(self, x: Tensor) -> Tensor:
        return F.softmax(x, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """Log of softmax along ``dim``, computed stably."""

    def __init__(self, dim: int = -1):
        super().__init__()
        self.dim = dim

    def forward(self, x: Tensor) -> Tensor:
        return F.log_softmax(x, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Hardtanh(Module):
    """``x`` clipped to ``[min_val, max_val]``."""

    def __init__(
        self,
        min_val: float = -1.0,
        max_val: float = 1.0,
        inplace: bool = False,
        min_value: float | None = None,
        max_value: float | None = None,
    ):
        super().__init__()
        if min_value is not None:  # PyTorch's old names, still taken with its warning
            warnings.warn("keyword argument `min_value` is deprecated and renamed to `min_val`", stacklevel=2)
            min_val = min_value
        if max_value is not None:
            warnings.warn("keyword argument `max_value` is deprecated and renamed to `max_val`", stacklevel=2)
            max_val = max_value
        if max_val <= min_val:
            raise AssertionError(f"max_val ({max_val}) must be greater than min_val ({min_val})")
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def forward(self, x: Tensor) -> Tensor:
        return F.hardtanh(x, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}{', inplace=True' if self.inplace else ''}"


class ReLU6(Module):
    """``min(max(x, 0), 6)``."""

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x: Tensor) -> Tensor:
        return F.relu6(x, self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Hardsigmoid(Module):
    """``relu6(x + 3) / 6``."""

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x: Tensor) -> Tensor:
        return F.hardsigmoid(x, self.inplace)


class Hardswish(Module):
    """``x * relu6(x + 3) / 6``."""

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x: Tensor) -> Tensor:
        return F.hardswish(x, self.inplace)


class Mish(Module):
    """``x * tanh(softplus(x))``."""

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x: Tensor) -> Tensor:
        return F.mish(x, self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Softsign(Module):
    """``x / (1 + |x|)``."""

    def forward(self, x: Tensor) -> Tensor:
        return F.softsign(x)


class LogSigmoid(Module):
    """``log(sigmoid(x))``, computed stably."""

    def forward(self, x: Tensor) -> Tensor:
        return F.logsigmoid(x)
