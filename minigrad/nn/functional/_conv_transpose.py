"""conv_transpose2d and conv_transpose1d: convolution's input-gradient, run forwards.

``conv_transpose2d(x, w)`` is the gradient wrt its input of a ``conv2d`` with ``w`` and the same stride,
padding, dilation and groups, taken at the output gradient ``x``: each input pixel scales the kernel,
and the scaled kernels are added onto the output, overlaps summed. So it is one op whose rule is
convolution's other products (:mod:`.._convolution`):

- ``∂L/∂x = conv2d(g, w)``: the output gradient correlated with the kernel;
- ``∂L/∂w = conv2d_weight(g, x)``: the output gradient correlated with ``x``;
- ``∂L/∂b``: ``g`` summed over the batch and the positions.

Both are ops whose own rules are convolutions again, so second derivatives are exact.
"""

from __future__ import annotations

from ...backend import scalar_type_name
from ...ops._util import check_same_device
from ...ops.declare import op, rules_saving
from ...ops.shape import pad
from ...ops.types import Dims, Padding, Size
from ...tensor import Tensor, make, shape_str
from .._conv_products import correlate_transposed
from .._convolution import conv2d_weight, convolution
from .._im2col import Geometry, pair
from ._batch_rules import conv_rule
from ._conv import check_bias
from ._conv1d import batched, one

__all__ = ["conv_transpose2d", "conv_transpose1d"]


