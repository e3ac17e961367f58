# Exercise file generated from reference/ex3_predict_trace.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 1.3 — predict what the debugger will show for the lesson's demo.

Read demo.py: a = 2, b = -3, c = 6.5, d = a * b, e = d + c, f = tanh(e), f.backward().
Work the answers out on paper, then run `minigrad lesson check 1`: the check records
the demo and compares each answer with its events. Then step through it with
`minigrad lesson debug 1` and find each one on screen.
"""


def predict_order_entered() -> list:
    """The names of the nodes the pass enters (its `node_entered` events), in order."""
    # HINT: the pass enters the nodes newest first: the reverse of the order the demo made them.
    # HINT: e's closure sends gradients to d and to c; the leaves a, b, c were made before d.
    raise NotImplementedError("exercise: write predict_order_entered()")


def predict_grad_entering_d() -> float:
    """The gradient entering node d (df/dd), to 4 decimals."""
    # HINT: df/dd = df/de * de/dd, and de/dd = 1.
    raise NotImplementedError("exercise: write predict_grad_entering_d()")


def predict_leaf_accumulations() -> int:
    """How many `grad_accumulated` events write into a leaf's `.grad` (not into a pass gradient)."""
    raise NotImplementedError("exercise: write predict_leaf_accumulations()")
