"""grad()'s allow_unused error after a finished pass shows in the trace as an error event."""

import pytest

import minigrad as mg
from minigrad.autograd import grad
from minigrad.trace import record


def test_unused_input_error_is_recorded_and_ends_the_pass():
    a = mg.tensor([1.0], requires_grad=True)
    b = mg.tensor([1.0], requires_grad=True)
    with record() as trace:
        with pytest.raises(RuntimeError, match="appears to not have been used"):
            grad((a * 2).sum(), (a, b))
    kinds = [e.kind for e in trace.events]
    assert kinds[-1] == "error"
    assert "grads_restored" in kinds
    state = trace.state_at(-1)
    assert tuple(state.passes) == ()
    assert "index 1 appears to not have been used" in state.error.message
