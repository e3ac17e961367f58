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
    # BEGIN SOLUTION
    # HINT: d(w * u)/du = w.
    return "w"
    # END SOLUTION


def stale_grad_of_u() -> list:
    """With w = [1, 2], u = [3, 4]: the u.grad an engine WITHOUT version counters computes."""
    # BEGIN SOLUTION
    # HINT: the rule reads w when the pass runs, not when the forward ran.
    return [10.0, 20.0]
    # END SOLUTION


def fixed_step(w, u, lr=0.1):
    """Compute loss = sum(w * u), backward, THEN update w in place: w <- w - lr * w.grad.
    Return the loss. Afterwards w.grad and u.grad must be the gradients at the original w."""
    # BEGIN SOLUTION
    # HINT: nothing may change a saved tensor until the pass that needs it has run.
    loss = (w * u).sum()
    loss.backward()
    with mg.no_grad():
        w.sub_(lr * w.grad)
    return loss
    # END SOLUTION
