# Exercise file generated from reference/ex3_predict_trace.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 10.3 — predict what the debugger will show for the demo on the reference engine.

The demo builds L = tanh(a * b + c) * a with a = 2, b = -3, c = 10 (d = a * b, e = d + c,
f = tanh(e), L = f * a) and calls L.backward(). The reference engine orders the nodes by a
depth-first walk that visits each node's parents in the order the op received them, so its
topological order is a, b, d, c, e, f, L, and the pass walks it backwards.

Work the answers out on paper, then check them (`minigrad lesson check 10` records the demo with
the reference engine and compares each answer with the events), then step through it
(`minigrad lesson debug 10 reference`) to see where you were right. Numbers to 4 digits suffice.
"""


def predict_third_entered() -> str:
    """The name of the node whose `node_entered` event comes third in the pass."""
    raise NotImplementedError("exercise: write predict_third_entered()")


def predict_contributions_into_a() -> int:
    """How many `grad_accumulated` events carry a gradient into `a`."""
    # HINT: count the edges that leave a: a is a parent of two nodes.
    raise NotImplementedError("exercise: write predict_contributions_into_a()")


def predict_before_second_into_a() -> float:
    """The `before` of the second accumulation into `a`: a.grad when the second contribution arrives."""
    # HINT: the first contribution comes from L = f * a, and it is f.
    raise NotImplementedError("exercise: write predict_before_second_into_a()")


def predict_a_grad() -> float:
    """The complete gradient entering `a` (its `node_entered` event)."""
    # HINT: f + (dL/dd) * b, with dL/dd = a * (1 - f**2).
    raise NotImplementedError("exercise: write predict_a_grad()")
