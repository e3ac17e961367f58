# Exercise file generated from reference/ex4_predict_trace.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 2.4 — predict what the debugger will show for the lesson's demo.

Read demo.py: a = 3, b = a + a, c = b * b, c.backward(). Work the answers out on
paper, then run `minigrad lesson check 2`: the check records the demo and compares
each answer with its events. Then step through it with `minigrad lesson debug 2`.
"""


def predict_accumulations_into_b() -> list:
    """The two `grad_accumulated` events into b's pass gradient, as [before, contribution, after] each
    (before is None when nothing had arrived yet)."""
    # HINT: mul's rule returns g * (other operand) for each operand; both operands are b = 6.
    raise NotImplementedError("exercise: write predict_accumulations_into_b()")


def predict_grad_entering_a() -> float:
    """The complete gradient entering a (its `node_entered` event)."""
    # HINT: add's rule passes b's complete gradient to each of its two edges into a.
    raise NotImplementedError("exercise: write predict_grad_entering_a()")


def predict_order_finished() -> list:
    """The names of the nodes in the order the pass finishes them (`node_finished` events)."""
    raise NotImplementedError("exercise: write predict_order_finished()")
