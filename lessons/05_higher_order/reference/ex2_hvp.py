"""Exercise 5.2 — Hessian-vector product by double backward.

`f` maps a tensor `x` to a scalar tensor. Return H(x) @ v, where H is the Hessian of
`f` at `x`, as a tensor with x's shape — without building H. Use
`minigrad.autograd.grad` twice. The check passes an `x` that requires grad (a leaf)
and a `v` that does not.
"""

from minigrad.autograd import grad


def hvp(f, x, v):
    """The Hessian of f at x times v."""
    # BEGIN SOLUTION
    # HINT: the first grad needs create_graph=True; then differentiate (g * v).sum().
    (g,) = grad(f(x), x, create_graph=True)
    (hv,) = grad((g * v).sum(), x)
    return hv
    # END SOLUTION
