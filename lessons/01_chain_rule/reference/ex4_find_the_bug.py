"""Exercise 1.4 (debugging) — a tanh rule with a planted bug.

`MyTanh` below is tanh written by hand as a custom Function (lesson 6 explains
Functions; here you only need to read its two methods). Its backward has one
planted bug: the gradients it gives are wrong, and nothing raises. Step it, from this
lesson's folder (in your workspace):

    minigrad-tui ex4_find_the_bug.py

press `n` until the code pane shows `MyTanh.backward`, and compare the gradient it
returns for `e` with the one you computed by hand in the lesson (0.7864).
"""

import minigrad as mg
from minigrad.autograd import Function


class MyTanh(Function):
    """y = tanh(x); backward has a planted bug."""

    @staticmethod
    def forward(ctx, x):
        y = x.tanh()
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * (1 - x * x)


def run_buggy():
    """The lesson's f = tanh(a * b + c), with MyTanh in place of tanh."""
    a = mg.tensor(2.0, requires_grad=True, name="a")
    b = mg.tensor(-3.0, requires_grad=True, name="b")
    c = mg.tensor(6.5, requires_grad=True, name="c")
    e = a * b + c
    f = MyTanh.apply(e)
    f.backward()
    return a.grad.item(), b.grad.item(), c.grad.item()


def buggy_grad_of_e() -> float:
    """The gradient MyTanh.backward returns for e in run_buggy(), read off the debugger."""
    # BEGIN SOLUTION
    # HINT: e = 2 * -3 + 6.5 = 0.5; evaluate backward's return line with the tensors it saved.
    return 0.75
    # END SOLUTION


def tanh_grad(x: float, y: float, g: float) -> float:
    """The right gradient for the input of y = tanh(x), given the incoming gradient g."""
    # BEGIN SOLUTION
    # HINT: d tanh(x)/dx = 1 - tanh(x)**2, and tanh(x) is the output y.
    return g * (1 - y * y)
    # END SOLUTION


if __name__ == "__main__":
    print("gradients of a, b, c with the buggy MyTanh:", run_buggy())
