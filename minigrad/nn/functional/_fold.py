"""unfold and fold: sliding blocks of an image as columns (im2col) and columns summed back onto an image
(col2im), as torch.nn.functional's; each op's rule is the other."""

from __future__ import annotations

from ...ops.declare import LOOP, op
from ...ops.types import Dims, Padding, Size
from ...tensor import Tensor, shape_str
from .._im2col import Geometry, col2im, im2col, pair
from .._im2col import output_size as _blocks

__all__ = ["unfold", "fold"]


def _geometry(kernel_size, dilation, padding, stride) -> Geometry:
    return Geometry(kernel_size, stride, padding, dilation)


@op(batch=LOOP)
def unfold(
    input: Tensor,  # noqa: A002
    kernel_size: Size,
    dilation: Size = 1,
    padding: Padding = 0,
    stride: Dims | None = 1,
) -> Tensor:
    """``[N, C, H, W]`` (or ``[C, H, W]``) to ``[N, C * kh * kw, L]``: column ``l`` holds the ``l``-th
    sliding block (zero padding), blocks in row-major order."""
    if input.dim() not in (3, 4):
        raise NotImplementedError(f"Input Error: Only 3D or 4D input Tensors are supported (got {input.dim()}D)")
    geo = _geometry(kernel_size, dilation, padding, stride)
    x = input.unsqueeze(0) if input.dim() == 3 else input
    h, w = x.shape[2], x.shape[3]
    blocks = [_blocks(*args) for args in zip((h, w), geo.kernel, geo.stride, geo.padding, geo.dilation)]
    if min(blocks) < 1:
        raise RuntimeError(
            f"Given input with spatial size ({h}, {w}), kernel_size={geo.kernel}, dilation={geo.dilation}, "
            f"padding={geo.padding}, calculated shape of the array of sliding blocks as {tuple(blocks)}, but its "
            "components must be at least one."
        )
    out = im2col(x, geo)
    return out.squeeze(0) if input.dim() == 3 else out


@op(batch=LOOP)
def fold(
    input: Tensor,  # noqa: A002
    output_size,
    kernel_size: Size,
    dilation: Size = 1,
    padding: Padding = 0,
    stride: Dims | None = 1,
) -> Tensor:
    """``[N, C * kh * kw, L]`` (or ``[C * kh * kw, L]``) to ``[N, C, *output_size]``: each column added onto
    its block (overlaps sum); the adjoint of ``unfold``."""
    if input.dim() not in (2, 3):
        raise RuntimeError(
            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions "
            f"for input, but got: {shape_str(input.shape)}"
        )
    geo = _geometry(kernel_size, dilation, padding, stride)
    size = pair(output_size, "output_size")
    x = input.unsqueeze(0) if input.dim() == 2 else input
    n, rows, length = x.shape
    block = geo.kernel[0] * geo.kernel[1]
    if rows % block:
        raise RuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
            f"input.size(1)={rows} and kernel_size={geo.kernel}."
        )
    bh, bw = (_blocks(*args) for args in zip(size, geo.kernel, geo.stride, geo.padding, geo.dilation))
    if bh * bw != length:
        raise RuntimeError(
            f"Given output_size={size}, kernel_size={geo.kernel}, dilation={geo.dilation}, padding={geo.padding}, "
            f"stride={geo.stride}, expected size of input's dimension 2 to match the calculated number of sliding "
            f"blocks {bh} * {bw} = {bh * bw}, but got input.size(2)={length}."
        )
    out = col2im(x, (n, rows // block, *size), (bh, bw), geo)
    return out.squeeze(0) if input.dim() == 2 else out
