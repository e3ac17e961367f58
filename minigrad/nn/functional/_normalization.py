"""layer_norm and batch_norm, composed of differentiable ops (so every order of derivative works)."""

from __future__ import annotations

from ...autograd.grad_mode import no_grad
from ...tensor import Tensor, make_leaf, shape_str

__all__ = ["layer_norm", "batch_norm"]


def layer_norm(x: Tensor, normalized_shape, weight=None, bias=None, eps: float = 1e-5) -> Tensor:
    """Normalise over the last ``len(normalized_shape)`` dims to mean 0, variance 1; then scale and shift."""
    normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(normalized_shape)
    if not k:  # no dims to normalise over (a mean over dims=() would take every dim)
        raise RuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but "
            f"got normalized_shape = {list(normalized_shape)}"
        )
    if x.array.shape[x.array.ndim - k :] != normalized_shape or x.array.ndim < k:
        raise RuntimeError(
            f"Given normalized_shape={shape_str(normalized_shape)}, expected input with shape "
            f"[*, {', '.join(str(s) for s in normalized_shape)}], but got input of size {shape_str(x.array.shape)}"
        )
    dims = tuple(range(x.array.ndim - k, x.array.ndim))
    centered = x - x.mean(dim=dims, keepdim=True)
    var = (centered * centered).mean(dim=dims, keepdim=True)
    y = centered * (var + eps).rsqrt()
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y


def batch_norm(
    x: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight=None,
    bias=None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise each channel (dim 1) of ``[N, C, *]`` inputs (``[N, C]``, ``[N, C, L]``, ``[N, C, H, W]``...).

    Training uses the batch's statistics and, when given, updates the running ones
    in place (``running = (1 - momentum) * running + momentum * batch``, with the
    unbiased variance). Otherwise it uses the running statistics.
    """
    if x.array.ndim < 2:
        raise ValueError(f"batch_norm(): expected at least 2D input ([N, C, *]), got {x.array.ndim}D input")
    channels = x.array.shape[1]
    dims = (0, *range(2, x.array.ndim))
    stat_shape = (1, channels) + (1,) * (x.array.ndim - 2)
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight), ("bias", bias)):
        if t is not None and t.array.shape != (channels,):
            raise RuntimeError(
                f"batch_norm(): {name} of shape {shape_str(t.array.shape)} does not match the {channels} channels "
                f"of input of shape {shape_str(x.array.shape)}"
            )
    if training:
        count = x.array.size // channels
        if count <= 1:
            raise ValueError(
                f"Expected more than 1 value per channel when training, got input size {shape_str(x.array.shape)}"
            )
        mean = x.mean(dim=dims, keepdim=True)
        centered = x - mean
        var = (centered * centered).mean(dim=dims, keepdim=True)
        if running_mean is not None and running_var is not None:
            with no_grad():
                running_mean.array *= 1 - momentum
                running_mean.array += momentum * mean.array.reshape(channels)
                running_var.array *= 1 - momentum
                running_var.array += momentum * var.array.reshape(channels) * (count / (count - 1))
    else:
        if running_mean is None or running_var is None:
            raise RuntimeError("batch_norm(): running_mean and running_var are needed when not training")
        centered = x - make_leaf(running_mean.array.reshape(stat_shape), x.device)
        var = make_leaf(running_var.array.reshape(stat_shape), x.device)
    y = centered * (var + eps).rsqrt()
    if weight is not None:
        y = y * weight.reshape(stat_shape)
    if bias is not None:
        y = y + bias.reshape(stat_shape)
    return y
