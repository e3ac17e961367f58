"""Exercise 5.5 (debugging) — a second derivative that cannot be taken.

`buggy_second_derivative` below raises a RuntimeError instead of returning f''(x).
Step it in the debugger, from this lesson's folder:

    minigrad-tui ex5_find_the_bug.py

and compare its first pass with the first pass of the lesson's demo
(`minigrad lesson debug 5`): in the demo the rule's call is surrounded by
`node_created` events; here? Then answer and fix.
"""

import minigrad as mg
from minigrad.autograd import grad


def buggy_second_derivative(f, x):
    """f''(x) for a scalar function f; one argument is missing."""
    (d1,) = grad(f(x), x)
    (d2,) = grad(d1, x)
    return d2


def run_buggy():
    """The demo's y = x**4 at x = 1.5 through buggy_second_derivative; returns the error message."""
    x = mg.tensor(1.5, dtype=mg.float64, requires_grad=True, name="x")
    try:
        buggy_second_derivative(lambda t: t**4, x)
    except RuntimeError as err:
        return str(err)
    return None


def nodes_made_by_first_pass() -> int:
    """How many `node_created` events the buggy function's FIRST grad() pass emits."""
    # BEGIN SOLUTION
    # HINT: without create_graph=True the rules run with gradient recording off.
    return 0
    # END SOLUTION


def second_derivative(f, x):
    """f''(x), as a tensor, for a scalar function f of a scalar tensor x."""
    # BEGIN SOLUTION
    # HINT: the first grad() must build a graph of the gradient, so that the second can walk it.
    (d1,) = grad(f(x), x, create_graph=True)
    (d2,) = grad(d1, x)
    return d2
    # END SOLUTION


if __name__ == "__main__":
    print("the buggy second derivative raised:", run_buggy())
