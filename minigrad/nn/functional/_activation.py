"""Activations as functions (the elementwise and softmax ops, under their torch.nn.functional names).

The ones torch.nn.functional gives an ``inplace`` argument take it here too: ``inplace=True`` writes the
result into ``input`` (a recorded ``copy_``) and returns ``input``."""

from __future__ import annotations

from ... import ops as _ops  # the public ops: inside vmap they reach their batching rules
from ...ops.activation import logsigmoid, softsign
from ...ops.declare import COMPOSITE, op
from ...ops.elementwise import gelu, sigmoid, softplus, tanh
from ...ops.reduction import log_softmax, softmax
from ...tensor import Tensor
from ._inplace import written_into

__all__ = ["relu", "tanh", "sigmoid", "elu", "gelu", "leaky_relu", "silu", "softplus", "softmax", "log_softmax"]
__all__ += ["hardtanh", "relu6", "hardsigmoid", "hardswish", "mish", "softsign", "logsigmoid"]


@op(batch=COMPOSITE)
def relu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``max(input, 0)`` elementwise."""
    return written_into(_ops.relu, input, inplace)


@op(batch=COMPOSITE)
def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """``input`` where positive, else ``alpha * (exp(input) - 1)``."""
    return written_into(lambda x: _ops.elu(x, alpha), input, inplace)


@op(batch=COMPOSITE)
def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:  # noqa: A002
    """``input`` where positive, else ``negative_slope * input``."""
    return written_into(lambda x: _ops.leaky_relu(x, negative_slope), input, inplace)


@op(batch=COMPOSITE)
def silu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``input * sigmoid(input)``."""
    return written_into(_ops.silu, input, inplace)


@op(batch=COMPOSITE)
def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """``input`` clipped to ``[min_val, max_val]``."""
    return written_into(lambda x: _ops.hardtanh(x, min_val, max_val), input, inplace)


@op(batch=COMPOSITE)
def relu6(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``min(max(input, 0), 6)``."""
    return written_into(_ops.relu6, input, inplace)


@op(batch=COMPOSITE)
def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``relu6(input + 3) / 6``."""
    return written_into(_ops.hardsigmoid, input, inplace)


@op(batch=COMPOSITE)
def hardswish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``input * relu6(input + 3) / 6``."""
    return written_into(_ops.hardswish, input, inplace)


@op(batch=COMPOSITE)
def mish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``input * tanh(softplus(input))``."""
    return written_into(_ops.mish, input, inplace)
