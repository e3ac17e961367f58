# Exercise file generated from reference/ex4_predict_trace.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 6.4 — predict the demo's trace.

Read demo.py: x = [-2, 0.5, 3], h = Swish.apply(x), a hook on h that halves its
gradient, loss = (h * h).sum(), loss.backward(), then gradcheck(Swish.apply, (x64,)).
Answer before you run anything; `minigrad lesson check 6` records the demo and
compares. Then watch it with `minigrad lesson debug 6`.
"""


def predict_contributions_into_h() -> int:
    """How many `grad_accumulated` events carry a gradient into node `h` in the first pass."""
    # HINT: how many edges run from the mul node to h?
    raise NotImplementedError("exercise: write predict_contributions_into_h()")


def predict_incoming_grad_of_h() -> list:
    """The gradient the debugger shows entering `h` (its `node_entered` event): three floats.

    Hooks run before the node is entered: the event shows what the closure will receive.
    """
    # HINT: d loss / d h = 2h; then the hook. swish(x) = x / (1 + e^-x).
    raise NotImplementedError("exercise: write predict_incoming_grad_of_h()")


def predict_closure_name_at_h() -> str:
    """The closure name shown by `closure_called` when the pass reaches `h` (e.g. "mul.<locals>.backward")."""
    raise NotImplementedError("exercise: write predict_closure_name_at_h()")


def predict_gradcheck_first_seed() -> list:
    """The gradient `gradcheck(Swish.apply, (x64,))` seeds its first grad() pass with (three floats)."""
    # HINT: each pass computes one vector-Jacobian product vᵀJ; which v picks out one row of J?
    raise NotImplementedError("exercise: write predict_gradcheck_first_seed()")
