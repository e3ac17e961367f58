"""Exercise 12.2 (prediction) — the contributions the demo's pass sends into x and into mu.

Read demo.py (x = [1, 8, 4, 5], gamma = 2, beta = 0.5, the gradient arriving at y is w =
[-1, 2, -3, 1]) and answer on paper before you run anything; `minigrad lesson check 12` records
the demo and compares. Then find each event with `minigrad lesson debug 12`.

eps = 1e-5 moves these numbers only in their sixth digit: leave it out by hand.
"""


def predict_senders_into_x() -> list[str]:
    """The names of the nodes whose rules send a contribution into `x`, in the order the pass sends
    them (its `grad_accumulated` events into x, before the one into `x.grad`)."""
    # BEGIN SOLUTION
    # HINT: the pass finishes a node only after every contribution into it has arrived.
    return ["xc", "dev", "mu"]
    # END SOLUTION


def predict_contributions_into_x() -> list[list[float]]:
    """The three contributions into `x` (four floats each), in the order of predict_senders_into_x()."""
    # BEGIN SOLUTION
    # HINT: the gradient entering xhat is gamma * w; inv_std = 1 / 2.5 = 0.4.
    direct = [-0.8, 1.6, -2.4, 0.8]  # gamma * w * inv_std
    variance = [1.4, -1.4, 0.2, -0.2]  # 2 * dev / N * dvar, dvar = -0.8
    mean = [0.2, 0.2, 0.2, 0.2]  # mu's gradient 0.8, shared out by mean's rule
    return [direct, variance, mean]
    # END SOLUTION


def predict_contributions_into_mu() -> list[float]:
    """The two contributions into `mu` (one float each), in the order the pass sends them."""
    # BEGIN SOLUTION
    # HINT: sub's rule sends -g to its second operand, and the engine sums it down to mu's shape.
    return [0.8, 0.0]
    # END SOLUTION


def predict_accumulations_if_shared() -> int:
    """How many `grad_accumulated` events into `x` (not `x.grad`) the pass would make if the demo
    computed `x - mu` once and used it both for the variance and for `xhat`."""
    # BEGIN SOLUTION
    # HINT: which node would the direct and the variance paths then meet in, before they reach x?
    return 2
    # END SOLUTION
