"""sum_tiles and spread_tiles: windows that tile an image (stride == kernel), each op the other's backward.

``sum_tiles`` adds up each ``kh x kw`` tile of ``[N, C, oh*kh, ow*kw]`` into ``[N, C, oh, ow]``;
``spread_tiles`` copies each value of ``[N, C, oh, ow]`` onto its whole tile. They are im2col + sum
and col2im of non-overlapping windows, without a window array: the tiles are a reshape of the image.
A tiled pool is these and an elementwise op (avg: a division; max: a mask multiply).
"""

from __future__ import annotations

from ..ops.declare import rules_saving
from ..tensor import Tensor, make

__all__ = ["sum_tiles", "spread_tiles"]


@rules_saving(("kernel",))
def sum_tiles(x: Tensor, kernel: tuple) -> Tensor:
    """``[N, C, oh*kh, ow*kw]`` -> ``[N, C, oh, ow]``: the sum of each ``kernel`` tile."""
    (kh, kw), (n, c, h, w) = kernel, x.array.shape
    rows = x.array.reshape(n, c, h // kh, kh, w)
    # a tile's rows first (contiguous rows), then its columns (one strided pass): NumPy's sum over the
    # two small axes of [N, C, oh, kh, ow, kw] runs a loop of kw elements per output (W13's pool: 20 ms against 2)
    by_rows = rows[:, :, :, 0]
    for i in range(1, kh):
        by_rows = by_rows + rows[:, :, :, i]
    cells = by_rows.reshape(n, c, h // kh, w // kw, kw)
    out = cells[..., 0]
    for j in range(1, kw):
        out = out + cells[..., j]
    if out.base is not None:  # a 1-wide tile: the loops added nothing, and a result is its own array
        out = out.copy()

    def backward(g):
        return (spread_tiles(g, kernel),)

    def jvp(t):
        return sum_tiles(t, kernel)

    return make(out, (x,), backward, "sum_tiles", jvp)


@rules_saving(("kernel",))
def spread_tiles(g: Tensor, kernel: tuple) -> Tensor:
    """``[N, C, oh, ow]`` -> ``[N, C, oh*kh, ow*kw]``: each value copied onto its ``kernel`` tile."""
    kh, kw = kernel
    xp = g.device.xp
    out = xp.repeat(xp.repeat(g.array, kw, axis=3), kh, axis=2)

    def backward(gt):
        return (sum_tiles(gt, kernel),)

    def jvp(t):
        return spread_tiles(t, kernel)

    return make(out, (g,), backward, "spread_tiles", jvp)
