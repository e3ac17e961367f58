"""affine_grid (the sampling grid of a batch of affine maps) and grid_sample (an image read at a grid's
points), as torch.nn.functional's: a spatial transformer's two halves.

Both are made of differentiable ops: affine_grid is a matrix product of a fixed grid of coordinates with
theta's transpose; grid_sample gathers the input at the corners around each point and weighs them
(bilinear) or gathers the nearest (nearest), so the gradients reach the input and the grid as the
ops' rules carry them, and torch's (zero where a corner falls outside, as torch's).
"""

from __future__ import annotations

import warnings

from ... import backend
from ...creation import linspace, ones
from ...ops import stack, where  # the public ops: inside vmap they reach their batching rules
from ...ops.declare import COMPOSITE, op
from ...tensor import Tensor, shape_str

__all__ = ["affine_grid", "grid_sample"]

_DEFAULT_CHANGED = (
    "Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. Please specify "
    "align_corners=True if the old behavior is desired. See the documentation of grid_sample for details."
)


def _align_corners(align_corners) -> bool:
    if align_corners is None:
        warnings.warn(_DEFAULT_CHANGED, UserWarning, stacklevel=3)
        return False
    return bool(align_corners)


def _steps(n: int, align_corners: bool, like: Tensor) -> Tensor:
    """n coordinates across [-1, 1]: the pixel edges' ends (align_corners) or the pixel centres."""
    if n <= 1:
        return linspace(0.0, 0.0, n, dtype=like.dtype, device=like.device)
    line = linspace(-1.0, 1.0, n, dtype=like.dtype, device=like.device)
    return line if align_corners else line * ((n - 1) / n)


@op(batch=COMPOSITE)
def affine_grid(theta: Tensor, size, align_corners=None) -> Tensor:
    """The (N, H, W, 2) grid (or (N, D, H, W, 3)) of the points that the affine maps ``theta`` (N, 2, 3)
    (or (N, 3, 4)) send the output's pixels to, for ``grid_sample``; ``size`` is the output's (N, C, H, W)
    (or (N, C, D, H, W)); coordinates run over [-1, 1]."""
    align = _align_corners(align_corners)
    size = tuple(size)
    if theta.dtype.kind != "f":
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) not in (4, 5):
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. "
            f"Got size {size}."
        )
    spatial = size[2:]
    rows = len(spatial)
    if theta.dim() != 3 or tuple(theta.shape[1:]) != (rows, rows + 1):
        kind = "2D" if rows == 2 else "3D"
        raise ValueError(
            f"Expected a batch of {kind} affine matrices of shape Nx{rows}x{rows + 1} for size {size}. "
            f"Got {shape_str(theta.shape)}."
        )
    if min(spatial) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    if align and min(spatial) == 1:
        warnings.warn(
            "Since version 1.3.0, affine_grid behavior has changed for unit-size grids when align_corners=True. "
            "This is not an intended use case of affine_grid. See the documentation of affine_grid for details.",
            UserWarning,
            stacklevel=2,
        )
    if theta.shape[0] != size[0]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{size[0]}, {rows + 1}] but got: "
            f"[{theta.shape[0]}, {rows + 1}]."
        )
    # the coordinates (x, y[, z], 1) of every output point: x along the last dim, y the one before...
    axes = []
    for k, n in enumerate(reversed(spatial)):
        shape = [1] * rows
        shape[rows - 1 - k] = n
        axes.append(_steps(n, align, theta).reshape(*shape).expand(*spatial))
    axes.append(ones(*spatial, dtype=theta.dtype, device=theta.device))
    base = stack(axes, -1).reshape(1, -1, rows + 1)
    return (base @ theta.transpose(1, 2)).reshape(size[0], *spatial, rows)


# ---------------------------------------------------------------- grid_sample
def _unnormalized(coord: Tensor, size: int, align_corners: bool) -> Tensor:
    """[-1, 1] to pixel positions: -1 and 1 are the corner pixels' centres (align_corners) or edges."""
    if align_corners:
        return (coord + 1) * ((size - 1) / 2)
    return ((coord + 1) * size - 1) / 2


