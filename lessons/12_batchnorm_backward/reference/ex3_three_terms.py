"""Exercise 12.3 — the three paths into x, one formula each.

For a batch x of shape (N, D), batch norm normalises each column (dim 0): mu and var are the
column's mean and biased variance, inv_std = (var + eps) ** -0.5, xhat = (x - mu) * inv_std.
Given the gradient `dxhat` arriving at xhat, the demo's pass sends three contributions into x:

    through xc (the direct path):          dxhat * inv_std
    through dev, sq, var and inv_std:      the variance path
    through mu:                            the mean path

Write each as a formula of xhat, inv_std and dxhat, with Tensor ops: the check builds the demo's
graph on random batches, records its pass, and compares your terms with the three
`grad_accumulated` events into x. Shapes: xhat and dxhat (N, D), inv_std (D,); a term is (N, D),
or (D,) where every row of it is the same.
"""


def direct_term(xhat, inv_std, dxhat):
    """The contribution into x from `xc`."""
    # BEGIN SOLUTION
    # HINT: xhat = xc * inv_std: mul's rule sends g * inv_std to xc, and sub passes it on unchanged.
    return dxhat * inv_std
    # END SOLUTION


def variance_term(xhat, inv_std, dxhat):
    """The contribution into x from `dev` (through the variance)."""
    # BEGIN SOLUTION
    # HINT: dvar = sum(dxhat * xc) * -0.5 * inv_std**3; each sq entry gets dvar / N; pow's rule: * 2 * dev.
    # HINT: write xc and dev as xhat / inv_std; the inv_std factors collect into one.
    return -xhat * (dxhat * xhat).mean(dim=0) * inv_std
    # END SOLUTION


def mean_term(xhat, inv_std, dxhat):
    """The contribution into x from `mu`."""
    # BEGIN SOLUTION
    # HINT: mu receives -sum(what reaches xc) and -sum(what reaches dev); the second is zero. Why?
    return -dxhat.mean(dim=0) * inv_std
    # END SOLUTION
