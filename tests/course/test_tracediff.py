"""Feedback by trace: a check of an exercise that builds an engine, a rule or a Function names the
first event where the learner's run parts from the reference's, and `lesson check --debug` opens
the debugger there."""

import asyncio
import shutil
import tempfile
from pathlib import Path

import pytest

from minigrad.cli import lesson as lesson_cli
from minigrad.cli import main
from minigrad.course import find_lesson, run_checks
from minigrad.course.tracediff import TraceDivergence, first_divergence, record_run
from minigrad.trace import Trace, emit


def planted(tmp_path, number: int, stem: str, old: str, new: str):
    """The checks of lesson ``number`` on its reference solutions, with ``old`` replaced by ``new`` in ``stem``."""
    lesson = find_lesson(number)
    for ref in lesson.references:
        shutil.copy(ref, tmp_path / ref.name)
    path = tmp_path / f"{stem}.py"
    source = path.read_text()
    assert old in source, old
    path.write_text(source.replace(old, new))
    return [r for r in run_checks(lesson, exercise_dir=tmp_path) if r.exercise == stem and not r.passed]


# (lesson, exercise, the planted wrong answer (old, new), the first difference the check reports)
PLANTED = [
    (
        1,
        "ex4_find_the_bug",
        ("    return g * (1 - y * y)\n", "    return g * (1 - x * x)\n"),
        "your rule for MyTanh returned 6 for `x`; the reference returns -0.1413",
    ),
    (
        2,
        "ex3_run_backward",
        (
            "grads[id(parent)] = contribution if id(parent) not in grads else grads[id(parent)] + contribution",
            "grads[id(parent)] = contribution",
        ),
        "your run enters `b` with gradient [3, -4]; the reference enters it with gradient [6, -8]",
    ),
    (
        2,
        "ex5_find_the_bug",
        (
            "grads[key] = contribution if key not in grads else grads[key] + contribution",
            "grads[key] = contribution",
        ),
        "your accumulation into `b` replaced 6 with 6 — before + contribution should be 12",
    ),
    (
        4,
        "ex2_save_restore",
        ("    for t in inputs:\n        t.grad = None\n    try:", "    try:"),
        "`a.grad` held [1, 1, 1] before your run's accumulation into it; in the reference's run it held None",
    ),
    (
        4,
        "ex4_find_the_bug",
        ("    for t in inputs:\n        t.grad = None\n    # END", "    pass\n    # END"),
        "`a.grad` held [100, 100, 100] before your run's accumulation into it; in the reference's run it held None",
    ),
    (
        3,
        "ex5_find_the_bug",
        ("    return g.sum(0)\n", "    return g.sum(1)\n"),
        "your rule for BiasAdd returned [0.8446, -2.979, -1.831] for `b`; the reference returns [-3.32, 1.028, -1.674]",
    ),
    (
        6,
        "ex1_square",
        ("return g * 2 * x", "return g * x"),
        "your rule for Square returned [-1.5, 0, 2] for `x`; the reference returns [-3, 0, 4]",
    ),
    (
        6,
        "ex2_softplus",
        ("return g * x.sigmoid()", "return g * (x - 0.1).sigmoid()"),
        "your rule for Softplus returned [8.467e-14, 0.475, 1] for `x`; the reference returns [9.358e-14, 0.5, 1]",
    ),
    (
        6,
        "ex5_find_the_bug",
        ("return g * 3 * x * x\n", "return g * 3 * x\n"),
        "your rule for Cube returned [3, 6, -9] for `x`; the reference returns [3, 12, 27]",
    ),
    (
        10,
        "ex2_value",
        (
            'return Value(t, (self,), "tanh", lambda g: (g * (1 - t * t),))',
            'return Value(t, (self,), "tanh", lambda g: (g * (1 - self.data**2),))',
        ),
        "your rule for tanh returned 0.9639 for `add#",
    ),
    (
        11,
        "ex4_find_the_bug",
        ("    return t * x.sigmoid()\n", "    return t * (-x).sigmoid()\n"),
        "your forward rule for Softplus returned the tangent [0.8808, -0.25, 0.3649]; "
        "the reference returns [0.1192, -0.25, 1.635]",
    ),
    (
        12,
        "ex4_batchnorm_function",
        (
            "dx = inv_std * (dxhat - dxhat.mean(dim=0) - xhat * (dxhat * xhat).mean(dim=0))",
            "dx = inv_std * (dxhat - xhat * (dxhat * xhat).mean(dim=0))",
        ),
        "your rule for BatchNorm returned [[-0.2793], [-0.3158], [-0.1982], [0.05701]] for `x`; "
        "the reference returns [[-0.09527], [-0.1317], [-0.01408], [0.2411]]",
    ),
    (
        13,
        "ex2_batching_rule",
        (
            "        m = z.amax(dim=-1, keepdim=True)\n"
            "        out = m + (z - m).exp().sum(dim=-1, keepdim=True).log()\n"
            "        return out.squeeze(-1), 0\n",
            "        m = z.amax(dim=-1)\n        return m + (z - m).exp().sum(dim=-1).log(), 0\n",
        ),
        "your amax made `m` = [0.6705, 1.617, 1.67]; the reference makes [[0.6705], [1.617], [1.67]]",
    ),
]


