"""Anomaly mode: NaN/Inf from a closure names the node, op and the user's forward line."""

import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad._tensor_state import creation_stack
from minigrad.autograd import Function, detect_anomaly, grad, is_anomaly_enabled, set_detect_anomaly

pytestmark = [
    pytest.mark.filterwarnings("ignore:Anomaly Detection has been enabled"),
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),  # NumPy's own divide-by-zero warnings
]


def test_nan_from_a_closure_names_node_op_and_forward_line():
    x = mg.tensor([0.0, 1.0], requires_grad=True)
    with detect_anomaly():
        root = x.sqrt()  # the forward line under suspicion
        y = (root * 0).sum()
        with pytest.raises(RuntimeError) as info:
            y.backward()
    msg = str(info.value)
    assert "Function 'SqrtBackward' returned nan values in its 0th output" in msg
    assert "op sqrt" in msg
    assert "Traceback of forward call that caused the error" in msg
    assert "root = x.sqrt()  # the forward line under suspicion" in msg
    assert "test_anomaly.py" in msg


def test_inf_is_reported_in_grad_too_and_grad_is_restored():
    class Blows(Function):
        @staticmethod
        def forward(ctx, t):
            return t * 1

        @staticmethod
        def backward(ctx, g):
            return g / 0

    x = mg.tensor([1.0], requires_grad=True)
    x.grad = mg.tensor([4.0])
    with detect_anomaly():
        y = Blows.apply(x).sum()
        with pytest.raises(RuntimeError, match="Function 'BlowsBackward' returned inf values in its 0th output"):
            grad(y, x)
    assert x.grad.tolist() == [4.0]


def test_without_anomaly_mode_nan_passes_silently():
    x = mg.tensor([0.0], requires_grad=True)
    (x.sqrt() * 0).sum().backward()
    assert np.isnan(x.grad.numpy()).all()


def test_check_nan_false_records_but_does_not_check():
    x = mg.tensor([0.0], requires_grad=True)
    with detect_anomaly(check_nan=False):
        y = (x.sqrt() * 0).sum()
        y.backward()
    assert creation_stack(y)


def test_other_errors_get_the_forward_trace_as_a_note():
    class Fails(Function):
        @staticmethod
        def forward(ctx, t):
            return t * 1

        @staticmethod
        def backward(ctx, g):
            raise ValueError("backward bug")

    x = mg.tensor([1.0], requires_grad=True)
    with detect_anomaly():
        out = Fails.apply(x)  # made here
        with pytest.raises(ValueError, match="backward bug") as info:
            out.sum().backward()
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert "Error detected in FailsBackward" in notes
    assert "out = Fails.apply(x)  # made here" in notes


def test_modes_switch_and_restore():
    assert not is_anomaly_enabled()
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        with detect_anomaly():
            assert is_anomaly_enabled()
    assert not is_anomaly_enabled()

    @detect_anomaly()
    def inside():
        return is_anomaly_enabled()

    assert inside() and not is_anomaly_enabled()
    with set_detect_anomaly(True):
        assert is_anomaly_enabled()
        with set_detect_anomaly(False):
            assert not is_anomaly_enabled()
        assert is_anomaly_enabled()
    assert not is_anomaly_enabled()
    set_detect_anomaly(True)
    try:
        assert is_anomaly_enabled()
    finally:
        set_detect_anomaly(False)


def test_no_creation_stack_outside_anomaly_mode():
    x = mg.tensor([1.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = x * 2
    assert creation_stack(y) is None
