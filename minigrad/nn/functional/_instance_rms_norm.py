"""rms_norm, instance_norm and local_response_norm, composed of differentiable ops (so every order of
derivative works)."""

from __future__ import annotations

import numpy as np

from ...autograd.grad_mode import no_grad
from ...ops import pad
from ...ops.declare import COMPOSITE, op
from ...tensor import Tensor, make_leaf, shape_str

__all__ = ["rms_norm", "instance_norm", "local_response_norm"]


@op(batch=COMPOSITE)
def rms_norm(input: Tensor, normalized_shape, weight: Tensor | None = None, eps: float | None = None) -> Tensor:  # noqa: A002
    """``x / sqrt(mean(x**2) + eps) * weight`` over the last ``len(normalized_shape)`` dims.

    ``eps=None`` is the machine epsilon of the input's dtype, as PyTorch.
    """
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k, ndim = len(shape), input.dim()
    if ndim < k or tuple(input.shape[ndim - k :]) != shape:
        raise RuntimeError(
            f"Given normalized_shape={shape_str(shape)}, expected input with shape [*{', '.join(map(str, shape))}], "
            f"but got input of size{shape_str(input.shape)}"
        )
    if eps is None:
        eps = float(np.finfo(input.array.dtype).eps)
    dims = tuple(range(ndim - k, ndim))
    y = input * ((input * input).mean(dim=dims, keepdim=True) + eps).rsqrt()
    return y if weight is None else y * weight


@op(batch=COMPOSITE)
def instance_norm(
    input: Tensor,  # noqa: A002
    running_mean: Tensor | None = None,
    running_var: Tensor | None = None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise each channel of each sample of ``[N, C, *spatial]`` over its spatial dims; then scale and shift
    per channel.

    With ``use_input_stats`` (training) the statistics are each instance's, and running statistics, when given,
    move towards their mean over the batch (the variance unbiased); otherwise the running statistics are used.
    """
    if input.dim() < 3:
        raise ValueError(f"instance_norm(): expected at least 3D input ([N, C, *]), got {input.dim()}D input")
    n, channels = input.shape[0], input.shape[1]
    spatial = int(np.prod(input.shape[2:]))
    stat_shape = (1, channels) + (1,) * (input.dim() - 2)
    if use_input_stats:
        if spatial <= 1:
            raise ValueError(
                f"Expected more than 1 spatial element when training, got input size {shape_str(input.shape)}"
            )
        dims = tuple(range(2, input.dim()))
        mean = input.mean(dim=dims, keepdim=True)
        centered = input - mean
        var = (centered * centered).mean(dim=dims, keepdim=True)
        if running_mean is not None and running_var is not None:
            with no_grad():
                running_mean.array *= 1 - momentum
                running_mean.array += momentum * mean.array.reshape(n, channels).mean(axis=0)
                running_var.array *= 1 - momentum
                running_var.array += momentum * var.array.reshape(n, channels).mean(axis=0) * (spatial / (spatial - 1))
    else:
        if running_mean is None or running_var is None:
            raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
        centered = input - make_leaf(running_mean.array.reshape(stat_shape), input.device)
        var = make_leaf(running_var.array.reshape(stat_shape), input.device)
    y = centered * (var + eps).rsqrt()
    if weight is not None:
        y = y * weight.reshape(stat_shape)
    if bias is not None:
        y = y + bias.reshape(stat_shape)
    return y


@op(batch=COMPOSITE)
def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Tensor:  # noqa: A002
    """``x / (k + alpha * mean of x**2 over the size neighbouring channels) ** beta`` (AlexNet's LRN), the
    neighbourhood zero-padded at the ends as PyTorch's."""
    if input.dim() < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {input.dim()} dimensions)")
    if input.numel() == 0:
        return input
    channels = input.shape[1]
    squares = input * input
    widths = [0, 0] * (input.dim() - 2) + [size // 2, (size - 1) // 2]
    padded = pad(squares, widths)
    window = padded[:, :channels]
    for i in range(1, size):
        window = window + padded[:, i : i + channels]
    return input / (window * (alpha / size) + k) ** beta
