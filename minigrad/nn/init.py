"""Parameter initialisation, in place and without recording graphs (``minigrad.nn.init``).

Random values come from minigrad's generator for the tensor's device, so
``minigrad.manual_seed`` makes them reproducible.
"""

from __future__ import annotations

import math
import warnings

from ..autograd.grad_mode import no_grad
from ..creation import generator_for
from ..ops.special import erfinv
from ..tensor import Tensor, make_leaf, mark_written, shape_str

__all__ = [
    "calculate_gain",
    "uniform_",
    "normal_",
    "constant_",
    "zeros_",
    "ones_",
    "xavier_uniform_",
    "xavier_normal_",
    "kaiming_uniform_",
    "kaiming_normal_",
    "orthogonal_",
    "trunc_normal_",
]

_LINEAR_GAIN = ("linear", "conv1d", "conv2d", "conv3d", "sigmoid", "identity")


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The recommended gain for a nonlinearity (as ``torch.nn.init.calculate_gain``)."""
    if nonlinearity in _LINEAR_GAIN:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, (int, float)):
            raise ValueError(f"negative_slope {slope} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _fans(t: Tensor) -> tuple:
    if t.array.ndim < 2:
        raise ValueError(
            f"Fan in and fan out can not be computed for tensor with fewer than 2 dimensions "
            f"(got shape {shape_str(t.array.shape)})"
        )
    receptive = 1
    for s in t.array.shape[2:]:
        receptive *= s
    return t.array.shape[1] * receptive, t.array.shape[0] * receptive


def _fill(t: Tensor, values) -> Tensor:
    with no_grad():
        t.array[...] = values
    mark_written(t)
    return t


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
    """Fill with values drawn uniformly from ``[a, b)`` (from ``generator`` when given)."""
    values = generator_for(tensor.device, generator).random(tensor.array.shape)
    values *= b - a  # in place: the same numbers as ``a + (b - a) * values`` without two temporaries
    values += a
    return _fill(tensor, values)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
    """Fill with values drawn from ``N(mean, std**2)`` (from ``generator`` when given)."""
    values = generator_for(tensor.device, generator).standard_normal(tensor.array.shape)
    return _fill(tensor, mean + std * values)


def constant_(tensor: Tensor, val: float) -> Tensor:
    return _fill(tensor, val)


def zeros_(tensor: Tensor) -> Tensor:
    return _fill(tensor, 0)


def ones_(tensor: Tensor) -> Tensor:
    return _fill(tensor, 1)


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """Glorot uniform: ``U(-a, a)`` with ``a = gain * sqrt(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = _fans(tensor)
    a = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """Glorot normal: ``N(0, std**2)`` with ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _fans(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)), generator)


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _fans(tensor)
    fan = fan_in if mode == "fan_in" else fan_out
    if fan == 0:
        raise ValueError(f"Initializing zero-element tensors is a no-op (shape {shape_str(tensor.array.shape)})")
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(
    tensor: Tensor, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu", generator=None
) -> Tensor:
    """He uniform: ``U(-b, b)`` with ``b = gain * sqrt(3 / fan)``."""
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(
    tensor: Tensor, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu", generator=None
) -> Tensor:
    """He normal: ``N(0, std**2)`` with ``std = gain / sqrt(fan)``."""
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity), generator)


def orthogonal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """A (semi-)orthogonal matrix, as ``torch.nn.init.orthogonal_`` (Saxe et al. 2013).

    The tensor is seen as ``shape[0]`` rows of ``numel // shape[0]`` values; the Q of the QR
    decomposition of a standard normal matrix, with its columns' signs fixed by R's diagonal, so the
    result is uniform over the orthogonal matrices; then scaled by ``gain``.
    """
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    xp = tensor.device.xp
    flat = generator_for(tensor.device, generator).standard_normal((rows, cols))
    if rows < cols:
        flat = flat.T
    q, r = xp.linalg.qr(flat)
    q *= xp.sign(xp.diagonal(r))
    if rows < cols:
        q = q.T
    return _fill(tensor, gain * q.reshape(tensor.shape))


def trunc_normal_(
    tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0, generator=None
) -> Tensor:
    """Fill with values from ``N(mean, std**2)`` truncated to ``[a, b]``, as ``torch.nn.init.trunc_normal_``.

    By the inverse of the normal CDF: uniform values between the CDF at ``a`` and at ``b``, mapped
    back through ``erfinv``, then clamped to ``[a, b]`` against rounding.
    """
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
            "The distribution of values may be incorrect.",
            stacklevel=2,
        )

    def cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    low, high = cdf((a - mean) / std), cdf((b - mean) / std)
    u = generator_for(tensor.device, generator).random(tensor.shape)
    u *= 2 * (high - low)
    u += 2 * low - 1
    with no_grad():
        values = erfinv(make_leaf(u, tensor.device)).array
    values *= std * math.sqrt(2.0)
    values += mean
    return _fill(tensor, tensor.device.xp.clip(values, a, b))
