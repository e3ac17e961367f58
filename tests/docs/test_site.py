"""`make docs`: the course and the API reference build into a static site with no broken link."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mkdocs")
pytest.importorskip("mkdocstrings_handlers.python")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, f"mkdocs build --strict failed:\n{run.stderr[-4000:]}"
    return out


@pytest.mark.slow
def test_every_lesson_is_a_page_with_its_figures_transcripts_and_player(site):
    from minigrad.course.lessons import lessons_root, list_lessons

    lessons = list_lessons(lessons_root())
    assert lessons
    for lesson in lessons:
        page = site / "lessons" / lesson.key / "index.html"
        html = page.read_text(encoding="utf-8")
        assert lesson.title in html, f"{page} lacks the lesson's title"
        assert 'src="player.html"' in html, f"{page} does not embed its demo's player"
        player = (site / "lessons" / lesson.key / "player.html").read_text(encoding="utf-8")
        assert '<meta name="generator" content="minigrad.viz">' in player, f"{lesson.key}'s player is not minigrad's"
        for figure in (lesson.path / "diagrams").glob("*.svg"):
            assert (site / "lessons" / lesson.key / "diagrams" / figure.name).is_file()


@pytest.mark.slow
def test_lesson_one_shows_its_figure_and_a_transcript(site):
    html = (site / "lessons" / "01_chain_rule" / "index.html").read_text(encoding="utf-8")
    assert "Derivatives and the chain rule on scalars" in html
    assert 'src="diagrams/graph.svg"' in html
    assert "grad_accumulated" in html  # the debugger's transcript, quoted in the text


@pytest.mark.slow
def test_the_api_reference_documents_tensor_backward(site):
    html = (site / "api" / "minigrad" / "index.html").read_text(encoding="utf-8")
    assert 'id="minigrad.Tensor.backward"' in html
    for module in (
        "minigrad.nn",
        "minigrad.optim",
        "minigrad.autograd",
        "minigrad.func",
        "minigrad.trace",
        "minigrad.viz",
    ):
        assert (site / "api" / module / "index.html").is_file(), f"no API page for {module}"
    autograd = (site / "api" / "minigrad.autograd" / "index.html").read_text(encoding="utf-8")
    assert 'id="minigrad.autograd.grad"' in autograd


def test_the_site_is_built_strict_so_a_broken_link_fails_it():
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"))
    assert config["strict"] is True
    assert config["validation"]["links"]["not_found"] >= logging.WARNING
    assert config["validation"]["links"]["anchors"] >= logging.WARNING
