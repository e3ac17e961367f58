"""The built-in examples: each runs and records as user code (names and source lines), and the CLI uses them."""

import pytest

from minigrad import examples
from minigrad.cli import main
from minigrad.trace import record


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name", examples.NAMES)
def test_each_example_records_with_names_and_sources(name, capsys):
    with record() as tr:
        examples.run(name)
    assert "grad" in capsys.readouterr().out
    assert any(e.kind == "pass_started" for e in tr.events)
    named = [i for i in tr.nodes.values() if i.name]
    assert named and all(i.source is None or i.source.file == examples.path(name) for i in named)


def test_the_cli_demo_runs_and_prints_the_demo_example(capsys):
    assert main(["demo", "--source"]) == 0
    assert capsys.readouterr().out == examples.source("demo")
    assert main(["demo"]) == 0
    assert "a.grad = tensor([ 4.0001, -1.9946,  0.1601])" in capsys.readouterr().out


def test_unknown_example_names_the_ones_there_are():
    with pytest.raises(ValueError, match="choose from demo, nested_grad"):
        examples.path("nope")
