# Exercise file generated from reference/ex4_predict_trace.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 3.4 — predict what the debugger will show for the lesson's demo.

Read demo.py: x = [[1, 2, 3], [4, 5, 6]], b = [0.5, -1, 2], W = [[1, -1], [2, 0], [0.5, 3]],
h = x + b, y = h @ W, loss = y.sum(). Work the answers out on paper, then check them
with `minigrad lesson check 3`: the check records the demo and compares each answer
with its events. Then open `minigrad lesson debug 3` and find each number on screen.

Arrays are nested lists of floats.
"""


def predict_grad_entering_h() -> list:
    """The complete gradient entering `h` (its `node_entered` event): dL/dh, shape (2, 3)."""
    # HINT: dL/dh = G @ W.T with G = dL/dy, a (2, 2) array of ones.
    # HINT: each row of G @ W.T is the row sums of W: [1 - 1, 2 + 0, 0.5 + 3].
    raise NotImplementedError("exercise: write predict_grad_entering_h()")


def predict_reduction_of_b() -> dict:
    """The `grad_reduced` event into `b`: {"from": shape, "to": shape, "dims": summed dims, "reduced": values}."""
    # HINT: the add rule hands b the whole (2, 3) gradient; b has shape (3,).
    raise NotImplementedError("exercise: write predict_reduction_of_b()")


def predict_W_grad() -> list:
    """`W.grad` after the pass: dL/dW, shape (3, 2)."""
    # HINT: dL/dW = h.T @ G; with G all ones, each row is the column sum of h, repeated.
    raise NotImplementedError("exercise: write predict_W_grad()")
