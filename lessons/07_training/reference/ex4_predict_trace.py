"""Exercise 7.4 — predict what happens when you forget zero_grad().

The check records this function (it is in checks.py, exactly as written here):

    def forgotten_zero_grad():
        w = mg.tensor(2.0, requires_grad=True, name="w")
        optimizer = mg.optim.SGD([w], lr=0.1)
        for _ in range(2):
            loss = (w * 3.0 - 1.0) ** 2
            loss.backward()          # no optimizer.zero_grad() before it!
            optimizer.step()
        return w

Work it out by hand, then run `minigrad lesson check 7`.
"""


def predict_w_grad_after_each_pass() -> list:
    """`w.grad` right after the first and after the second backward pass (the `after` value of the
    `grad_accumulated` event into w): two floats."""
    # BEGIN SOLUTION
    # HINT: d loss / dw = 6 (3w - 1); the second pass adds to what the first left behind.
    g1 = 6 * (3 * 2.0 - 1)
    w1 = 2.0 - 0.1 * g1
    g2 = 6 * (3 * w1 - 1)
    return [g1, g1 + g2]
    # END SOLUTION


def predict_final_w() -> float:
    """The value of w after the second optimizer step."""
    # BEGIN SOLUTION
    g1 = 6 * (3 * 2.0 - 1)
    w1 = 2.0 - 0.1 * g1
    g2 = 6 * (3 * w1 - 1)
    return w1 - 0.1 * (g1 + g2)
    # END SOLUTION
