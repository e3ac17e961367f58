"""The training examples reach their accuracy targets (run quietly, fast)."""

import importlib.util
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_moons_reaches_full_training_accuracy():
    result = _load("train_moons").train(progress=False)
    assert result["accuracy"] == 1.0
    assert result["loss"] < 0.01


def test_digits_reaches_95_percent_test_accuracy():
    pytest.importorskip("sklearn")
    from threadpoolctl import threadpool_limits  # installed with scikit-learn

    # One BLAS thread: these small matrix products only lose to thread start-up on a busy machine.
    with threadpool_limits(limits=1, user_api="blas"):
        result = _load("train_digits").train(epochs=10, progress=False)
    assert result["test_accuracy"] >= 0.95


def test_progress_bar_shows_loss_and_accuracy():
    from rich.console import Console

    console = Console(record=True, width=100, force_terminal=False)
    with _load("_progress").training_bar(2, "demo", console=console) as update:
        update(loss=0.5, acc=0.75)
        update(loss=0.25, acc=1.0)
    text = console.export_text()
    assert "demo" in text and "2/2" in text and "loss 0.2500" in text and "acc 100.0%" in text
