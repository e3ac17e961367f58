"""im2col and col2im: sliding windows as matrix columns, each the other's backward.

``im2col`` turns an image batch ``[N, C, H, W]`` into ``[N, C*kh*kw, oh*ow]``: column
``l`` holds the window under output position ``l``. Convolution then is one matrix
product. ``col2im`` adds columns back onto the image (overlapping windows sum), which
is exactly im2col's vector-Jacobian product, and im2col is col2im's. So both are
written as ops whose closures call each other, and create_graph works.
"""

from __future__ import annotations

from ..ops.declare import rules_saving
from ..tensor import Tensor, make, shape_str


def pair(value, name: str) -> tuple:
    """``3`` -> ``(3, 3)``; a pair stays a pair."""
    if isinstance(value, int):
        return (value, value)
    value = tuple(value)
    if len(value) != 2 or not all(isinstance(v, int) for v in value):
        raise TypeError(f"{name} must be an int or a pair of ints, got {value!r}")
    return value


def output_size(size: int, kernel: int, stride: int, padding: int, dilation: int) -> int:
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


class Geometry:
    """Kernel, stride, padding and dilation of a sliding window over ``[N, C, H, W]`` inputs."""

    __slots__ = ("kernel", "stride", "padding", "dilation")

    def __init__(self, kernel, stride, padding, dilation):
        self.kernel = pair(kernel, "kernel_size")
        self.stride = pair(stride, "stride")
        self.padding = pair(padding, "padding")
        self.dilation = pair(dilation, "dilation")
        if min(self.kernel) < 1 or min(self.stride) < 1 or min(self.dilation) < 1 or min(self.padding) < 0:
            raise RuntimeError(
                f"kernel_size, stride and dilation must be positive and padding non-negative, got "
                f"kernel_size={self.kernel}, stride={self.stride}, padding={self.padding}, dilation={self.dilation}"
            )

    def out_hw(self, shape: tuple, who: str) -> tuple:
        (kh, kw), (sh, sw), (ph, pw), (dh, dw) = self.kernel, self.stride, self.padding, self.dilation
        oh = output_size(shape[2], kh, sh, ph, dh)
        ow = output_size(shape[3], kw, sw, pw, dw)
        if oh < 1 or ow < 1:
            raise RuntimeError(
                f"{who}: input of shape {shape_str(shape)} is too small for kernel {kh}x{kw} "
                f"(padding {ph}x{pw}, dilation {dh}x{dw}): the output would be {oh}x{ow}"
            )
        return oh, ow


def windows(xp, data, geo: Geometry, pad_value=0.0):
    """The array ``[N, C, kh, kw, oh, ow]`` of every window (a fresh copy, made in one pass)."""
    return xp.ascontiguousarray(window_view(xp, data, geo, pad_value))


def window_view(xp, data, geo: Geometry, pad_value=0.0):
    """Every window of ``data`` (padded, a copy only where ``geo`` pads) as a strided view ``[N, C, kh, kw, oh, ow]``."""
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = geo.kernel, geo.stride, geo.padding, geo.dilation
    oh, ow = geo.out_hw(data.shape, "im2col")
    if ph or pw:
        data = xp.pad(data, ((0, 0), (0, 0), (ph, ph), (pw, pw)), constant_values=pad_value)
    span = (dh * (kh - 1) + 1, dw * (kw - 1) + 1)
    view = xp.lib.stride_tricks.sliding_window_view(data, span, axis=(2, 3))  # [N, C, H', W', span_h, span_w]
    view = view[:, :, : sh * (oh - 1) + 1 : sh, : sw * (ow - 1) + 1 : sw, ::dh, ::dw]
    return view.transpose(0, 1, 4, 5, 2, 3)


def add_windows_into(image, win, geo: Geometry) -> None:
    """Add windows ``[N, C, kh, kw, oh, ow]`` onto ``image`` (padded), in place."""
    (kh, kw), (sh, sw), (dh, dw) = geo.kernel, geo.stride, geo.dilation
    oh, ow = win.shape[4], win.shape[5]
    for i in range(kh):
        top = i * dh
        for j in range(kw):
            left = j * dw
            image[:, :, top : top + sh * (oh - 1) + 1 : sh, left : left + sw * (ow - 1) + 1 : sw] += win[:, :, i, j]


def add_windows(xp, win, image_shape: tuple, geo: Geometry):
    """Sum windows ``[N, C, kh, kw, oh, ow]`` back onto a zero image of ``image_shape``."""
    n, c, h, w = image_shape
    ph, pw = geo.padding
    image = xp.zeros((n, c, h + 2 * ph, w + 2 * pw), dtype=win.dtype)
    add_windows_into(image, win, geo)
    if ph or pw:
        image = image[:, :, ph : ph + h, pw : pw + w]
    return image


@rules_saving(("shape", "oh", "ow", "geo"))
def im2col(x: Tensor, geo: Geometry) -> Tensor:
    """``[N, C, H, W]`` -> ``[N, C*kh*kw, oh*ow]`` (zero padding); backward is col2im."""
    shape = x.array.shape
    win = windows(x.device.xp, x.array, geo)
    n, c, kh, kw, oh, ow = win.shape

    def backward(g):
        return (col2im(g, shape, (oh, ow), geo),)

    def jvp(t):
        return im2col(t, geo)

    return make(win.reshape(n, c * kh * kw, oh * ow), (x,), backward, "im2col", jvp)


@rules_saving(("geo",))
def col2im(cols: Tensor, image_shape: tuple, out_hw: tuple, geo: Geometry) -> Tensor:
    """``[N, C*kh*kw, oh*ow]`` -> ``[N, C, H, W]``, summing overlaps; backward is im2col."""
    n, c = image_shape[0], image_shape[1]
    (kh, kw), (oh, ow) = geo.kernel, out_hw
    win = cols.array.reshape(n, c, kh, kw, oh, ow)

    def backward(g):
        return (im2col(g, geo),)

    def jvp(t):
        return col2im(t, image_shape, out_hw, geo)

    return make(add_windows(cols.device.xp, win, image_shape, geo), (cols,), backward, "col2im", jvp)
