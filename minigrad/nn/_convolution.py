"""The convolution op and its two gradients, each an op whose rule is the formula a lesson writes.

For ``y = x ⋆ w + b`` (PyTorch's conv2d, a cross-correlation) and an output gradient ``g``:

- ``∂L/∂x = conv2d_input(g, w)``: ``g`` convolved back through the kernel, a transposed convolution;
- ``∂L/∂w = conv2d_weight(x, g)``: the input correlated with ``g``;
- ``∂L/∂b``: ``g`` summed over the batch and the positions.

Both gradients are bilinear in their operands, so their own rules are these same products again
(``create_graph`` gives real second derivatives, as PyTorch's convolution double backward does).
The products themselves are im2col and a matrix product per image (:mod:`._conv_products`).
"""

from __future__ import annotations

from ..ops.declare import rules_saving
from ..tensor import Tensor, make
from ._conv_products import correlate, correlate_transposed, correlate_weight
from ._im2col import Geometry

__all__ = ["convolution", "conv2d_input", "conv2d_weight"]


@rules_saving(
    {
        "backward": ("shape", "weight", "geo", "groups", "x", "kernel"),
        "backward_with_bias": ("shape", "weight", "geo", "groups", "x", "kernel"),
    }
)
def convolution(x: Tensor, weight: Tensor, bias: Tensor | None, geo: Geometry, groups: int) -> Tensor:
    """``x`` ``[N, C, H, W]`` correlated with ``weight`` ``[O, C/groups, kh, kw]``, plus ``bias`` ``[O]``.

    ``geo`` gives the stride, the zero padding and the dilation; arguments are checked by the caller.
    """
    out = correlate(x.device.xp, x.array, weight.array, geo, groups, None if bias is None else bias.array)
    shape, kernel = x.array.shape, weight.array.shape
    if bias is None:

        def backward(g):
            return (
                lambda: conv2d_input(shape, weight, g, geo, groups),
                lambda: conv2d_weight(x, kernel, g, geo, groups),
            )

        def jvp(tx, tw):
            return convolution(tx, weight, None, geo, groups) + convolution(x, tw, None, geo, groups)

        return make(out, (x, weight), backward, "conv2d", jvp)

    def backward_with_bias(g):
        return (
            lambda: conv2d_input(shape, weight, g, geo, groups),
            lambda: conv2d_weight(x, kernel, g, geo, groups),
            lambda: g.sum((0, 2, 3)),
        )

    def jvp_with_bias(tx, tw, tb):
        tangent = convolution(tx, weight, None, geo, groups) + convolution(x, tw, None, geo, groups)
        return tangent + tb.reshape(1, -1, 1, 1)

    return make(out, (x, weight, bias), backward_with_bias, "conv2d", jvp_with_bias)


@rules_saving(("kernel", "g", "geo", "groups", "weight"))
def conv2d_input(image_shape: tuple, weight: Tensor, g: Tensor, geo: Geometry, groups: int) -> Tensor:
    """``∂L/∂x`` ``image_shape`` of ``convolution(x, weight)`` for the output gradient ``g``: a transposed
    convolution of ``g`` with ``weight`` (torch.nn.grad.conv2d_input)."""
    dx = correlate_transposed(g.device.xp, g.array, weight.array, image_shape, geo, groups)
    kernel = weight.array.shape

    def backward(gx):
        return (
            lambda: conv2d_weight(gx, kernel, g, geo, groups),
            lambda: convolution(gx, weight, None, geo, groups),
        )

    def jvp(tw, tg):
        return conv2d_input(image_shape, tw, g, geo, groups) + conv2d_input(image_shape, weight, tg, geo, groups)

    return make(dx, (weight, g), backward, "conv2d_input", jvp)


@rules_saving(("shape", "g", "geo", "groups", "x"))
def conv2d_weight(x: Tensor, kernel_shape: tuple, g: Tensor, geo: Geometry, groups: int) -> Tensor:
    """``∂L/∂w`` ``kernel_shape`` of ``convolution(x, w)`` for the output gradient ``g``: ``x`` correlated
    with ``g``, summed over the batch (torch.nn.grad.conv2d_weight)."""
    dw = correlate_weight(x.device.xp, x.array, g.array, kernel_shape, geo, groups)
    shape = x.array.shape

    def backward(gw):
        return (
            lambda: conv2d_input(shape, gw, g, geo, groups),
            lambda: convolution(x, gw, None, geo, groups),
        )

    def jvp(tx, tg):
        return conv2d_weight(tx, kernel_shape, g, geo, groups) + conv2d_weight(x, kernel_shape, tg, geo, groups)

    return make(dw, (x, g), backward, "conv2d_weight", jvp)
