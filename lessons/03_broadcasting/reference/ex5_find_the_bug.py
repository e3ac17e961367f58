"""Exercise 3.5 (debugging) — a bias gradient summed over the wrong dim.

`BiasAdd` below adds a bias row to a batch, written by hand as a custom Function.
Its backward has a planted bug. On a square batch the shapes still agree, so the
engine has nothing to reduce, raises nothing, and the wrong numbers flow into
`b.grad`. Find it in the debugger, from this lesson's folder:

    minigrad-tui ex5_find_the_bug.py

press `n` until the pass calls BiasAdd.backward (the code pane shows it), and read
the gradient it returns for `b`. Then answer, and write the fixed backward.
"""

import minigrad as mg
from minigrad.autograd import Function


class BiasAdd(Function):
    """out[i, j] = x[i, j] + b[j]; its backward has one planted bug."""

    @staticmethod
    def forward(ctx, x, b):
        return x + b

    @staticmethod
    def backward(ctx, g):
        return g, g.sum(1)


def run_buggy():
    """The script the debugger steps: a 3x3 batch, so the bug raises nothing."""
    x = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], name="x")
    b = mg.tensor([0.0, 0.0, 0.0], requires_grad=True, name="b")
    out = BiasAdd.apply(x, b)
    weights = mg.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], name="weights")
    loss = (out * weights).sum()
    loss.backward()
    return b.grad


def buggy_b_grad() -> list:
    """The gradient the buggy backward returns for `b` in run_buggy() (read it off the debugger)."""
    # BEGIN SOLUTION
    # HINT: the gradient entering `out` is `weights`: only its first row is non-zero.
    # HINT: g.sum(1) adds along each row, so it returns one number per row of the batch.
    return [6.0, 0.0, 0.0]
    # END SOLUTION


def bias_grad(g):
    """The correct gradient for `b` (shape (n_cols,)) from the gradient `g` of out (shape (batch, n_cols))."""
    # BEGIN SOLUTION
    # HINT: b[j] was added to every row i: its gradient is the sum over the rows, dim 0.
    return g.sum(0)
    # END SOLUTION


if __name__ == "__main__":
    print("b.grad from the buggy BiasAdd:", run_buggy())
