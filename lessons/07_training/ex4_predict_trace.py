# Exercise file generated from reference/ex4_predict_trace.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
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
    # HINT: d loss / dw = 6 (3w - 1); the second pass adds to what the first left behind.
    raise NotImplementedError("exercise: write predict_w_grad_after_each_pass()")


def predict_final_w() -> float:
    """The value of w after the second optimizer step."""
    raise NotImplementedError("exercise: write predict_final_w()")
