"""Exercise 12.2 (prediction) — the contributions a batch norm's pass sends into x and into mu.

`run()` below is the demo's batch norm (x = [1, 8, 4, 5], gamma = 2, beta = 0.5) with another
gradient arriving from above: w = [-2, 1, 2, 1]. Answer on paper before you run anything;
`minigrad lesson check 12` records run() and compares. Then step through it, from this lesson's
folder, with `minigrad-tui ex2_predict_paths.py`.

eps = 1e-5 moves these numbers only in their sixth digit: leave it out by hand.
"""

import minigrad as mg


def run():
    """The demo's batch norm, with w = [-2, 1, 2, 1]."""
    x = mg.tensor([1.0, 8.0, 4.0, 5.0], dtype=mg.float64, requires_grad=True, name="x")
    gamma = mg.tensor(2.0, dtype=mg.float64, requires_grad=True, name="gamma")
    beta = mg.tensor(0.5, dtype=mg.float64, requires_grad=True, name="beta")
    w = mg.tensor([-2.0, 1.0, 2.0, 1.0], dtype=mg.float64, name="w")
    eps = 1e-5

    mu = x.mean()
    dev = x - mu
    sq = dev**2
    var = sq.mean()
    inv_std = (var + eps) ** -0.5
    xc = x - mu
    xhat = xc * inv_std
    y = gamma * xhat + beta
    loss = (y * w).sum()
    loss.backward()


def predict_senders_into_x() -> list[str]:
    """The names of the nodes whose rules send a contribution into `x`, in the order the pass sends
    them (its `grad_accumulated` events into x, before the one into `x.grad`)."""
    # BEGIN SOLUTION
    # HINT: the pass finishes a node only after every contribution into it has arrived.
    return ["xc", "dev", "mu"]
    # END SOLUTION


def predict_contributions_into_x() -> list[list[float]]:
    """The three contributions into `x` (four floats each), in the order the pass sends them."""
    # BEGIN SOLUTION
    # HINT: the gradient entering xhat is gamma * w; inv_std = 1 / 2.5 = 0.4; xhat = [-1.4, 1.4, -0.2, 0.2].
    direct = [-1.6, 0.8, 1.6, 0.8]  # gamma * w * inv_std
    variance = [1.12, -1.12, 0.16, -0.16]  # sum(dxhat * xc) = 20, dvar = -0.64, then 2 * dev * dvar / 4
    mean = [-0.4, -0.4, -0.4, -0.4]  # mu's gradient -1.6, shared out by mean's rule
    return [direct, variance, mean]
    # END SOLUTION


def predict_contributions_into_mu() -> list[float]:
    """The two contributions into `mu` (one float each), in the order the pass sends them."""
    # BEGIN SOLUTION
    # HINT: sub's rule sends -g to its second operand, and the engine sums it down to mu's shape.
    return [-1.6, 0.0]
    # END SOLUTION


def predict_accumulations_if_shared() -> int:
    """How many `grad_accumulated` events into `x` (not `x.grad`) the pass would make if run()
    computed `x - mu` once and used it both for the variance and for `xhat`."""
    # BEGIN SOLUTION
    # HINT: which node would the direct and the variance paths then meet in, before they reach x?
    return 2
    # END SOLUTION


if __name__ == "__main__":
    run()
