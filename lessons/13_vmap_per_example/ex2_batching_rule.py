# Exercise file generated from reference/ex2_batching_rule.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Implementation — a batching rule: the vmap staticmethod of a custom Function.

``LogSumExp`` computes log(sum(exp(z))) of one vector z, stably: it subtracts the largest entry m
first, so exp never overflows, and adds it back. Its forward is written for one vector. Called
inside ``vmap``, minigrad hands its ``vmap`` staticmethod the whole batch at once: ``z`` holds every
example's vector as the rows of one tensor (the batch dim first, ``in_dims == (0,)``), and the rule
returns every example's result and where their batch dim is (``out_dims``). Write it with ops on the
whole batch, no loop over the rows.

The check compares your rule with a row-by-row loop, on rows of very different sizes, and runs
per-example gradients of a softmax-regression loss through it (``vmap(grad(loss))``).
"""

from minigrad.autograd import Function


class LogSumExp(Function):
    """log(sum(exp(z))) of a vector z, stable for large entries; batched by its own vmap rule."""

    @staticmethod
    def forward(z):
        m = z.amax()
        return m + (z - m).exp().sum().log()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)

    @staticmethod
    def backward(ctx, g):
        z, out = ctx.saved_tensors
        return g * (z - out).exp()  # softmax(z)

    @staticmethod
    def vmap(info, in_dims, z):
        """``z``: the batch's vectors as rows (batch dim 0). Returns ``(each row's result, out_dims)``."""
        # HINT: every reduction of forward() becomes a reduction over the entry's dim, which is dim 1 here.
        raise NotImplementedError("exercise: write vmap()")
