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
    assert "minigrad" in code[0] and "trace.record()" in code[-1]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_notebook_runs(lesson):
    pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("ipykernel")
    notebook = execute_notebook(nbformat.read(lesson / "lesson.ipynb", as_version=4), timeout=300, cwd=lesson)
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    shown = [o for o in notebook.cells[-1].outputs if o.output_type == "display_data"]
    assert shown, "the recording cell shows the trace"
    assert "application/vnd.jupyter.widget-view+json" in shown[0].data, "the trace shows as the stepper widget"


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
