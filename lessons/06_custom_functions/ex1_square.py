# Exercise file generated from reference/ex1_square.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
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
        # HINT: backward will need x: ctx.save_for_backward(x).
        raise NotImplementedError("exercise: write forward()")

    @staticmethod
    def backward(ctx, g):
        # HINT: (x,) = ctx.saved_tensors, then the incoming gradient times d(x*x)/dx.
        raise NotImplementedError("exercise: write backward()")
