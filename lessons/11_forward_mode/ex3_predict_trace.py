# Exercise file generated from reference/ex3_predict_trace.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 11.3 — predict what the debugger shows for the demo, then check.

The demo's forward-mode part runs h = x * x, t = tanh(h), y = sum(t) inside one dual level, with
x = [0.5, -1.0] carrying v = [1.0, 0.5], and then reads y's tangent with unpack_dual. Then it
computes Jacobians of functions with 2 outputs and 64 inputs, and with 64 outputs and 2 inputs.
Answer from the text and your own reasoning; `minigrad lesson check 11` compares each answer with
the recorded demo; `minigrad lesson debug 11` shows you the steps.
"""


def predict_tangent_events_before_unpack() -> int:
    """How many tangent_computed events the forward-mode part records before unpack_dual."""
    # HINT: one per op that receives a tangent; make_dual sets x's tangent without computing one.
    raise NotImplementedError("exercise: write predict_tangent_events_before_unpack()")


def predict_parents_tangents_of_mul() -> list:
    """The tangents the mul step shows for its two parents (both are x): a list of two lists."""
    raise NotImplementedError("exercise: write predict_parents_tangents_of_mul()")


def predict_backward_passes_of_jacrev_on_the_tall_function() -> int:
    """How many backward passes ``jacrev(f, chunk_size=1)`` (one VJP at a time) runs for the Jacobian of the
    function with 64 outputs and 2 inputs."""
    # HINT: reverse mode gives one row of the Jacobian per backward pass.
    raise NotImplementedError("exercise: write predict_backward_passes_of_jacrev_on_the_tall_function()")


def predict_backward_passes_of_jacfwd() -> int:
    """How many backward passes jacfwd runs (on either function)."""
    raise NotImplementedError("exercise: write predict_backward_passes_of_jacfwd()")
