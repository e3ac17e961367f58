"""cross_entropy's softmax node: probabilities its forward already computed, as a differentiable op."""

from __future__ import annotations

import weakref

from ..._state import extras, grad
from ...ops.declare import rules_saving
from ...tensor import Tensor, make


@rules_saving(("out_ref", "axis"))
def softmax_node(x: Tensor, probs, axis: int) -> Tensor:
    """Wrap ``probs`` = softmax(x) along ``axis`` (already computed) as a differentiable node of ``x``.

    cross_entropy's backward builds it from the probabilities its forward computed,
    so the plain backward pass does no extra work while create_graph still gets a
    real softmax to differentiate.
    """
    if not (grad.enabled or extras.on):  # no graph, no tangents: the rules are not kept
        return make(probs, (x,), None, "softmax")

    def backward(g):
        y = out_ref()
        return (y * (g - (g * y).sum(dim=axis, keepdim=True)),)

    def jvp(t):
        y = x.softmax(axis)
        return y * (t - (t * y).sum(dim=axis, keepdim=True))

    out = make(probs, (x,), backward, "softmax", jvp)
    out_ref = weakref.ref(out)
    return out