@pytest.mark.parametrize("number, stem, change, difference", PLANTED, ids=[f"{n}-{s}" for n, s, _, _ in PLANTED])
def test_a_planted_wrong_answer_is_told_by_its_first_difference(tmp_path, number, stem, change, difference):
    failed = planted(tmp_path, number, stem, *change)
    assert failed, "the planted answer passed"
    first = failed[0]
    assert isinstance(first.error, TraceDivergence), first.explain()
    head, expected_got = first.explain().split("\n", 1)
    assert head.startswith(f"step {first.error.divergence.step}: ") and difference in head, head
    assert ": expected " in expected_got and ", got " in expected_got, expected_got  # the check's own line stays


@pytest.mark.parametrize("number, stem", [(2, "ex3_run_backward"), (6, "ex1_square"), (13, "ex2_batching_rule")])
def test_the_lesson_text_quotes_the_first_difference_its_check_gives(tmp_path, number, stem):
    (_, _, change, _) = next(p for p in PLANTED if p[:2] == (number, stem))
    head = planted(tmp_path, number, stem, *change)[0].explain().split("\n", 1)[0]
    text = (find_lesson(number).path / "README.md").read_text()
    assert f"```text\n{head}\n```" in text, f"lesson {number}'s text should quote: {head}"


def test_the_references_pass_without_a_difference():
    for number in (1, 2, 3, 4, 6, 10, 11, 12, 13):
        results = run_checks(find_lesson(number), reference=True)
        assert all(r.passed for r in results), [(r.description, r.explain()) for r in results if not r.passed]


# ---------------------------------------------------------------- the comparison itself
class Node:
    def __init__(self, data, parents=(), op=None, name=None):
        self.data, self.parents = data, parents
        emit.node(self, parents=parents, op=op, name=name)


def engine_run(accumulations):
    """A run of a tiny emitting engine on b = a + a: ``accumulations`` is the list of (before, contribution, after)
    into a (each one an event)."""

    def run():
        a = Node(3.0, name="a")
        b = Node(6.0, (a, a), "add", name="b")
        with emit.backward_pass(b, seed=1.0):
            emit.entered(b, 1.0)
            emit.rule(b, lambda g: (g, g), 1.0, (1.0, 1.0))
            for before, c, after in accumulations:
                emit.accumulated(b, a, c, before, after)
            emit.entered(a, accumulations[-1][2] if accumulations else 0.0)

    return record_run(run)


def test_the_same_run_does_not_part():
    right = [(None, 1.0, 1.0), (1.0, 1.0, 2.0)]
    assert first_divergence(engine_run(right), engine_run(right)) is None


