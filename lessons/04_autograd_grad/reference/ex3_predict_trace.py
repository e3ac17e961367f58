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
    # BEGIN SOLUTION
    # HINT: grad() saves the .grad of every input before the pass writes anything.
    return {"a": [100.0, 100.0, 100.0], "b": None}
    # END SOLUTION


def predict_contributions_into_a() -> int:
    """How many `grad_accumulated` events carry a gradient *into* node `a` during the pass."""
    # BEGIN SOLUTION
    # HINT: count the edges from a product node to `a`; a * a has two of them.
    return 3
    # END SOLUTION


def predict_incoming_grad_of_a() -> list:
    """The complete gradient entering node `a` (its `node_entered` event), once every contribution is in."""
    # BEGIN SOLUTION
    # HINT: with several outputs, their vector-Jacobian products add up: b + 2a.
    return [7.0, 2.0, -1.0]
    # END SOLUTION


def predict_a_grad_after() -> list:
    """`a.grad` at the end of the trace, after `grads_restored`."""
    # BEGIN SOLUTION
    return [100.0, 100.0, 100.0]
    # END SOLUTION
