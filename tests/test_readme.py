"""README's quickstart runs and prints what its comments say."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_quickstart_prints_what_its_comments_say():
    text = README.read_text()
    section = text[text.index("## Quickstart") :]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    expected = [m.group(1) for m in re.finditer(r"^print\(.*\)  # (.*)$", code, re.M)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README quickstart", "exec"), {"__name__": "__main__"})
    assert out.getvalue().splitlines() == expected


def test_the_readme_and_help_name_every_reduction_a_condition_takes():
    """The breakpoint condition language is written down where users look for it: README and ``--help``."""
    from minigrad.trace.condition import FUNCTIONS
    from minigrad_tui.cli import EPILOG

    words = " ".join(sorted(FUNCTIONS))
    assert f"`{words}`" in " ".join(README.read_text().split())
    assert words in " ".join(EPILOG.split())
