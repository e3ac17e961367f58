"""Recorded traces shared by the viz tests."""

import pytest

import minigrad as mg
from minigrad.trace import record


def _record_examples():
    with record() as tr:
        a = mg.tensor(2.0, requires_grad=True, name="a")
        b = mg.tensor(-3.0, requires_grad=True, name="b")
        c = mg.tensor(10.0, name="c")
        e = a * b
        d = e + c
        L = d.tanh()
        L.backward()
        x = mg.tensor(1.5, requires_grad=True, name="x")
        y = x * x * x
        (g,) = mg.autograd.grad(y, x, create_graph=True)
        g.backward()
    return tr


@pytest.fixture(scope="module")
def example_trace():
    """A backward() through a*b + c then tanh; then grad(create_graph=True) of x**3 and backward of the result."""
    return _record_examples()


@pytest.fixture
def trace_file(tmp_path, example_trace):
    path = tmp_path / "run.jsonl"
    example_trace.save(path)
    return path
