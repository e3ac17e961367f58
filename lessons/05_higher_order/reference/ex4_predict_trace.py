"""Exercise 5.4 — predict the three passes of the lesson's demo.

demo.py takes three nested derivatives of y = x**4 at x = 1.5:

    (d1,) = grad(y, x, create_graph=True)
    (d2,) = grad(d1, x, create_graph=True)
    (d3,) = grad(d2, x)

Answer the questions below about the recorded trace, then run
`minigrad lesson check 5`; the check records the demo and compares. Number the
passes 1, 2, 3 in the order they run.
"""


def predict_incoming_grad_of_x() -> list:
    """The gradient entering node `x` in passes 1, 2 and 3 (three floats)."""
    # BEGIN SOLUTION
    # HINT: pass k differentiates the (k-1)-th derivative of x**4.
    return [4 * 1.5**3, 12 * 1.5**2, 24 * 1.5]
    # END SOLUTION


def predict_passes_that_create_nodes() -> list:
    """Which passes emit `node_created` events (the gradient's own graph being built), e.g. [1, 3]."""
    # BEGIN SOLUTION
    # HINT: closures record a graph only when the pass runs with create_graph=True.
    return [1, 2]
    # END SOLUTION


def predict_pass2_enters_y() -> bool:
    """Does the second pass (the derivative of d1) enter node `y`?"""
    # BEGIN SOLUTION
    # HINT: which tensors is d1 computed from? pow's backward uses x, not its output.
    return False
    # END SOLUTION
