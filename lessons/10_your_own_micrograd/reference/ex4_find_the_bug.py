"""Exercise 10.4 — debugging: buggy_value.py gets the demo's gradients wrong. Find where, with the debugger.

    minigrad lesson debug 10 buggy

Step the pass (n moves to the next event) and compare what you see with the lesson's hand
computation: at each `closure_called` the inspector shows the rule's source, the values it
captured, the incoming gradient and what it returned for each parent. Then answer below.
"""

import math


def first_wrong_node() -> str:
    """The name of the first node (in the pass's order) that is *entered* with a wrong gradient."""
    # BEGIN SOLUTION
    # HINT: L and f are entered with the right gradients (1 and a = 2); look at the next one.
    return "e"
    # END SOLUTION


def wrong_op() -> str:
    """The op (as the debugger names it: "add", "mul", "tanh") whose rule is wrong."""
    # BEGIN SOLUTION
    return "tanh"
    # END SOLUTION


def right_gradient_of_first_wrong_node() -> float:
    """The gradient that node should have been entered with (4 digits suffice)."""
    # BEGIN SOLUTION
    # HINT: dL/de = dL/df * (1 - f**2), with f = tanh(4) the rule's *output*.
    return 0.00268190
    # END SOLUTION


def fixed_rule(x: float):
    """The rule of the op you named in wrong_op(), corrected: at input x, return (the op's output,
    rule), where rule maps the incoming gradient g to (gradient for x,), as in exercise 10.1."""
    # BEGIN SOLUTION
    t = math.tanh(x)
    return t, lambda g: (g * (1 - t * t),)
    # END SOLUTION
