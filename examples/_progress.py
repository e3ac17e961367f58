"""A rich progress bar that shows the loss and accuracy of a training run (shared by the examples)."""

from __future__ import annotations

from contextlib import contextmanager

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


@contextmanager
def training_bar(total: int, description: str, enabled: bool = True, console=None):
    """Yield ``update(advance=1, **fields)``; shows the loss and acc fields when ``enabled``
    (on ``console``, a rich Console, or the terminal)."""
    if not enabled:
        yield lambda advance=1, **fields: None
        return
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("loss {task.fields[loss]:.4f}  acc {task.fields[acc]:.1%}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console) as progress:
        task = progress.add_task(description, total=total, loss=float("nan"), acc=0.0)
        yield lambda advance=1, **fields: progress.update(task, advance=advance, **fields)
