"""Activations composed of elementwise ops: selu, celu, glu, softmin, the shrinks, threshold, prelu, rrelu
and gumbel_softmax.

Each is written with differentiable ops (``where`` picks a piece, ``elu``/``sigmoid``/``tanh`` give
the curves), so its gradient is the pieces' gradients and the debugger shows the ops it is made of.
``inplace=True`` writes the result into ``input`` (``copy_``, a recorded in-place op) and returns it.
"""

from __future__ import annotations

import warnings

import numpy as np

from ...backend import scalar_type_name
from ...creation import generator_for, zeros_like
from ...ops import elu, sigmoid, softmax, tanh, where  # the public ops: inside vmap they reach their batching rules
from ...ops.declare import COMPOSITE, LOOP, op
from ...tensor import Tensor
from ._inplace import written_into

__all__ = ["selu", "celu", "glu", "softmin", "hardshrink", "softshrink", "tanhshrink", "threshold", "prelu"]
__all__ += ["rrelu", "gumbel_softmax"]

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


@op(batch=COMPOSITE)
def selu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``scale * elu(x, alpha)`` with the self-normalising constants ``alpha ~ 1.6733``, ``scale ~ 1.0507``."""
    return written_into(lambda x: SELU_SCALE * elu(x, SELU_ALPHA), input, inplace)


@op(batch=COMPOSITE)
def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``: ``alpha * elu(x / alpha)``."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return written_into(lambda x: alpha * elu(x / alpha), input, inplace)


@op(batch=COMPOSITE)
def glu(input: Tensor, dim: int = -1) -> Tensor:  # noqa: A002
    """The gated linear unit: ``a * sigmoid(b)``, where ``a`` and ``b`` are the halves of ``input`` along ``dim``."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    ndim = input.dim()
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    size = input.shape[dim]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim % ndim} is size {size}")
    a, b = input.chunk(2, dim)
    return a * sigmoid(b)


def _implicit_dim(ndim: int) -> int:
    return 0 if ndim in (0, 1, 3) else 1


@op(batch=COMPOSITE)
def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:  # noqa: A002
    """``softmax(-input)`` along ``dim``: the smallest entries get the most weight."""
    if dim is None:
        warnings.warn(
            "Implicit dimension choice for softmin has been deprecated. Change the call to include dim=X as an "
            "argument.",
            UserWarning,
            stacklevel=_stacklevel,
        )
        dim = _implicit_dim(input.dim())
    if dtype is not None:
        input = input.to(dtype)  # noqa: A001
    return softmax(-input, dim)


def _check_lambd(lambd, input: Tensor) -> None:  # noqa: A002
    if lambd < 0:
        dtype = input.array.dtype
        largest = f"{float(np.finfo(dtype).max):g}" if dtype.kind == "f" else "inf"
        raise RuntimeError(
            f"lambda must be in range [0, {largest}] for input dtype {scalar_type_name(dtype)}, but found {lambd:g}"
        )


@op(batch=COMPOSITE)
def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    """``x`` where ``|x| > lambd``, else 0."""
    return where(input.abs() > lambd, input, 0.0)


@op(batch=COMPOSITE)
def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""
    _check_lambd(lambd, input)
    return where(input > lambd, input - lambd, where(input < -lambd, input + lambd, 0.0))


@op(batch=COMPOSITE)
def tanhshrink(input: Tensor) -> Tensor:  # noqa: A002
    """``x - tanh(x)``."""
    return input - tanh(input)


@op(batch=COMPOSITE)
def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:  # noqa: A002
    """``x`` where ``x > threshold``, else ``value``."""
    return written_into(lambda x: where(x > threshold, x, value), input, inplace)


@op(batch=COMPOSITE)
def prelu(input: Tensor, weight: Tensor) -> Tensor:  # noqa: A002
    """``x`` where positive, else ``weight * x``; ``weight`` is one slope or one per channel (dim 1)."""
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}")
    n = weight.numel()
    if input.dim() == 0 and n != 1:
        raise RuntimeError("Not allow zero-dim input tensor.")
    channels = input.shape[1] if input.dim() >= 2 else 1
    if n != 1 and n != channels:
        raise RuntimeError(
            "Mismatch of parameter numbers and input channel size. "
            f"Found parameter numbers = {n} and channel size = {channels}."
        )
    slope = weight.reshape(()) if n == 1 else weight.reshape((n,) + (1,) * (input.dim() - 2))
    return where(input > 0, input, slope * input)


@op(batch=LOOP)
def rrelu(
    input: Tensor,  # noqa: A002
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """``x`` where positive, else ``a * x``: ``a`` drawn uniformly from ``[lower, upper]`` for each element
    while ``training``, ``(lower + upper) / 2`` otherwise."""
    if not training:
        return written_into(lambda x: where(x >= 0, x, x * ((lower + upper) / 2)), input, inplace)
    draws = generator_for(input.device).random(tuple(input.shape)) * (upper - lower) + lower
    slopes = Tensor(draws.astype(input.array.dtype), device=input.device)
    return written_into(lambda x: where(x >= 0, x, x * slopes), input, inplace)


@op(batch=LOOP)
def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1) -> Tensor:
    """A sample from the Gumbel-softmax distribution: ``softmax((logits + g) / tau)`` with Gumbel noise ``g``;
    ``hard`` gives the one-hot of its largest entry, with the soft sample's gradient (straight-through)."""
    uniform = generator_for(logits.device).random(tuple(logits.shape))
    noise = -logits.device.xp.log(-logits.device.xp.log1p(-uniform))  # -log of an Exp(1) draw
    gumbels = (logits + Tensor(noise.astype(logits.array.dtype), device=logits.device)) / tau
    soft = softmax(gumbels, dim)
    if not hard:
        return soft
    index = soft.argmax(dim, keepdim=True)
    one_hot = zeros_like(logits).scatter(dim, index, 1.0)
    return one_hot - soft.detach() + soft
