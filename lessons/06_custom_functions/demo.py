"""Lesson 6 demo: a custom Function (Swish), a hook on its output, and gradcheck.

Run headless with `python demo.py` in the lesson's folder, or step through it with
`minigrad lesson debug 6`: when the pass reaches `h`, the closure shown is Swish.backward
— your code — and the inspector lists what it captured.
"""

import minigrad as mg
from minigrad.autograd import Function, gradcheck


class Swish(Function):
    """swish(x) = x * sigmoid(x), with its derivative s + x * s * (1 - s) written by hand."""

    @staticmethod
    def forward(ctx, x):
        s = x.sigmoid()
        ctx.save_for_backward(x, s)
        return x * s

    @staticmethod
    def backward(ctx, g):
        x, s = ctx.saved_tensors
        return g * (s + x * s * (1 - s))


def halve(grad):
    """A hook: it sees the gradient arriving at h and returns the one the pass should use instead."""
    print("hook on h sees", grad)
    return grad * 0.5


x = mg.tensor([-2.0, 0.5, 3.0], requires_grad=True, name="x")
h = Swish.apply(x)
h.register_hook(halve)
hh = h * h  # h is used twice: two contributions into h
loss = hh.sum()
loss.backward()
print("loss =", loss.item())
print("x.grad =", x.grad, " (halved by the hook on h)")

x64 = mg.tensor([-2.0, 0.5, 3.0], dtype=mg.float64, requires_grad=True)
print("gradcheck(Swish.apply) passes:", gradcheck(Swish.apply, (x64,)))
