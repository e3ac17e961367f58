"""The README's PyTorch coverage table is worked out from the code and kept current."""

from __future__ import annotations

from pathlib import Path

from minigrad.compat import coverage

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_table_is_what_the_code_resolves_now():
    text = README.read_text()
    start = text.index(coverage.BEGIN) + len(coverage.BEGIN)
    assert text[start : text.index(coverage.END)].strip() == coverage.markdown(), (
        "stale: run python -m minigrad.compat.coverage --write README.md"
    )


def test_names_are_looked_up_as_a_torch_script_finds_them():
    found = coverage.coverage()
    present, missing = found["nn layers"]
    assert "nn.TransformerEncoderLayer" in present and "nn.AdaptiveAvgPool2d" in present
    assert "fft.rfft" in found["other modules"][1]  # the module imports as a stub; its names raise
    assert "Tensor.relu_" in found["Tensor methods"][0]


def test_every_group_lists_each_name_once():
    for group, names in coverage.GROUPS.items():
        listed = names.split()
        assert len(listed) == len(set(listed)), group


def test_a_missing_name_moves_the_table(monkeypatch):
    monkeypatch.setitem(coverage.GROUPS, "other modules", "fft.fft no_such_name")
    assert "`fft.fft`, `no_such_name`" in coverage.markdown()
