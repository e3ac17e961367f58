"""Graph labels: a small tensor's values when they fit the label, else its shape (never a summary that
starts with its dtype, which the graph pane would cut to ``float3…``)."""

import numpy as np

from minigrad.trace import snapshot
from minigrad.trace.state import NodeState
from minigrad.trace.status import NodeStatus
from minigrad_tui.labels import short_value


def _state(data, grad=None):
    g = None if grad is None else snapshot(np.asarray(grad))
    return NodeState(id=0, data=snapshot(np.asarray(data)), grad=g, pass_grad=None, status=NodeStatus.DONE, freed=False)


def test_small_values_that_fit_are_shown():
    assert short_value(_state([2.0, -1.0, 0.5], [1.0, 1.0, 1.0])) == "[2, -1, 0.5] g=[1, 1, 1]"


def test_small_values_too_long_for_a_label_give_the_shape():
    tanh_out = np.float32([0.9999877, -0.9993293, -0.7616])  # the built-in example's d
    assert short_value(_state(tanh_out, [1.0, 1.0, 1.0])) == "(3,) g=[1, 1, 1]"
    assert short_value(_state([1.0], tanh_out)) == "[1] |g|=1.6"
    assert short_value(_state(np.zeros((64, 10)))) == "(64, 10)"
