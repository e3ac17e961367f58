# Exercise file generated from reference/ex4_batchnorm_function.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 12.4 — batch norm as one Function, with the backward that the paths add up to.

The composed batch norm of the demo records ten nodes and ten rules. A framework's batch norm is
one node: its forward saves what the backward needs, and its backward returns the sum of the three
paths in one formula. Write it as a `minigrad.autograd.Function` for a batch x of shape (N, D),
normalising each column (dim 0) with the biased variance:

    forward(ctx, x, gamma, beta, eps)  ->  gamma * xhat + beta          (gamma, beta: shape (D,))
    backward(ctx, g)                   ->  (dx, dgamma, dbeta, None)    (None: eps is no tensor)

Write both with Tensor ops, and check the backward with gradcheck, as in lesson 6. The check runs
your Function and the reference's on the same batches and names the first step where they part;
`minigrad lesson check 12 --debug` opens the debugger there.
"""

from minigrad.autograd import Function


class BatchNorm(Function):
    """Batch normalisation over dim 0 (training mode: the batch's own statistics), one node."""

    @staticmethod
    def forward(ctx, x, gamma, beta, eps):
        # HINT: x.mean(dim=0) and ((x - mu) ** 2).mean(dim=0); save xhat, inv_std and gamma.
        raise NotImplementedError("exercise: write forward()")

    @staticmethod
    def backward(ctx, g):
        # HINT: dxhat = g * gamma; dx is the sum of exercise 12.3's three terms.
        # HINT: dgamma and dbeta sum over the batch, as in exercise 12.1.
        raise NotImplementedError("exercise: write backward()")


def batchnorm(x, gamma, beta, eps: float = 1e-5):
    """Apply the Function (this is how a custom op is called)."""
    return BatchNorm.apply(x, gamma, beta, eps)
