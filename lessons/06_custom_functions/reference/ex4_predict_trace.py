"""Exercise 6.4 — predict the demo's trace.

Read demo.py: x = [-2, 0.5, 3], h = Swish.apply(x), a hook on h that halves its
gradient, loss = (h * h).sum(), loss.backward(), then gradcheck(Swish.apply, (x64,)).
Answer before you run anything; `minigrad lesson check 6` records the demo and
compares. Then watch it with `minigrad lesson debug 6`.
"""


def predict_contributions_into_h() -> int:
    """How many `grad_accumulated` events carry a gradient into node `h` in the first pass."""
    # BEGIN SOLUTION
    # HINT: how many edges run from the mul node to h?
    return 2
    # END SOLUTION


def predict_incoming_grad_of_h() -> list:
    """The gradient the debugger shows entering `h` (its `node_entered` event): three floats.

    Hooks run before the node is entered: the event shows what the closure will receive.
    """
    # BEGIN SOLUTION
    # HINT: d loss / d h = 2h; then the hook. swish(x) = x / (1 + e^-x).
    import math

    h = [x / (1 + math.exp(-x)) for x in (-2.0, 0.5, 3.0)]
    return [0.5 * 2 * v for v in h]
    # END SOLUTION


def predict_closure_name_at_h() -> str:
    """The closure name shown by `closure_called` when the pass reaches `h` (e.g. "mul.<locals>.backward")."""
    # BEGIN SOLUTION
    return "Swish.backward"
    # END SOLUTION


def predict_gradcheck_first_seed() -> list:
    """The gradient `gradcheck(Swish.apply, (x64,))` seeds its first grad() pass with (three floats)."""
    # BEGIN SOLUTION
    # HINT: each pass computes one vector-Jacobian product vᵀJ; which v picks out one row of J?
    return [1.0, 0.0, 0.0]
    # END SOLUTION
