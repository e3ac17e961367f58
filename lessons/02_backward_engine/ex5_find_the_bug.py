# Exercise file generated from reference/ex5_find_the_bug.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 2.5 (debugging) — an engine that forgets to add.

`buggy_run_backward` below is an engine of another shape than exercise 2.3's loop: it
pushes each gradient down to the parents as soon as a rule returns it, following every
path from the root (no topological order). It has one planted bug, the most common one in
hand-written engines. On a graph where no node is used twice it gives the right answer; on
the lesson's demo it does not. Compare what it does with the accumulation events of
`minigrad lesson debug 2` (press `g` and type 9, the first accumulation into b; each one
shows before + contribution = after).
"""

import minigrad as mg


def buggy_run_backward(root) -> dict:
    """{id(node): gradient} for root's graph; one line is wrong."""
    grads = {}

    def push(node, g):
        grads[id(node)] = g
        if node._backward is None:
            return
        for parent, contribution in zip(node.parents, node._backward(g)):
            if contribution is not None and parent.requires_grad:
                push(parent, contribution() if callable(contribution) else contribution)

    with mg.no_grad():
        push(root, mg.ones_like(root))
    return grads


def buggy_grad_of_a() -> float:
    """What buggy_run_backward gives for a in the demo (a = 3, b = a + a, c = b * b)."""
    # HINT: follow the two contributions into b: which one survives? Then the two into a.
    raise NotImplementedError("exercise: write buggy_grad_of_a()")


def accumulate(grads: dict, node, contribution) -> None:
    """Record `contribution` in grads[id(node)] as a correct engine must (the fix for the planted line)."""
    # HINT: the first contribution to arrive starts the sum; later ones are added to it.
    raise NotImplementedError("exercise: write accumulate()")