@op(batch=conv_rule(2, (4, 3)))
def conv_transpose2d(
    input: Tensor,  # noqa: A002  (torch's argument name)
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Dims | None = 1,
    padding: Padding = 0,
    output_padding=0,
    groups: int = 1,
    dilation: Size = 1,
) -> Tensor:
    """Transposed 2-D convolution of ``[N, C_in, H, W]`` with ``weight`` ``[C_in, C_out/groups, kh, kw]``.

    The output is ``(H - 1) * stride - 2 * padding + dilation * (kh - 1) + output_padding + 1`` high.
    """
    if not isinstance(input, Tensor) or not isinstance(weight, Tensor):
        bad, name = (input, "input") if not isinstance(input, Tensor) else (weight, "weight")
        raise TypeError(f"conv_transpose2d(): argument '{name}' must be Tensor, not {type(bad).__name__}")
    unbatched = input.array.ndim == 3
    x = input.unsqueeze(0) if unbatched else input
    if x.array.ndim != 4 or weight.array.ndim != 4:
        raise RuntimeError(
            f"conv_transpose2d(): expected a 3-D or 4-D input and a 4-D weight, got input "
            f"{shape_str(input.array.shape)} and weight {shape_str(weight.array.shape)}"
        )
    n, c_in, h, w = x.array.shape
    w_in, per_group, kh, kw = weight.array.shape
    if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1 or c_in % groups:
        raise RuntimeError(f"conv_transpose2d(): groups={groups} must be a positive int dividing {c_in} channels")
    if w_in != c_in:
        raise RuntimeError(
            f"Given transposed=1, weight of size {shape_str(weight.array.shape)}, expected input "
            f"{shape_str(x.array.shape)} to have {w_in} channels, but got {c_in} channels instead"
        )
    geo = Geometry((kh, kw), stride, padding, dilation)
    (sh, sw), (ph, pw), (dh, dw) = geo.stride, geo.padding, geo.dilation
    oph, opw = pair(output_padding, "output_padding")
    if oph >= max(sh, dh) or opw >= max(sw, dw) or min(oph, opw) < 0:
        raise RuntimeError("output padding must be smaller than either stride or dilation")
    out_h = (h - 1) * sh - 2 * ph + dh * (kh - 1) + oph + 1
    out_w = (w - 1) * sw - 2 * pw + dw * (kw - 1) + opw + 1
    if out_h < 1 or out_w < 1:
        raise RuntimeError(f"conv_transpose2d(): the output size {out_h}x{out_w} is too small (non-positive)")
    c_out = per_group * groups
    check_bias(weight, bias, c_out, transposed=True)
    if weight.array.dtype != x.array.dtype:
        raise RuntimeError(
            f"expected scalar type {scalar_type_name(x.array.dtype)} but found {scalar_type_name(weight.array.dtype)}"
        )
    check_same_device(x, weight, "conv_transpose2d")
    if oph >= sh or opw >= sw:
        # an output padding of a stride or more (dilation > stride) is where a convolution of the output
        # has more positions than x: x's zero rows and columns there add nothing
        x = pad(x, (0, opw // sw, 0, oph // sh))
    out = transposed_convolution(x, weight, bias, (n, c_out, out_h, out_w), geo, groups)
    return out.squeeze(0) if unbatched else out


@rules_saving(
    {
        "backward": ("weight", "geo", "groups", "kernel", "x"),
        "backward_with_bias": ("weight", "geo", "groups", "kernel", "x"),
    }
)
def transposed_convolution(
    x: Tensor, weight: Tensor, bias: Tensor | None, out_shape: tuple, geo: Geometry, groups: int
) -> Tensor:
    """``conv_transpose2d``'s node: ``x`` ``[N, C_in, H, W]`` spread through ``weight`` ``[C_in, C_out/G,
    kh, kw]`` onto ``out_shape``, plus ``bias``; arguments are checked by the caller."""
    out = correlate_transposed(x.device.xp, x.array, weight.array, out_shape, geo, groups)
    kernel = weight.array.shape
    if bias is None:

        def backward(g):
            return (
                lambda: convolution(g, weight, None, geo, groups),
                lambda: conv2d_weight(g, kernel, x, geo, groups),
            )

        def jvp(tx, tw):
            return transposed_convolution(tx, weight, None, out_shape, geo, groups) + transposed_convolution(
                x, tw, None, out_shape, geo, groups
            )

        return make(out, (x, weight), backward, "conv_transpose2d", jvp)

    out += bias.array.reshape(1, -1, 1, 1)

    def backward_with_bias(g):
        return (
            lambda: convolution(g, weight, None, geo, groups),
            lambda: conv2d_weight(g, kernel, x, geo, groups),
            lambda: g.sum((0, 2, 3)),
        )

    def jvp_with_bias(tx, tw, tb):
        tangent = transposed_convolution(tx, weight, None, out_shape, geo, groups) + transposed_convolution(
            x, tw, None, out_shape, geo, groups
        )
        return tangent + tb.reshape(1, -1, 1, 1)

    return make(out, (x, weight, bias), backward_with_bias, "conv_transpose2d", jvp_with_bias)


@op(batch=conv_rule(1, (3, 2)))
def conv_transpose1d(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    bias: Tensor | None = None,
    stride: Dims | None = 1,
    padding: Padding = 0,
    output_padding=0,
    groups: int = 1,
    dilation: Size = 1,
) -> Tensor:
    """Transposed 1-D convolution of ``[N, C_in, L]`` with ``weight`` ``[C_in, C_out/groups, k]``."""
    x, unbatched = batched(input, "conv_transpose1d()")
    if not isinstance(weight, Tensor) or weight.array.ndim != 3:
        raise RuntimeError("conv_transpose1d(): expected a 3-D weight [C_in, C_out/groups, k]")
    if isinstance(groups, int) and groups >= 1:  # a bad groups is refused by conv_transpose2d
        check_bias(weight, bias, weight.array.shape[1] * groups, transposed=True)
    out = conv_transpose2d(
        x.unsqueeze(2),
        weight.unsqueeze(2),
        bias,
        (1, one(stride, "stride")),
        (0, one(padding, "padding")),
        (0, one(output_padding, "output_padding")),
        groups,
        (1, one(dilation, "dilation")),
    ).squeeze(2)
    return out.squeeze(0) if unbatched else out