def _reflected(coord: Tensor, low2: int, high2: int) -> Tensor:
    """``coord`` reflected at low2 / 2 and high2 / 2 until it lies between them (torch's reflect_coordinates)."""
    if low2 == high2:
        return coord * 0
    low, span = low2 / 2, (high2 - low2) / 2
    distance = (coord - low).abs()
    extra = distance.fmod(span)
    flips = (distance.detach() / span).floor()
    return where(flips.fmod(2) == 0, extra + low, span - extra + low)


def _source(coord: Tensor, size: int, padding_mode: str, align_corners: bool) -> Tensor:
    x = _unnormalized(coord, size, align_corners)
    if padding_mode == "border":
        return x.clamp(0, size - 1)
    if padding_mode == "reflection":
        x = _reflected(x, 0, 2 * (size - 1)) if align_corners else _reflected(x, -1, 2 * size - 1)
        return x.clamp(0, size - 1)
    return x


def _tap(flat: Tensor, x: Tensor, y: Tensor, height: int, width: int) -> Tensor:
    """flat[n, c, y * W + x] at integer-valued positions ``x``, ``y`` (N, Ho, Wo); 0 where they fall outside."""
    n, c = flat.shape[0], flat.shape[1]
    inside = (x >= 0) & (x <= width - 1) & (y >= 0) & (y <= height - 1)
    index = (y.clamp(0, height - 1) * width + x.clamp(0, width - 1)).long()
    picked = flat.gather(2, index.reshape(n, 1, -1).expand(n, c, index.shape[1] * index.shape[2]))
    return where(inside.unsqueeze(1), picked.reshape(n, c, *x.shape[1:]), 0.0)


@op(batch=COMPOSITE)
def grid_sample(
    input: Tensor,  # noqa: A002  (torch's argument name)
    grid: Tensor,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners=None,
) -> Tensor:
    """``input`` (N, C, H, W) read at the points of ``grid`` (N, Ho, Wo, 2), x then y in [-1, 1]: (N, C, Ho, Wo).

    ``mode`` ``"bilinear"`` or ``"nearest"`` (``"bicubic"`` is not implemented in minigrad);
    ``padding_mode`` says what lies outside: ``"zeros"``, the ``"border"`` pixels, or the image's
    ``"reflection"``. Gradients reach both the input and (bilinear) the grid."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(
            f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '{mode}'"
        )
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', but got: "
            f"'{padding_mode}'"
        )
    align = _align_corners(align_corners)
    sizes = f"input with sizes {shape_str(input.shape)} and grid with sizes {shape_str(grid.shape)}"
    if input.dtype.kind != "f":
        raise NotImplementedError(
            f"\"grid_sampler_2d_cpu_kernel_impl\" not implemented for '{backend.scalar_type_name(input.dtype)}'"
        )
    if grid.dtype != input.dtype:
        raise RuntimeError(
            f"expected scalar type {backend.scalar_type_name(input.dtype)} but found {backend.scalar_type_name(grid.dtype)}"
        )
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but got {sizes}")
    if grid.shape[-1] != input.dim() - 2:
        raise RuntimeError(
            f"grid_sampler(): expected grid to have size {input.dim() - 2} in last dimension, but got grid with "
            f"sizes {shape_str(grid.shape)}"
        )
    if input.dim() != grid.dim() or input.dim() not in (4, 5):
        raise RuntimeError(
            f"grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but got {sizes}"
        )
    if input.dim() == 5 or mode == "bicubic":
        what = "a 5-D input (volumetric sampling)" if input.dim() == 5 else "mode='bicubic'"
        raise NotImplementedError(f"minigrad's grid_sample does not support {what} yet")
    n, c, height, width = input.shape
    x = _source(grid[..., 0], width, padding_mode, align)
    y = _source(grid[..., 1], height, padding_mode, align)
    flat = input.reshape(n, c, height * width)
    if mode == "nearest":
        return _tap(flat, x.detach().round(), y.detach().round(), height, width)
    x0, y0 = x.detach().floor(), y.detach().floor()
    right, down = (x - x0).unsqueeze(1), (y - y0).unsqueeze(1)  # the weights of the far corners
    left, up = 1 - right, 1 - down
    return (
        _tap(flat, x0, y0, height, width) * (left * up)
        + _tap(flat, x0 + 1, y0, height, width) * (right * up)
        + _tap(flat, x0, y0 + 1, height, width) * (left * down)
        + _tap(flat, x0 + 1, y0 + 1, height, width) * (right * down)
    )
