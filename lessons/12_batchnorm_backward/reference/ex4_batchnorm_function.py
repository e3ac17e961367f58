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
        # BEGIN SOLUTION
        # HINT: x.mean(dim=0) and ((x - mu) ** 2).mean(dim=0); save xhat, inv_std and gamma.
        mu = x.mean(dim=0)
        xc = x - mu
        inv_std = ((xc**2).mean(dim=0) + eps) ** -0.5
        xhat = xc * inv_std
        ctx.save_for_backward(xhat, inv_std, gamma)
        return gamma * xhat + beta
        # END SOLUTION

    @staticmethod
    def backward(ctx, g):
        # BEGIN SOLUTION
        # HINT: dxhat = g * gamma; dx is the sum of exercise 12.3's three terms.
        # HINT: dgamma and dbeta sum over the batch, as in exercise 12.1.
        xhat, inv_std, gamma = ctx.saved_tensors
        dxhat = g * gamma
        dx = inv_std * (dxhat - dxhat.mean(dim=0) - xhat * (dxhat * xhat).mean(dim=0))
        return dx, (g * xhat).sum(dim=0), g.sum(dim=0), None
        # END SOLUTION


def batchnorm(x, gamma, beta, eps: float = 1e-5):
    """Apply the Function (this is how a custom op is called)."""
    return BatchNorm.apply(x, gamma, beta, eps)
