"""interpolate: nearest and (bi/tri)linear resizing, as gathers along each spatial dim and weighted sums.

Resizing is separable: one dim at a time, each output position reads one source
position (nearest) or two with weights (linear). The reads are indexing ops (their
rule scatter-adds the gradient back) and the weights are constants.
"""

from __future__ import annotations

import math

import numpy as np

from ...ops.declare import op
from ...ops.indexing import index_with_key
from ...tensor import Tensor, make_leaf, shape_str
from ._batch_rules import batch_of_samples_rule

__all__ = ["interpolate"]

_LINEAR = {"linear": 3, "bilinear": 4, "trilinear": 5}


def _sizes(x: Tensor, size, scale_factor, recompute: bool) -> tuple:
    """Output sizes of the spatial dims, and the source/output scale each uses (PyTorch's rules)."""
    spatial = x.array.shape[2:]
    k = len(spatial)
    if (size is None) == (scale_factor is None):
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        sizes = (size,) * k if isinstance(size, int) else tuple(size)
        if len(sizes) != k:
            raise ValueError(
                f"Input and output must have the same number of spatial dimensions, but got input with spatial "
                f"dimensions of {list(spatial)} and output size of {list(sizes)}. Please provide input tensor in "
                "(N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format."
            )
        return sizes, tuple(n / o for n, o in zip(spatial, sizes))
    factors = (scale_factor,) * k if isinstance(scale_factor, (int, float)) else tuple(scale_factor)
    if len(factors) != k:
        raise ValueError(
            f"Input and scale_factor must have the same number of spatial dimensions, but got input with spatial "
            f"dimensions of {list(spatial)} and scale_factor of shape {list(factors)}."
        )
    sizes = tuple(math.floor(n * f) for n, f in zip(spatial, factors))
    if recompute:
        return sizes, tuple(n / o for n, o in zip(spatial, sizes))
    return sizes, tuple(1 / f for f in factors)


def _along(x: Tensor, axis: int, index) -> Tensor:
    return index_with_key(x, (slice(None),) * axis + (index,), "interpolate", accumulate=True)


@op(batch=batch_of_samples_rule)
def interpolate(
    input: Tensor,  # noqa: A002  (torch's argument name)
    size=None,
    scale_factor=None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """Resize the spatial dims of ``[N, C, *spatial]`` to ``size`` or by ``scale_factor``.

    ``mode`` is "nearest" (any number of spatial dims), "linear" (3-D input),
    "bilinear" (4-D) or "trilinear" (5-D); ``align_corners`` as in PyTorch.
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"interpolate(): argument 'input' must be Tensor, not {type(input).__name__}")
    if mode not in ("nearest", *_LINEAR):
        raise NotImplementedError(f"interpolate(): mode '{mode}' is not supported; use nearest or (bi/tri)linear")
    if antialias:
        raise NotImplementedError("interpolate(): antialias=True is not supported")
    if mode == "nearest" and align_corners is not None:
        raise ValueError(
            "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear"
        )
    nd = input.array.ndim
    if nd < 3:
        raise ValueError(
            f"interpolate(): expected an input of at least 3 dims [N, C, ...], got {shape_str(input.shape)}"
        )
    if mode in _LINEAR and nd != _LINEAR[mode]:
        raise NotImplementedError(f"Got {nd}D input, but {mode} mode needs {_LINEAR[mode]}D input")
    sizes, scales = _sizes(input, size, scale_factor, bool(recompute_scale_factor))
    xp = input.device.xp
    out = input
    for k, (n, o, scale) in enumerate(zip(input.array.shape[2:], sizes, scales)):
        axis = 2 + k
        dst = np.arange(o, dtype=np.float64)
        if mode == "nearest":
            out = _along(out, axis, xp.asarray(np.minimum(np.floor(dst * scale).astype(np.int64), n - 1)))
            continue
        if align_corners:
            src = dst * ((n - 1) / (o - 1) if o > 1 else 0.0)
        else:
            src = np.maximum((dst + 0.5) * scale - 0.5, 0.0)
        lo = np.minimum(np.floor(src).astype(np.int64), n - 1)
        hi = np.minimum(lo + 1, n - 1)
        w_shape = (o,) + (1,) * (nd - axis - 1)
        w_hi = make_leaf(xp.asarray((src - lo).reshape(w_shape), dtype=input.array.dtype), input.device)
        out = _along(out, axis, xp.asarray(lo)) * (1 - w_hi) + _along(out, axis, xp.asarray(hi)) * w_hi
    return out
