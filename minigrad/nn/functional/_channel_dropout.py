"""Dropout of whole channels (dropout1d/2d/3d, feature_alpha_dropout) and alpha_dropout, which keeps SELU's
mean and variance.

Each multiplies by a random mask (a constant of the graph) and, for the alpha forms, adds a constant:
the gradient is the mask times the incoming gradient.
"""

from __future__ import annotations

import math
import warnings

from ...creation import generator_for
from ...ops.declare import LOOP, op
from ...tensor import Tensor, make_leaf

__all__ = ["dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"]

# -SELU's alpha * scale: where SELU's outputs saturate, the value a dropped unit takes in alpha dropout.
_SATURATION = 1.7580993408473766


def _check_p(p) -> None:
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _keep(x: Tensor, p: float, per_channel: bool):
    """A 0/1 array (1 kept, with probability ``1 - p``), one per element or one per ``[N, C]`` channel."""
    shape = x.array.shape[:2] + (1,) * (x.array.ndim - 2) if per_channel else x.array.shape
    return (generator_for(x.device).random(shape) >= p).astype(x.array.dtype)


def _dropout(x: Tensor, p: float, training: bool, inplace: bool, per_channel: bool, alpha: bool) -> Tensor:
    _check_p(p)
    if not training or p == 0.0:
        return x
    if per_channel and x.array.ndim < 2:
        raise RuntimeError(f"Feature dropout requires at least 2 dimensions in the input, got {x.array.ndim}")
    if inplace:  # the ops read a clone, so the write into x does not change what their rules saved
        return x.copy_(_dropout(x.clone(), p, training, False, per_channel, alpha))
    if p == 1.0:
        out = x * 0.0
    else:
        keep = _keep(x, p, per_channel)
        if alpha:
            a = 1.0 / math.sqrt((_SATURATION**2 * p + 1) * (1 - p))
            scale, shift = keep * a, (keep - 1) * (_SATURATION * a) + _SATURATION * a * p
            out = x * make_leaf(scale, x.device) + make_leaf(shift, x.device)
        else:
            out = x * make_leaf(keep * (1.0 / (1.0 - p)), x.device)
    return out


@op(batch=LOOP)
def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    """Zero whole channels of ``[N, C, L]`` (or ``[C, L]``) with probability ``p``, scaling the rest by
    ``1 / (1 - p)``, while ``training``."""
    ndim = input.dim()
    if ndim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {ndim}D input. Note that dropout1d exists to "
            "provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional "
            "batch dimension (i.e. 2D or 3D inputs)."
        )
    return _channels(input, p, training, inplace, batched=ndim == 3)


def _channels(input: Tensor, p, training, inplace, batched: bool) -> Tensor:  # noqa: A002
    if batched:
        return _dropout(input, p, training, inplace, per_channel=True, alpha=False)
    if inplace and training and p > 0.0:
        return input.copy_(_channels(input.clone(), p, training, False, batched))
    return _dropout(input.unsqueeze(0), p, training, False, per_channel=True, alpha=False).squeeze(0)


@op(batch=LOOP)
def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    """Zero whole channels of ``[N, C, H, W]`` (or ``[C, H, W]``) with probability ``p`` while ``training``.

    As PyTorch, a 3-D input is read as ``[N, C, L]`` (with a warning), and other ranks warn and are read as
    ``[N, C, *]``."""
    ndim = input.dim()
    if ndim not in (3, 4):
        warnings.warn(
            f"dropout2d: Received a {ndim}-D input to dropout2d, which is deprecated and will result in an error "
            "in a future release. To retain the behavior and silence this warning, please use dropout instead. "
            "Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial dimensions, a "
            "channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).",
            UserWarning,
            stacklevel=3,  # the caller's line, past the argument check
        )
    if ndim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is "
            "desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior will "
            "change in a future release to interpret the input as one without a batch dimension, i.e. shape "
            "(C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using dropout1d instead.",
            UserWarning,
            stacklevel=3,  # the caller's line, past the argument check
        )
    return _dropout(input, p, training, inplace, per_channel=True, alpha=False)


@op(batch=LOOP)
def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    """Zero whole channels of ``[N, C, D, H, W]`` (or ``[C, D, H, W]``) with probability ``p`` while
    ``training``."""
    ndim = input.dim()
    if ndim not in (4, 5):
        warnings.warn(
            f"dropout3d: Received a {ndim}-D input to dropout3d, which is deprecated and will result in an error "
            "in a future release. To retain the behavior and silence this warning, please use dropout instead. "
            "Note that dropout3d exists to provide channel-wise dropout on inputs with 3 spatial dimensions, a "
            "channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).",
            UserWarning,
            stacklevel=3,  # the caller's line, past the argument check
        )
    return _channels(input, p, training, inplace, batched=ndim == 5)


@op(batch=LOOP)
def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:  # noqa: A002
    """Dropout for SELU networks: dropped units take SELU's saturation value and an affine map keeps the
    mean and variance (Klambauer et al.), while ``training``."""
    return _dropout(input, p, training, inplace, per_channel=False, alpha=True)


@op(batch=LOOP)
def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:  # noqa: A002
    """``alpha_dropout`` of whole channels of ``[N, C, *]``."""
    return _dropout(input, p, training, inplace, per_channel=True, alpha=True)
