# Exercise file generated from reference/ex4_find_the_bug.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 10.4 — debugging: buggy_value.py gets the demo's gradients wrong. Find where, with the debugger.

    minigrad lesson debug 10 buggy

Step the pass (n moves to the next event) and compare what you see with the lesson's hand
computation: at each `closure_called` the inspector shows the rule's source, the values it
captured, the incoming gradient and what it returned for each parent. Then answer below.
"""

import math


def first_wrong_node() -> str:
    """The name of the first node (in the pass's order) that is *entered* with a wrong gradient."""
    # HINT: L and f are entered with the right gradients (1 and a = 2); look at the next one.
    raise NotImplementedError("exercise: write first_wrong_node()")


def wrong_op() -> str:
    """The op (as the debugger names it: "add", "mul", "tanh") whose rule is wrong."""
    raise NotImplementedError("exercise: write wrong_op()")


def right_gradient_of_first_wrong_node() -> float:
    """The gradient that node should have been entered with (4 digits suffice)."""
    # HINT: dL/de = dL/df * (1 - f**2), with f = tanh(4) the rule's *output*.
    raise NotImplementedError("exercise: write right_gradient_of_first_wrong_node()")


def fixed_rule(x: float):
    """The rule of the op you named in wrong_op(), corrected: at input x, return (the op's output,
    rule), where rule maps the incoming gradient g to (gradient for x,), as in exercise 10.1."""
    raise NotImplementedError("exercise: write fixed_rule()")
