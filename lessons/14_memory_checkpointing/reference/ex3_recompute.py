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
        # BEGIN SOLUTION
        # HINT: save what backward needs to run fn again; fn itself is no tensor (keep it on ctx).
        ctx.fn = fn
        ctx.save_for_backward(x, *params)
        return fn(x)
        # END SOLUTION

    @staticmethod
    def backward(ctx, grad):
        # BEGIN SOLUTION
        # HINT: x.detach().requires_grad_(x.requires_grad), then fn again under mg.enable_grad().
        x, *params = ctx.saved_tensors
        x = x.detach().requires_grad_(x.requires_grad)
        with mg.enable_grad():
            recomputed = ctx.fn(x)
        inputs = [x, *params]
        wanted = [t for t in inputs if t.requires_grad]
        found = iter(mg.autograd.grad(recomputed, wanted, grad, allow_unused=True))
        return (None, *(next(found) if t.requires_grad else None for t in inputs))
        # END SOLUTION


def budget_forward(layers, x):
    """``layers`` applied to ``x`` in segments of about sqrt(len(layers)) layers, each through Recompute."""
    # BEGIN SOLUTION
    # HINT: a segment's fn applies its layers in order; its params are those layers' parameters().
    size = max(1, round(math.sqrt(len(layers))))
    for start in range(0, len(layers), size):
        segment = layers[start : start + size]

        def run(h, segment=segment):
            for layer in segment:
                h = layer(h)
            return h

        params = [p for layer in segment for p in layer.parameters()]
        x = Recompute.apply(run, x, *params)
    return x
    # END SOLUTION
