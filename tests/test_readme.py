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
