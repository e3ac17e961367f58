# Exercise file generated from reference/ex4_find_the_bug.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 11.4 — find the planted bug with the identity that ties the two modes together.

For any function f, point x, direction v and cotangent u, forward and reverse mode describe the
same Jacobian J, so <J v, u> == <v, Jᵀ u>. ``buggy_softplus.py`` (beside this file) holds a custom
Function whose two rules disagree. Write the check, use it (and the debugger, on the demo of the
text) to find which rule is wrong, and write the right one.
"""

import minigrad as mg
from minigrad import autograd
from minigrad.autograd import forward_ad as fwAD


def identity_gap(f, x: mg.Tensor, v: mg.Tensor, u: mg.Tensor) -> float:
    """<J v, u> - <v, Jᵀ u> for f at x: J v by forward mode, Jᵀ u by reverse mode (0 when the rules agree)."""
    raise NotImplementedError("exercise: write identity_gap()")


def wrong_rule() -> str:
    """Which of Softplus's rules is wrong: "backward" or "jvp"."""
    # HINT: compare each rule with finite differences of forward(): only one disagrees.
    raise NotImplementedError("exercise: write wrong_rule()")


def softplus_tangent(x: mg.Tensor, t: mg.Tensor) -> mg.Tensor:
    """The right forward-mode rule of softplus: the tangent of softplus(x) for the tangent t of x."""
    raise NotImplementedError("exercise: write softplus_tangent()")
