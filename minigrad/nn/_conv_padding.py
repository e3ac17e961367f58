"""PyTorch's string paddings for convolutions: "valid" (none) and "same" (output size = input size)."""

from __future__ import annotations

from ..ops.shape import pad
from ..tensor import Tensor


def same_padding(x: Tensor, padding, kernel: tuple, stride, dilation, who: str) -> tuple:
    """``(x, padding)`` with a string ``padding`` resolved to numbers for the last ``len(kernel)`` dims.

    "same" needs stride 1; it pads ``dilation * (kernel - 1)`` in total per dim, the odd
    element on the far side, as PyTorch does (that extra element is padded onto ``x``
    here, the symmetric part is returned as the number the convolution pads by).
    """
    if not isinstance(padding, str):
        return x, padding
    k = len(kernel)
    if padding == "valid":
        return x, (0,) * k if k > 1 else 0
    if padding != "same":
        raise RuntimeError(f"Invalid padding string '{padding}', should be one of {{'valid', 'same'}}")
    strides = (stride,) * k if isinstance(stride, int) else tuple(stride)
    if any(s != 1 for s in strides):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    dilations = (dilation,) * k if isinstance(dilation, int) else tuple(dilation)
    totals = [d * (n - 1) for d, n in zip(dilations, kernel)]
    extra = []
    for total in reversed(totals):  # pad() lists the last dim first
        extra += [0, total % 2]
    if any(extra):
        x = pad(x, extra)
    sym = tuple(t // 2 for t in totals)
    return x, sym if k > 1 else sym[0]
