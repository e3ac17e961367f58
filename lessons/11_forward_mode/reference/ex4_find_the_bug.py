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
    # BEGIN SOLUTION
    with fwAD.dual_level():
        jv = fwAD.unpack_dual(f(fwAD.make_dual(x, v))).tangent
    leaf = x.detach().requires_grad_()
    (jtu,) = autograd.grad(f(leaf), leaf, u)
    return float((jv * u).sum() - (v * jtu).sum())
    # END SOLUTION


def wrong_rule() -> str:
    """Which of Softplus's rules is wrong: "backward" or "jvp"."""
    # BEGIN SOLUTION
    # HINT: compare each rule with finite differences of forward(): only one disagrees.
    return "jvp"
    # END SOLUTION


def softplus_tangent(x: mg.Tensor, t: mg.Tensor) -> mg.Tensor:
    """The right forward-mode rule of softplus: the tangent of softplus(x) for the tangent t of x."""
    # BEGIN SOLUTION
    return t * x.sigmoid()
    # END SOLUTION