def test_an_accumulation_that_replaces_is_told_with_what_the_sum_should_be():
    mine = engine_run([(None, 1.0, 1.0), (1.0, 1.0, 1.0)])
    found = first_divergence(mine, engine_run([(None, 1.0, 1.0), (1.0, 1.0, 2.0)]))
    event = next(e for e in mine.events if e.kind == "grad_accumulated" and e.before is not None)
    assert found.step == event.seq
    assert found.message == (
        f"step {event.seq}: your accumulation into `a` replaced 1 with 1 — before + contribution should be 2"
    )


def test_a_missing_event_is_told_as_the_reference_doing_it_and_the_learners_run_never():
    mine = engine_run([(None, 1.0, 1.0)])
    found = first_divergence(mine, engine_run([(None, 1.0, 1.0), (1.0, 1.0, 2.0)]))
    entered_a = next(e for e in mine.events if e.kind == "node_entered" and mine.nodes[e.node].name == "a")
    assert found.message == f"step {entered_a.seq}: the reference accumulates into `a` here; your run never does"


def test_an_extra_event_is_told_as_the_learners_run_doing_it():
    mine = engine_run([(None, 1.0, 1.0), (1.0, 1.0, 2.0), (2.0, 1.0, 3.0)])
    found = first_divergence(mine, engine_run([(None, 1.0, 1.0), (1.0, 1.0, 2.0)]))
    third = [e for e in mine.events if e.kind == "grad_accumulated"][2]
    assert found.message == f"step {third.seq}: your run accumulates into `a` here; the reference does not"


def test_a_node_made_before_recording_is_paired_by_its_place_in_the_graph():
    import minigrad as mg

    x = mg.tensor([1.0, 2.0], dtype=mg.float64, requires_grad=True)  # made before either recording

    def run(scale):
        x.grad = None
        return record_run(lambda: (x * scale).sum().backward())

    assert first_divergence(run(2.0), run(2.0)) is None
    found = first_divergence(run(3.0), run(2.0))
    assert (
        found is not None
        and "your mul made `mul#" in found.message
        and "= [3, 6]; the reference makes [2, 4]" in found.message
    )


def leaves_run(inputs=None, hook=None):
    """sum(a * b).backward(inputs=...) on fresh leaves a and b, recorded (``hook`` on b's gradient)."""
    import minigrad as mg

    def run():
        a = mg.tensor([1.0, 2.0], requires_grad=True, name="a")
        b = mg.tensor([3.0, 4.0], requires_grad=True, name="b")
        if hook is not None:
            b.register_hook(hook)
        chosen = None if inputs is None else [{"a": a, "b": b}[n] for n in inputs]
        (a * b).sum().backward(inputs=chosen)

    return record_run(run)


def test_a_rule_of_minigrads_is_not_called_the_learners():
    found = first_divergence(leaves_run(), leaves_run(inputs=["a"]))
    assert found is not None
    # minigrad's mul rule computes b's gradient only where the pass asks for it
    assert "in your run the mul rule of `mul#" in found.message
    assert found.message.endswith("returned [1, 2] for `b`; in the reference's, None")


def test_an_error_in_the_learners_run_is_said_where_the_reference_goes_on():
    def boom(g):
        raise ValueError("boom")

    found = first_divergence(leaves_run(hook=boom), leaves_run())
    assert found is not None
    assert found.message.endswith("the reference enters `b` here; your run raises ValueError: boom instead")


def test_another_valid_order_of_the_pass_does_not_part():
    def run(order):
        def go():
            a, b = Node(2.0, name="a"), Node(5.0, name="b")
            c = Node(10.0, (a, b), "mul", name="c")
            with emit.backward_pass(c, seed=1.0):
                emit.entered(c, 1.0)
                emit.rule(c, lambda g: (g * 5.0, g * 2.0), 1.0, (5.0, 2.0))
                emit.accumulated(c, a, 5.0, 0.0, 5.0)
                emit.accumulated(c, b, 2.0, 0.0, 2.0)
                for node, g in order(((a, 5.0), (b, 2.0))):
                    emit.entered(node, g)

        return record_run(go)

    assert first_divergence(run(list), run(reversed)) is None


