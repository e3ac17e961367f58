# Exercise file generated from reference/ex5_stale_gradient.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 8.5 (debugging) — a weight changed in place between forward and backward.

`buggy_step` below builds a loss, then "updates" the weight in place under
`no_grad()` before calling `backward()`. Part 3 of the lesson's demo does the same.
Step it in the debugger (`minigrad lesson debug 8`, then `g`, `p3`, Enter, and `/`, `scaled`, Enter to
run to the mul node) or read the lesson's transcript, then answer and fix.
"""

import minigrad as mg


def buggy_step(w, u, lr=0.1):
    """One step of gradient descent on loss = sum(w * u), with a planted bug."""
    loss = (w * u).sum()
    with mg.no_grad():
        w.mul_(10)
    loss.backward()
    return loss


def tensor_the_rule_needs() -> str:
    """Which of "w" and "u" must be unchanged for mul's rule to give the right gradient for `u`?"""
    # HINT: d(w * u)/du = w.
    raise NotImplementedError("exercise: write tensor_the_rule_needs()")


def stale_grad_of_u() -> list:
    """With w = [1, 2], u = [3, 4]: the u.grad an engine WITHOUT version counters computes."""
    # HINT: the rule reads w when the pass runs, not when the forward ran.
    raise NotImplementedError("exercise: write stale_grad_of_u()")


def fixed_step(w, u, lr=0.1):
    """Compute loss = sum(w * u), backward, THEN update w in place: w <- w - lr * w.grad.
    Return the loss. Afterwards w.grad and u.grad must be the gradients at the original w."""
    # HINT: nothing may change a saved tensor until the pass that needs it has run.
    raise NotImplementedError("exercise: write fixed_step()")
