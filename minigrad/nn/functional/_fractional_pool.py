"""fractional_max_pool2d (Graham 2014): max pooling over windows whose starts step by a random mix of
two strides, so the output can be any size between the input's and the input's over two.

torch draws one pair of numbers u in [0, 1) per sample and channel (``_random_samples``, N x C x 2:
u[0] for the width, u[1] for the height); the window starts along a dim of input size n, output size m
and window k are ``int((i + u) * alpha) - int(u * alpha)`` with ``alpha = (n - k) / (m - 1)``, the last
one ``n - k``, computed in the input's dtype as torch's kernel does. The windows are gathered and
reduced with ``max``: its rule sends the gradient to the index it returns, as torch's backward does.
"""

from __future__ import annotations

import numpy as np

from ... import backend
from ...creation import rand
from ...ops.declare import LOOP, op
from ...ops.types import Size
from ...tensor import Tensor, make_leaf

__all__ = ["fractional_max_pool2d", "fractional_max_pool2d_with_indices"]


def _pair(value, name: str) -> tuple:
    if isinstance(value, (tuple, list)):
        if len(value) != 2:
            raise ValueError(f"{name} must be an int or a pair of ints, got {value!r}")
        return tuple(value)
    return (value, value)


def _starts(samples: np.ndarray, size: int, out: int, window: int) -> np.ndarray:
    """The window starts along one dim for every sample u in ``samples`` (any shape): ``samples.shape + (out,)``."""
    starts = np.empty(samples.shape + (out,), dtype=np.int64)
    if out > 1:
        alpha = samples.dtype.type(size - window) / samples.dtype.type(out - 1)
        steps = np.arange(out - 1, dtype=samples.dtype)
        u = samples[..., None]
        starts[..., :-1] = ((steps + u) * alpha).astype(np.int64) - (u * alpha).astype(np.int64)
    if out > 0:
        starts[..., -1] = size - window
    return starts


@op(batch=LOOP)
def fractional_max_pool2d_with_indices(
    input: Tensor,  # noqa: A002  (torch's argument name)
    kernel_size: Size,
    output_size=None,
    output_ratio=None,
    return_indices: bool = False,
    _random_samples: Tensor | None = None,
):
    """``fractional_max_pool2d`` giving ``(values, indices)``: each index is the maximum's position in
    its input plane (``h * W + w``), as ``max_unpool2d`` takes."""
    if output_size is None and output_ratio is None:
        raise ValueError("fractional_max_pool2d requires specifying either an output_size or an output_ratio")
    kh, kw = _pair(kernel_size, "kernel_size")
    if input.dim() < 3:  # torch reads the channels as input.size(-3)
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-max(input.dim(), 1)}, "
            f"{max(input.dim(), 1) - 1}], but got -3)"
        )
    if input.dim() > 4:
        raise RuntimeError(f"fractional_max_pool2d(): Expected 3D or 4D tensor, but got: {list(input.shape)}")
    if input.dtype.kind != "f":
        raise NotImplementedError(
            f"\"check_uniform_bounds\" not implemented for '{backend.scalar_type_name(input.dtype)}'"
        )
    x = input if input.dim() == 4 else input.unsqueeze(0)
    n, c, height, width = x.shape
    if output_size is None:
        ratio_h, ratio_w = _pair(output_ratio, "output_ratio")
        output_size = (int(height * ratio_h), int(width * ratio_w))
    out_h, out_w = _pair(output_size, "output_size")
    if out_h + kh - 1 > height:
        raise RuntimeError(f"fractional_max_pool2d(): pool height {kh} too large relative to input height {height}")
    if out_w + kw - 1 > width:
        raise RuntimeError(f"fractional_max_pool2d(): pool width {kw} too large relative to input width {width}")
    if _random_samples is None:
        _random_samples = rand(n, c, 2, dtype=input.dtype, device=input.device)
    samples = _random_samples.detach().cpu().numpy()
    if samples.ndim != 3 or samples.shape[0] < n or samples.shape[1] != c or samples.shape[2] != 2:
        if samples.ndim == 3 and samples.shape[0] < n:
            raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
        raise RuntimeError(f"Expect _random_samples to have shape [{n}, {c}, 2], but got {list(samples.shape)}")
    samples = samples[:n]
    rows = _starts(samples[..., 1], height, out_h, kh)  # (n, c, out_h)
    cols = _starts(samples[..., 0], width, out_w, kw)  # (n, c, out_w)
    # every window's element positions in its plane: (n, c, out_h, out_w, kh * kw), row-major in the window
    h = rows[:, :, :, None, None, None] + np.arange(kh)[:, None]
    w = cols[:, :, None, :, None, None] + np.arange(kw)[None, :]
    positions = (h * width + w).reshape(n, c, out_h, out_w, kh * kw)
    where = make_leaf(x.device.xp.asarray(positions), x.device)
    windows = x.reshape(n, c, height * width).gather(2, where.reshape(n, c, -1)).reshape(n, c, out_h, out_w, kh * kw)
    values, picked = windows.max(-1)
    indices = where.gather(4, picked.unsqueeze(-1)).squeeze(-1)
    if input.dim() == 3:
        values, indices = values.squeeze(0), indices.squeeze(0)
    return values, indices


@op(batch=LOOP)
def fractional_max_pool2d(
    input: Tensor,  # noqa: A002
    kernel_size: Size,
    output_size=None,
    output_ratio=None,
    return_indices: bool = False,
    _random_samples: Tensor | None = None,
):
    """2-D fractional max pooling of an (N, C, H, W) or (C, H, W) input to ``output_size`` (or
    ``output_ratio`` times the input's size), windows ``kernel_size``; with ``return_indices``,
    ``(values, indices)``."""
    values, indices = fractional_max_pool2d_with_indices(
        input, kernel_size, output_size, output_ratio, return_indices, _random_samples
    )
    return (values, indices) if return_indices else values
