"""Names of the top-level ``torch`` module that only make sense for a PyTorch program run on minigrad:
the queries a CPU-only program makes, ``torch.compile``, and dtypes minigrad refuses to compute in."""

from __future__ import annotations

import math
import sys

import numpy as np

from .. import __version__ as _minigrad_version
from .errors import missing_message
from .torch_amp import autocast

__all__ = [
    "__version__",
    "are_deterministic_algorithms_enabled",
    "autocast",
    "bfloat16",
    "compile",
    "dtype",
    "e",
    "inf",
    "nan",
    "pi",
    "Size",
    "get_float32_matmul_precision",
    "set_float32_matmul_precision",
    "use_deterministic_algorithms",
]

#: The PyTorch release whose API minigrad follows, tagged as minigrad's (scripts compare versions).
__version__ = f"2.8.0+minigrad.{_minigrad_version}"
VERSION = {"__version__": __version__, "cuda": None, "hip": None, "debug": False}

#: ``isinstance(torch.float32, torch.dtype)`` holds: minigrad's dtypes are NumPy's.
dtype = np.dtype
#: A minigrad shape is a tuple: ``x.shape == torch.Size([2, 3])`` compares as in torch.
Size = tuple
e, inf, nan, pi = math.e, math.inf, math.nan, math.pi


class UnsupportedDtype:
    """A torch dtype minigrad cannot compute in: it can be named and compared, and using it for a
    tensor (``x.to(torch.bfloat16)``, ``zeros(..., dtype=torch.bfloat16)``) raises."""

    def __init__(self, name: str):
        self.name = name

    @property
    def dtype(self):
        # NumPy asks for ``.dtype`` when it meets an unknown object as a dtype: the refusal is here
        raise NotImplementedError(missing_message(f"torch.{self.name} tensors") + "; use torch.float32")

    def __repr__(self) -> str:
        return f"torch.{self.name}"


bfloat16 = UnsupportedDtype("bfloat16")


def compile(model=None, **options):  # noqa: A001  (torch.compile)
    """Return ``model`` unchanged, saying so in one line on stderr: minigrad does not compile.

    As ``torch.compile``, it also works as a decorator, bare or with options.
    """
    if model is None:
        return lambda fn: compile(fn, **options)
    name = getattr(model, "__name__", type(model).__name__)
    print(f"minigrad: torch.compile({name}) returns it unchanged (minigrad does not compile)", file=sys.stderr)
    return model


_PRECISIONS = ("highest", "high", "medium")
_matmul_precision = "highest"


def set_float32_matmul_precision(precision: str) -> None:
    """Accept torch's float32 matmul precisions; minigrad's float32 matmuls are always ``'highest'``."""
    global _matmul_precision
    if precision not in _PRECISIONS:
        raise RuntimeError(f"set_float32_matmul_precision(): expected 'highest', 'high' or 'medium', got {precision!r}")
    _matmul_precision = precision


def get_float32_matmul_precision() -> str:
    """The precision last set with :func:`set_float32_matmul_precision` (``'highest'`` by default)."""
    return _matmul_precision


_deterministic = False


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Accepted: minigrad's ops are deterministic whatever the mode."""
    global _deterministic
    _deterministic = bool(mode)


def are_deterministic_algorithms_enabled() -> bool:
    """What :func:`use_deterministic_algorithms` last set."""
    return _deterministic
