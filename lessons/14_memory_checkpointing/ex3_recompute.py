# Exercise file generated from reference/ex3_recompute.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Implementation — a checkpoint of your own, and a network within a memory budget.

``Recompute.apply(fn, x, *params)`` returns ``fn(x)`` but keeps only ``x`` and ``params`` for backward:
its forward runs ``fn`` with grad off (``apply`` does that for you), so none of the segment's
activations are kept. Its backward runs ``fn`` again, with grad on, from a copy of ``x`` cut from the
graph, and differentiates that fresh graph with ``minigrad.autograd.grad``: a nested pass. It returns
one gradient per forward argument: None for ``fn``, then ``x``'s, then each parameter's (None for one
that does not require grad). ``params`` are the tensors ``fn`` uses (its weights): passing them makes
them the node's parents, so their gradients flow.

Then ``budget_forward(layers, x)``: the output of ``layers`` (a list of modules, applied in order) with
the layers grouped into segments of ``round(sqrt(len(layers)))`` and each segment run through
``Recompute``, so that the peak of saved activations is at most half of the plain network's.
"""

import math

import minigrad as mg
from minigrad.autograd import Function


class Recompute(Function):
    @staticmethod
    def forward(ctx, fn, x, *params):
        # HINT: save what backward needs to run fn again; fn itself is no tensor (keep it on ctx).
        raise NotImplementedError("exercise: write forward()")

    @staticmethod
    def backward(ctx, grad):
        # HINT: x.detach().requires_grad_(x.requires_grad), then fn again under mg.enable_grad().
        raise NotImplementedError("exercise: write backward()")


def budget_forward(layers, x):
    """``layers`` applied to ``x`` in segments of about sqrt(len(layers)) layers, each through Recompute."""
    # HINT: a segment's fn applies its layers in order; its params are those layers' parameters().
    raise NotImplementedError("exercise: write budget_forward()")
