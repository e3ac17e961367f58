"""A custom Function with a planted bug in one of its two rules (exercise 11.4).

softplus(x) = log(1 + e**x). Its derivative is sigmoid(x). Both rules below should use it:
backward multiplies the incoming gradient by it, jvp multiplies the incoming tangent by it.
"""

import minigrad as mg
from minigrad.autograd import Function


class Softplus(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        return (x.exp() + 1).log()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.sigmoid()

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return t * (-x).sigmoid()


def softplus(x: mg.Tensor) -> mg.Tensor:
    return Softplus.apply(x)