# ---------------------------------------------------------------- --debug
@pytest.fixture
def workspace_with_a_wrong_square(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("MINIGRAD_WORKSPACE", raising=False)
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))  # where --debug saves the run
    ws = tmp_path / "course"
    lesson = find_lesson(6)
    assert main(["lesson", "start", "6", "--dir", str(ws)]) == 0
    for ref in lesson.references:
        shutil.copy(ref, ws / lesson.key / ref.name)
    square = ws / lesson.key / "ex1_square.py"
    square.write_text(square.read_text().replace("return g * 2 * x", "return g * x"))
    return ws


def test_check_debug_opens_the_debugger_on_the_learners_run_at_the_first_difference(
    workspace_with_a_wrong_square, monkeypatch, capsys
):
    opened = []
    monkeypatch.setattr(lesson_cli, "open_debugger", lambda divergence, title: opened.append((divergence, title)))
    ws = workspace_with_a_wrong_square
    assert main(["lesson", "check", "6", "--dir", str(ws), "--debug"]) == 1
    out = capsys.readouterr().out
    ((divergence, title),) = opened
    assert "FAIL  ex1_square" in out and f"step {divergence.step}: your rule for Square" in out
    assert f"opening it at step {divergence.step}" in out and f"`g` {divergence.step}" in out
    rule = divergence.mine.events[divergence.step]
    assert rule.kind == "closure_called" and divergence.mine.nodes[rule.node].op == "Square"
    saved = Trace.load(title)  # the run is saved where the message says, for --replay
    assert len(saved.events) == len(divergence.mine.events)


def test_check_debug_without_a_trace_difference_opens_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(lesson_cli, "open_debugger", lambda *a: pytest.fail("opened the debugger"))
    assert main(["lesson", "check", "6", "--reference", "--debug"]) == 0
    assert "nothing to open" in capsys.readouterr().out


def test_without_a_terminal_the_debugger_is_not_started(capsys):
    divergence = planted_failure().error.divergence
    lesson_cli.open_debugger(divergence, "your run")  # pytest's stdout is not a terminal
    assert "not a terminal" in capsys.readouterr().out


def test_the_debugger_opens_at_the_step():
    pytest.importorskip("textual")
    failed = planted_failure()
    divergence = failed.error.divergence
    app = lesson_cli.debugger_app(divergence, "your run")

    async def opened_at():
        async with app.run_test(size=(120, 40)) as pilot:
            deadline = asyncio.get_running_loop().time() + 30
            while getattr(app.screen, "model", None) is None:  # the debugger's screen has taken in the trace
                assert asyncio.get_running_loop().time() < deadline, "the debugger did not show the run"
                await pilot.pause(0.02)
            await pilot.pause()
            return app.session.events[app.session.cursor].seq

    assert asyncio.run(opened_at()) == divergence.step


def planted_failure():
    with tempfile.TemporaryDirectory() as folder:
        (failed, *_) = planted(Path(folder), 6, "ex5_find_the_bug", "return g * 3 * x * x\n", "return g * 3 * x\n")
    return failed


def test_two_alike_labels_are_told_apart_by_how_each_node_was_made():
    import minigrad as mg
    from minigrad.trace import record

    def run(op):
        with record() as trace:
            a = mg.tensor([1.0, 2.0], requires_grad=True, name="a")
            b = mg.tensor([3.0, 4.0], requires_grad=True, name="b")
            c = a * b if op == "mul" else a + b
            c.name = "c"
            c.sum().backward()
        return trace

    message = first_divergence(run("add"), run("mul")).message
    assert "the reference seeds `sum#" in message and "(sum of `c`, made by mul of `a` and `b`)" in message
    assert "your run seeds `sum#" in message and "(sum of `c`, made by add of `a` and `b`) instead" in message
