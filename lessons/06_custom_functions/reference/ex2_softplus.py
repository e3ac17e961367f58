"""Exercise 6.2 — a custom Function: softplus, stable for any input.

softplus(x) = log(1 + e^x). Written literally it overflows: e^1000 is inf in float64,
and e^100 already is in float32. The stable form is

    softplus(x) = log1p(e^(-|x|)) + max(x, 0)

and its derivative is sigmoid(x). Write `Softplus` as a `minigrad.autograd.Function`:
`forward(ctx, x)` computes the stable form with Tensor ops and saves what backward
needs; `backward(ctx, g)` returns the gradient for x, also with Tensor ops (so that
the second derivative works too).
"""

from minigrad.autograd import Function


class Softplus(Function):
    @staticmethod
    def forward(ctx, x):
        # BEGIN SOLUTION
        # HINT: x.abs(), .exp(), .log1p() and x.clamp(min=0) are all Tensor methods.
        ctx.save_for_backward(x)
        return (-x.abs()).exp().log1p() + x.clamp(min=0)
        # END SOLUTION

    @staticmethod
    def backward(ctx, g):
        # BEGIN SOLUTION
        # HINT: read x back from ctx.saved_tensors; the local derivative is x.sigmoid().
        (x,) = ctx.saved_tensors
        return g * x.sigmoid()
        # END SOLUTION


def softplus(x):
    """Apply the Function (this is how a custom op is called)."""
    return Softplus.apply(x)
