"""``torch.serialization``: ``save``/``load`` are minigrad's (which never unpickle, so every global is
safe to name); ``add_safe_globals`` and ``safe_globals`` accept what torch's do and change nothing."""

from __future__ import annotations

import contextlib

from ..serialization import load, save

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals", "safe_globals"]


def add_safe_globals(safe_globals: list) -> None:
    """Accepted, as torch's; minigrad's ``load`` unpickles nothing, so there is nothing to allow."""


def get_safe_globals() -> list:
    return []


def clear_safe_globals() -> None:
    """Nothing was added: nothing to clear."""


@contextlib.contextmanager
def safe_globals(safe_globals: list):
    """A context in which ``load`` may unpickle ``safe_globals`` under torch; here a no-op context."""
    yield
