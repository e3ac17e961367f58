"""The lessons' diagrams: committed .dot/.svg match a fresh drawing, and READMEs link only existing images."""

import importlib.util
import re
import subprocess
import sys

import pytest

from minigrad.course import list_lessons
from minigrad.course.lessons import lessons_root

SCRIPT = lessons_root() / "make_diagrams.py"


def load_script():
    spec = importlib.util.spec_from_file_location("make_diagrams", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_diagrams_are_current():
    proc = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_diagram_file_is_generated():
    script = load_script()
    made = {path for key in script.DIAGRAMS for path in script.paths(key)}
    on_disk = set(lessons_root().glob("*/diagrams/*"))
    assert not on_disk - made, f"diagrams no key in make_diagrams.py generates: {sorted(on_disk - made)}"


@pytest.mark.parametrize("lesson", list_lessons(), ids=lambda lesson: f"{lesson.number:02d}")
def test_readme_links_existing_diagrams(lesson):
    text = (lesson.path / "README.md").read_text()
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert images, f"lesson {lesson.number}'s README has no diagram"
    missing = [img for img in images if not (lesson.path / img).is_file()]
    assert not missing, f"lesson {lesson.number} links missing images {missing}"


def test_normalise_renumbers_ids_and_keeps_labels_and_colours():
    normalise = load_script().normalise
    a = 't17 [label="mul#5", color="#555555"]\n o17 -> t17\n t9 [label=<<B>#9</B>>] at 0x7f00ab'
    b = 't3 [label="mul#5", color="#555555"]\n o3 -> t3\n t40 [label=<<B>#9</B>>] at 0x7fffff'
    assert normalise(a) == normalise(b)
    assert 'color="#555555"' in normalise(a) and "mul#5" in normalise(a), "a label names a node as transcripts do"
    assert normalise("t5 -> t8\nt8") != normalise("t5 -> t8\nt5"), "renumbering must keep which node is which"


def test_a_figure_names_nodes_as_the_transcript_beside_it():
    script = load_script()
    labels = set(re.findall(r"<B>(\w+#\d+)</B>", script.fresh_dot("05_higher_order/create_graph")))
    text = (lessons_root() / "05_higher_order" / "README.md").read_text()
    assert labels and all(label in text for label in labels), labels
