"""Exercise 6.1 (warm-up) — the smallest custom Function.

Write `Square`, y = x * x, as a `minigrad.autograd.Function`: `forward` saves what
`backward` needs with `ctx.save_for_backward`, and `backward` returns the gradient
for x, the incoming gradient times the local derivative 2x. Use Tensor operations
in both, so that gradgradcheck can differentiate your backward too.
"""

from minigrad.autograd import Function


class Square(Function):
    """y = x * x, with its backward written by hand."""

    @staticmethod
    def forward(ctx, x):
        # BEGIN SOLUTION
        # HINT: backward will need x: ctx.save_for_backward(x).
        ctx.save_for_backward(x)
        return x * x
        # END SOLUTION

    @staticmethod
    def backward(ctx, g):
        # BEGIN SOLUTION
        # HINT: (x,) = ctx.saved_tensors, then the incoming gradient times d(x*x)/dx.
        (x,) = ctx.saved_tensors
        return g * 2 * x
        # END SOLUTION
