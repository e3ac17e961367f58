"""Stepper driven from the test thread while the script runs in the Stepper's worker thread."""

import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import minigrad as mg
from minigrad import _events
from minigrad.trace import Breakpoint, Stepper, StepperStopped

pytestmark = [pytest.mark.timeout(60), pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")]
T = 10  # seconds any wait may take before the test fails instead of hanging

SCRIPT = """\
import sys
import minigrad as mg
print("args:", sys.argv[1:])
x = mg.tensor([1.0, -2.0, 3.0], requires_grad=True)
loss = (x * x).sum()
loss.backward()
print("grad:", x.grad.tolist())
"""


def _script(tmp_path, text, name="script.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


@pytest.fixture(autouse=True)
def _no_leftover_listeners():
    yield
    assert _events.listeners == []


def _run(stepper):
    stepper.start()
    assert stepper.wait(T) != "running"
    return stepper


def test_step_through_every_event_in_order(tmp_path):
    s = _run(Stepper(_script(tmp_path, SCRIPT), ["--flag", "7"]))
    seen = []
    while s.status == "paused":
        assert s.trace.events[s.paused_at.seq] is s.paused_at
        seen.append(s.paused_at.seq)
        s.step()
        s.wait(T)
    assert s.status == "finished" and s.exception is None
    kinds = [e.kind for e in s.trace.events]
    paused_kinds = [s.trace.events[i].kind for i in seen]
    assert seen == sorted(seen)
    assert paused_kinds == [k for k in kinds if k != "node_named"]
    assert s.output.text() == "args: ['--flag', '7']\ngrad: [2.0, -4.0, 6.0]\n"
    assert s.trace.meta["argv"] == ["--flag", "7"]


def test_step_node_and_finish_node(tmp_path):
    s = _run(Stepper(_script(tmp_path, SCRIPT)))
    entered = []
    s.step_node()
    while s.wait(T) == "paused":
        ev = s.paused_at
        if ev.kind == "node_entered":
            entered.append(s.trace.nodes[ev.node].label)
            s.finish_node()
            assert s.wait(T) == "paused"
            assert s.paused_at.kind == "node_finished" and s.paused_at.node == ev.node
        else:
            assert ev.kind == "pass_finished"
        s.step_node()
    assert entered == ["loss", f"mul#{s.trace.node('x').id + 1}", "x"]
    assert s.status == "finished"


def test_breakpoints_node_op_pass_kind_and_run_to(tmp_path):
    text = """\
    import minigrad as mg
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([3.0, 4.0], requires_grad=True)
    h = (a * b).tanh()
    loss = h.sum()
    (ga,) = mg.autograd.grad(loss, a, retain_graph=True)
    loss.backward()
    """
    s = Stepper(_script(tmp_path, text), start_paused=False, breakpoints=[Breakpoint(pass_kind="backward")])
    s.add_breakpoint(op="tanh")
    by_name = s.add_breakpoint(node="b")
    _run(s)
    hits = []
    while s.status == "paused":
        ev = s.paused_at
        hits.append((ev.kind, ev.pass_id, s.trace.nodes[ev.node].label if ev.node_id else None, s.hit))
        s.continue_()
        s.wait(T)
    grad_pass, backward_pass = (e.pass_id for e in s.trace.find("pass_started"))
    assert [h[:3] for h in hits] == [
        ("node_entered", grad_pass, "h"),
        ("pass_started", backward_pass, None),
        ("node_entered", backward_pass, "h"),
        ("node_entered", backward_pass, "b"),
    ]
    assert hits[-1][3] == by_name
    s2 = Stepper(_script(tmp_path, text))
    _run(s2)
    s2.run_to("a")
    assert s2.wait(T) == "paused"
    assert s2.paused_at.kind == "node_entered" and s2.trace.nodes[s2.paused_at.node].name == "a"
    assert s2.paused_at.pass_id == s2.trace.find("pass_started")[0].pass_id
    s2.remove_breakpoint(Breakpoint(op="nothing"))
    s2.continue_()
    assert s2.wait(T) == "finished"


def test_nonfinite_gradient_breakpoint(tmp_path):
    text = """\
    import minigrad as mg
    x = mg.tensor([0.0, 4.0], requires_grad=True)
    y = x.sqrt().sum()
    y.backward()
    """
    s = _run(Stepper(_script(tmp_path, text), start_paused=False, breakpoints=[Breakpoint(nonfinite=True)]))
    assert s.status == "paused"
    ev = s.paused_at
    assert ev.kind == "closure_called" and s.trace.nodes[ev.node].op == "sqrt"
    assert np.isinf(ev.outputs[0].array()[0])
    s.continue_()  # where the inf flows on (its accumulation into x.grad) is no new stop
    assert s.wait(T) == "finished"


def test_breakpoint_needs_exactly_one_criterion():
    with pytest.raises(ValueError, match="exactly one"):
        Breakpoint()
    with pytest.raises(ValueError, match="exactly one"):
        Breakpoint(node="x", op="mul")
    with pytest.raises(ValueError, match="pass_kind must be"):
        Breakpoint(pass_kind="forward")


def test_stop_while_paused_inside_grad_restores_and_ends_cleanly(tmp_path):
    text = """\
    import minigrad as mg
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    a.grad = mg.tensor([5.0, 5.0])
    RESULT["a"] = a
    try:
        mg.autograd.grad((a * a).sum(), a)
    except Exception:
        RESULT["swallowed"] = True
    RESULT["after"] = True
    """
    result = {}
    path = _script(tmp_path, text)

    def target():
        import runpy

        runpy.run_path(path, init_globals={"RESULT": result})

    s = _run(Stepper(target, start_paused=False, breakpoints=[Breakpoint(op="mul")]))
    assert s.status == "paused"
    assert s.stop(T)
    assert s.status == "stopped" and isinstance(s.exception, StepperStopped)
    assert "swallowed" not in result and "after" not in result
    np.testing.assert_array_equal(result["a"].grad.array, [5.0, 5.0])
    kinds = [e.kind for e in s.trace.events]
    assert kinds[-2:] == ["error", "grads_restored"]
    assert s.trace.events[-2].error_type == "StepperStopped"


def test_stop_a_script_busy_without_events():
    started = threading.Event()

    def spin():
        started.set()
        while True:
            pass

    s = Stepper(spin).start()
    assert started.wait(T)
    assert s.stop(T)  # returns False if the stop did not take within T (a deadlock)
    assert s.status == "stopped"


def test_script_that_raises(tmp_path):
    text = """\
    import minigrad as mg
    x = mg.tensor([1.0], requires_grad=True)
    print("before")
    raise ValueError("bad input 42")
    """
    s = Stepper(_script(tmp_path, text), start_paused=False)
    _run(s)
    assert s.status == "failed"
    assert isinstance(s.exception, ValueError)
    assert s.output.text("stdout") == "before\n"
    err = s.output.text("stderr")
    assert "Traceback" in err and "ValueError: bad input 42" in err
    s.step()
    s.continue_()
    assert s.wait(T) == "failed"


def test_error_inside_pass_while_stepping(tmp_path):
    text = """\
    import minigrad as mg
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()
    """
    s = _run(Stepper(_script(tmp_path, text)))
    while s.status == "paused":
        s.step()
        s.wait(T)
    assert s.status == "failed"
    assert "backward through the graph a second time" in str(s.exception)
    assert s.trace.events[-1].kind == "error"


def test_continue_can_stop_at_the_error_event(tmp_path):
    text = """\
    import minigrad as mg
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()
    """
    s = _run(Stepper(_script(tmp_path, text)))
    s.continue_(stop_at_errors=True)
    assert s.wait(T) == "paused" and s.paused_at.kind == "error"
    s.continue_(stop_at_errors=True)
    assert s.wait(T) == "failed"


def test_script_that_never_calls_backward(tmp_path):
    s = _run(Stepper(_script(tmp_path, "import minigrad as mg\nt = mg.tensor([1.0, 2.0]) * 2\nprint(t)\n")))
    assert s.status == "paused" and s.paused_at.kind == "node_created"
    s.continue_()
    assert s.wait(T) == "finished"
    assert not s.trace.find("pass_started")
    s = _run(Stepper(_script(tmp_path, "print('no tensors at all')\n", "plain.py")))
    assert s.status == "finished" and s.output.text() == "no tensors at all\n"


def test_system_exit_codes(tmp_path):
    s = _run(Stepper(_script(tmp_path, "import sys\nsys.exit(0)\n")))
    assert (s.status, s.exit_code) == ("finished", 0)
    s = _run(Stepper(_script(tmp_path, "import sys\nsys.exit(3)\n", "three.py")))
    assert (s.status, s.exit_code) == ("failed", 3)


def test_pause_while_running_and_callbacks(tmp_path):
    text = """\
    import minigrad as mg
    x = mg.tensor([1.0], requires_grad=True)
    for i in range(10**8):
        if i % 1000 == 0:
            y = (x * 2).sum()
            y.backward()
    """
    paused, ended = [], []
    s = Stepper(
        _script(tmp_path, text),
        start_paused=False,
        on_pause=lambda st, ev: paused.append(ev.seq),
        on_end=lambda st: ended.append(st.status),
    )
    s.start()
    time.sleep(0.05)
    s.pause()
    assert s.wait(T) == "paused"
    assert paused == [s.paused_at.seq]
    assert s.paused_at.kind != "node_named"
    assert s.stop(T)
    assert ended == ["stopped"]


def test_output_of_other_threads_is_not_captured(tmp_path, capsys):
    gate = threading.Event()

    def target():
        print("from the script")
        gate.wait(T)

    s = Stepper(target).start()
    print("from the test thread")
    sys.stdout.flush()
    gate.set()
    assert s.wait(T) == "finished"
    assert s.output.text() == "from the script\n"
    assert "from the test thread" in capsys.readouterr().out


def test_bad_targets():
    with pytest.raises(FileNotFoundError, match="no such script"):
        Stepper("/nonexistent/script.py")
    with pytest.raises(TypeError, match="callable or a script path"):
        Stepper(42)
    s = Stepper(lambda: None).start()
    with pytest.raises(RuntimeError, match="already started"):
        s.start()
    assert s.wait(T) == "finished"


def test_stepper_does_not_record_other_threads(tmp_path):
    gate = threading.Event()

    def target():
        x = mg.tensor([1.0], requires_grad=True)
        gate.wait(T)
        (x * 3).sum().backward()

    s = Stepper(target, start_paused=False).start()
    (mg.tensor([2.0], requires_grad=True) * 5).sum().backward()
    gate.set()
    assert s.wait(T) == "finished"
    assert len(s.trace.find("pass_started")) == 1


def test_stop_from_a_pause_callback(tmp_path):
    def on_pause(stepper, ev):
        assert stepper.stop() is False

    s = _run(Stepper(_script(tmp_path, SCRIPT), on_pause=on_pause))
    assert s.join(T)
    assert s.status == "stopped" and len(s.trace) == 1


def test_commands_from_a_pause_callback_drive_the_script(tmp_path):
    kinds = []

    def on_pause(stepper, ev):
        kinds.append(ev.kind)
        stepper.step_node()

    s = _run(Stepper(_script(tmp_path, SCRIPT), on_pause=on_pause))
    assert s.join(T) and s.status == "finished"
    assert kinds == ["node_created", "node_entered", "node_entered", "node_entered", "pass_finished"]
