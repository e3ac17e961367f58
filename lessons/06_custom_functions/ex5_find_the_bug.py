# Exercise file generated from reference/ex5_find_the_bug.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 6.5 (debugging) — a hand-written backward that gradcheck rejects.

`Cube` (y = x**3) has a planted bug in its backward. It raises nothing, and at x = 1
it even gives the right number. Find it two ways, from this lesson's folder:

    python ex5_find_the_bug.py      gradcheck names the element
    minigrad-tui ex5_find_the_bug.py

In the debugger, press `n` until the code pane shows `Cube.backward` and compare what
it returns for x with 3x² computed by hand.
"""

import minigrad as mg
from minigrad.autograd import Function, gradcheck


class Cube(Function):
    """y = x**3; its backward has one planted bug."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x


def run_buggy():
    """Cube on x = [1, 2, -3], loss = sum: the gradient should be 3x² = [3, 12, 27]."""
    x = mg.tensor([1.0, 2.0, -3.0], requires_grad=True, name="x")
    y = Cube.apply(x)
    y.sum().backward()
    return x.grad


def buggy_grad_of_x() -> list:
    """What the buggy Cube.backward returns for x in run_buggy() (read it off the debugger)."""
    # HINT: g is 1 everywhere (the gradient of a sum); evaluate backward's return line at run_buggy's x.
    raise NotImplementedError("exercise: write buggy_grad_of_x()")


def cube_backward(x, g):
    """The right gradient for x of y = x**3, given the incoming gradient g (Tensors in, Tensor out)."""
    # HINT: d(x**3)/dx = 3 * x**2.
    raise NotImplementedError("exercise: write cube_backward()")


if __name__ == "__main__":
    print("x.grad with the buggy Cube:", run_buggy(), " (3x² is [3, 12, 27])")
    x64 = mg.tensor([1.0, 2.0, -3.0], dtype=mg.float64, requires_grad=True)
    try:
        gradcheck(Cube.apply, (x64,))
    except Exception as err:  # gradcheck's report names the input, the element and both values
        print(err)
