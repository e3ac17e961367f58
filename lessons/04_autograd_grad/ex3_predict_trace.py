# Exercise file generated from reference/ex3_predict_trace.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 4.3 — predict what the debugger will show for the lesson's demo.

Read demo.py (do not run it yet): `grad((out1, out2), (a, b))` with
out1 = (a * b).sum() and out2 = (a * a).sum(), while `a.grad` already holds
[100, 100, 100]. Work out on paper what the recorded pass does, write your
answers below, then check them with `minigrad lesson check 4` — the check records
the demo and compares every answer with the events. Afterwards, step through it
with `minigrad lesson debug 4` to see where you were right.

Gradients are lists of floats; "no value" is None.
"""


def predict_saved() -> dict:
    """The `grads_saved` event: for each input name ("a", "b"), the `.grad` it stashes (a list, or None)."""
    # HINT: grad() saves the .grad of every input before the pass writes anything.
    raise NotImplementedError("exercise: write predict_saved()")


def predict_contributions_into_a() -> int:
    """How many `grad_accumulated` events carry a gradient *into* node `a` during the pass."""
    # HINT: count the edges from a product node to `a`; a * a has two of them.
    raise NotImplementedError("exercise: write predict_contributions_into_a()")


def predict_incoming_grad_of_a() -> list:
    """The complete gradient entering node `a` (its `node_entered` event), once every contribution is in."""
    # HINT: with several outputs, their vector-Jacobian products add up: b + 2a.
    raise NotImplementedError("exercise: write predict_incoming_grad_of_a()")


def predict_a_grad_after() -> list:
    """`a.grad` at the end of the trace, after `grads_restored`."""
    raise NotImplementedError("exercise: write predict_a_grad_after()")
