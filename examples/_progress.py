"""A rich progress bar that shows the loss and accuracy of a training run (shared by the examples)."""

from __future__ import annotations

from contextlib import contextmanager

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


@contextmanager
def training_bar(total: int, description: str, enabled: bool = True):
    """Yield ``update(advance=1, **fields)``; shows loss and accuracy fields when ``enabled``."""
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
    with Progress(*columns) as progress:
        task = progress.add_task(description, total=total, loss=float("nan"), acc=0.0)
        yield lambda advance=1, **fields: progress.update(task, advance=advance, **fields)
