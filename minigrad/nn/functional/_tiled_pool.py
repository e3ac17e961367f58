"""max_pool2d when its windows tile the input: stride equal to the kernel, no padding, no dilation.

Then every window is a ``kh x kw`` tile of a reshape ``[N, C, oh, kh, ow, kw]``, so the max is a
few elementwise maxima and the gradient is g spread over each tile (``spread_tiles``) times the
mask of each tile's first maximum: no window copies.
This is the pool of most CNNs (``F.max_pool2d(x, 2)``).
"""

from __future__ import annotations

from ..._workspace import work_array
from ...ops.declare import rules_saving
from ...ops.shape import pad
from ...tensor import Tensor, make, make_leaf
from .._tiles import spread_tiles, sum_tiles

__all__ = ["max_pool2d_tiled"]


@rules_saving({"backward": ("kernel", "mask"), "backward_cropped": ("kernel", "mask", "crop")})
def max_pool2d_tiled(x: Tensor, geo, ceil_mode: bool, return_indices: bool):
    """max_pool2d of a ``[N, C, H, W]`` input whose windows tile it, or ``None`` to go the general way.

    The general way takes ceil_mode's partial windows and a NaN maximum (its gradient goes to
    the first NaN). The trailing rows and columns that fill no whole window are left out, as
    torch does; the gradient goes to each window's first maximum in row-major order.
    """
    xp = x.device.xp
    kernel, (n, c, h, w) = geo.kernel, x.array.shape
    kh, kw = kernel
    if ceil_mode and (h % kh or w % kw):
        return None
    oh, ow = geo.out_hw(x.array.shape, "max_pool2d()")
    tiles = x.array[:, :, : oh * kh, : ow * kw].reshape(n, c, oh, kh, ow, kw)
    # each tile's cells side by side, [kh*kw, N, C, oh, ow], in one copy: the maxima and comparisons below run
    # over contiguous rows, where they read the tiles' strided cells seven times (W13's pool: 4.4 -> 3.6 ms)
    by_cell = work_array(xp, "pool_cells", (kh, kw, n, c, oh, ow), x.array.dtype)
    xp.copyto(by_cell, tiles.transpose(3, 5, 0, 1, 2, 4))
    cells = list(by_cell.reshape(kh * kw, n, c, oh, ow))
    out = xp.maximum(cells[0], cells[1]) if len(cells) > 1 else cells[0].copy()
    for cell in cells[2:]:
        xp.maximum(out, cell, out=out)  # one array, not one per cell
    if xp.isnan(out).any():
        return None
    first = _first_maximum(xp, cells, out, tiles.shape)
    mask = make_leaf(first.reshape(n, c, oh * kh, ow * kw), x.device)  # bool: g * mask is g's dtype
    crop = (0, w - ow * kw, 0, h - oh * kh)

    def backward(g):  # each window's g spread over its tile, kept at the first maximum only
        return (spread_tiles(g, kernel) * mask,)

    def backward_cropped(g):  # the rows and columns that fill no window get a zero gradient
        return (pad(spread_tiles(g, kernel) * mask, crop),)

    def jvp(t):
        return sum_tiles(t[:, :, : oh * kh, : ow * kw] * mask, kernel)

    pooled = make(out, (x,), backward_cropped if any(crop) else backward, "max_pool2d", jvp)
    if not return_indices:
        return pooled
    return pooled, make_leaf(_plane_positions(xp, first, w), x.device)


def _first_maximum(xp, cells: list, out, shape: tuple):
    """A boolean ``shape`` array, true at each tile's first element equal to its max (row-major order).

    Each cell's hits are found and cleared of earlier ones in compact ``[N, C, oh, ow]`` arrays, then written
    into the mask once: bool operations on the strided cell views took twice as long (W13's pool, 6.3 ->
    3.6 ms)."""
    first = xp.empty(shape, dtype=bool)
    kw = shape[5]
    hit = xp.empty(out.shape, dtype=bool)
    free = xp.ones(out.shape, dtype=bool)  # no earlier maximum in the tile
    for p, cell in enumerate(cells):
        xp.equal(cell, out, out=hit)
        hit &= free
        if p < len(cells) - 1:
            xp.greater(free, hit, out=free)  # free and not hit
        first[:, :, :, p // kw, :, p % kw] = hit
    return first


def _plane_positions(xp, first, width: int):
    """``[N, C, oh, ow]`` int64: where in its input plane (``row * W + column``) each window's maximum lies."""
    n, c, oh, kh, ow, kw = first.shape
    in_window = first.transpose(0, 1, 2, 4, 3, 5).reshape(n, c, oh, ow, kh * kw).argmax(-1)
    rows = (xp.arange(oh) * kh)[:, None] + in_window // kw
    cols = (xp.arange(ow) * kw)[None, :] + in_window % kw
    return (rows * width + cols).astype(xp.int64)
