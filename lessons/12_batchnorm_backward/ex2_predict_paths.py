# Exercise file generated from reference/ex2_predict_paths.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 12.2 (prediction) — the contributions the demo's pass sends into x and into mu.

Read demo.py (x = [1, 8, 4, 5], gamma = 2, beta = 0.5, the gradient arriving at y is w =
[-1, 2, -3, 1]) and answer on paper before you run anything; `minigrad lesson check 12` records
the demo and compares. Then find each event with `minigrad lesson debug 12`.

eps = 1e-5 moves these numbers only in their sixth digit: leave it out by hand.
"""


def predict_senders_into_x() -> list[str]:
    """The names of the nodes whose rules send a contribution into `x`, in the order the pass sends
    them (its `grad_accumulated` events into x, before the one into `x.grad`)."""
    # HINT: the pass finishes a node only after every contribution into it has arrived.
    raise NotImplementedError("exercise: write predict_senders_into_x()")


def predict_contributions_into_x() -> list[list[float]]:
    """The three contributions into `x` (four floats each), in the order of predict_senders_into_x()."""
    # HINT: the gradient entering xhat is gamma * w; inv_std = 1 / 2.5 = 0.4.
    raise NotImplementedError("exercise: write predict_contributions_into_x()")


def predict_contributions_into_mu() -> list[float]:
    """The two contributions into `mu` (one float each), in the order the pass sends them."""
    # HINT: sub's rule sends -g to its second operand, and the engine sums it down to mu's shape.
    raise NotImplementedError("exercise: write predict_contributions_into_mu()")


def predict_accumulations_if_shared() -> int:
    """How many `grad_accumulated` events into `x` (not `x.grad`) the pass would make if the demo
    computed `x - mu` once and used it both for the variance and for `xhat`."""
    # HINT: which node would the direct and the variance paths then meet in, before they reach x?
    raise NotImplementedError("exercise: write predict_accumulations_if_shared()")
