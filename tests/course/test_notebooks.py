"""Each lesson is also a notebook: generated from its text and demo (never stale), and it runs without error."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from minigrad.course.lessons import lessons_root
from tests.notebook_kernel import execute_notebook

SCRIPT = lessons_root() / "make_notebooks.py"


def load_script():
    spec = importlib.util.spec_from_file_location("make_notebooks", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LESSONS = load_script().lesson_dirs() if importlib.util.find_spec("jupytext") else []


def test_every_lesson_has_a_notebook():
    pytest.importorskip("jupytext")
    assert LESSONS, "no lessons found"
    for lesson in LESSONS:
        assert (lesson / "lesson.ipynb").exists(), f"{lesson.name} has no lesson.ipynb: run lessons/make_notebooks.py"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_committed_notebook_is_current(lesson):
    script = load_script()
    committed = (lesson / "lesson.ipynb").read_text()
    assert committed == script.notebook_text(lesson), (
        f"{lesson.name}/lesson.ipynb is stale: run lessons/make_notebooks.py"
    )


def test_notebook_holds_the_text_and_the_demo():
    pytest.importorskip("jupytext")
    lesson = LESSONS[0]
    cells = json.loads((lesson / "lesson.ipynb").read_text())["cells"]
    text = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    title = (lesson / "README.md").read_text().splitlines()[0]
    assert title in text
    assert "minigrad" in code[0] and any("trace.record()" in c for c in code)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_notebook_runs(lesson):
    pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("ipykernel")
    notebook = execute_notebook(nbformat.read(lesson / "lesson.ipynb", as_version=4), timeout=300, cwd=lesson)
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    recording = next(c for c in notebook.cells if c.cell_type == "code" and "trace.record()" in c.source)
    shown = [o for o in recording.outputs if o.output_type == "display_data"]
    assert shown, "the recording cell shows the trace"
    assert "application/vnd.jupyter.widget-view+json" in shown[0].data, "the trace shows as the stepper widget"
    assert "<svg" in shown[0].data.get("text/html", ""), "an exported notebook shows the step"
    checks = [c for c in notebook.cells if c.cell_type == "code" and "check_exercise(" in c.source]
    assert len(checks) == len(list((lesson / "reference").glob("ex*.py"))), "one check cell per exercise"
    for cell in checks:  # the lesson folder holds the stubs: every check says TODO or FAIL, none raises
        printed = "".join(o.get("text", "") for o in cell.outputs)
        assert "checks passed" in printed and ("TODO" in printed or "FAIL" in printed), printed


def test_an_exercise_cell_reports_the_checks_of_its_exercise_without_raising(tmp_path, capsys):
    from minigrad.course import find_lesson
    from minigrad.course.notebook import check_exercise, exercise_results

    lesson = find_lesson(1)
    stub = exercise_results(1, "ex2_local_rules", lesson.path)
    assert stub and {r.exercise for r in stub} == {"ex2_local_rules"} and all(r.not_done for r in stub)
    check_exercise(1, "ex2_local_rules", lesson.path / "reference")
    printed = capsys.readouterr().out
    assert "PASS" in printed and "TODO" not in printed
    assert f"{len(stub)} of {len(stub)} checks passed" in printed
    with pytest.raises(LookupError, match="lesson 1 has no exercise 'ex9_nothing'"):
        exercise_results(1, "ex9_nothing", tmp_path)


def test_a_notebook_kernel_listens_on_socket_files_of_its_own_not_on_tcp_ports():
    # A TCP port is picked by binding port 0 and letting go; another worker's kernel, started at the same
    # moment, could be handed the same one ("Address already in use" under pytest-xdist).
    pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("ipykernel")
    cell = "from ipykernel.kernelapp import IPKernelApp\napp = IPKernelApp.instance()\nprint(app.transport, app.ip)"
    notebook = execute_notebook(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)]), timeout=120)
    transport, sockets = notebook.cells[0].outputs[0].text.split()
    assert transport == "ipc"
    assert Path(sockets).parent.name.startswith("kernel-"), "the sockets live in a folder of this kernel's own"
    assert not Path(sockets).parent.exists(), "the folder is removed with the kernel"
