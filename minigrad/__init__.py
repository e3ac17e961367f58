"""minigrad: a tensor autograd engine whose backward pass you can watch.

>>> import minigrad as mg
>>> x = mg.tensor([1.0, -2.0, 3.0], requires_grad=True)
>>> (x * x).sum().backward()
>>> x.grad
tensor([ 2., -4.,  6.])
"""

import importlib as _importlib
import sys as _sys
import warnings as _warnings

from . import backend
from .backend import (
    Device,
    bool_,
    cuda_is_available,
    device,
    float16,
    float32,
    float64,
    get_default_device,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    set_default_device,
    set_default_dtype,
    uint8,
)
from .tensor import Tensor, tensor
from . import ops
from .ops import *  # noqa: F401,F403
from .creation import *  # noqa: F401,F403
from .interop import as_tensor, from_dlpack, from_numpy, is_tensor, numel
from .serialization import load, save
from . import autograd
from .autograd import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from . import data, func, nn, optim
from ._workspace import raise_heap_thresholds

raise_heap_thresholds()  # glibc keeps freed arrays for the next step instead of faulting them in again (_workspace)
del raise_heap_thresholds

# torch's dtype aliases; ``minigrad.float``, ``minigrad.int`` and ``minigrad.bool`` shadow the
# builtins inside this module only, as ``torch.float`` does.
bool = bool_  # noqa: A001  (torch.bool)
float = float32  # noqa: A001  (torch.float)
int = int32  # noqa: A001  (torch.int)
half, double, long, short = float16, float64, int64, int16
__version__ = "0.1.0"

# NumPy's floating-point warnings (log(0), 0/0, exp overflow) from our own ops name our source line,
# not the user's, and PyTorch returns the inf or nan silently: so do we. Costs nothing per op (an
# errstate per op would cost ~1 us); warnings from the user's own NumPy code are untouched.
_warnings.filterwarnings(
    "ignore",
    message=r"(divide by zero|invalid value|overflow|underflow) encountered",
    category=RuntimeWarning,
    module=r"minigrad\.",
)

#: Subpackages imported on first use (PEP 562), so ``import minigrad`` stays fast and never
#: loads the viewers' dependencies: ``minigrad.trace.record`` works after a plain ``import minigrad``.
_LAZY_SUBPACKAGES = ("trace", "viz", "course", "examples", "cli", "utils", "compat", "distributions")


def __getattr__(name: str):
    if name in _LAZY_SUBPACKAGES:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_SUBPACKAGES))


def _show_traces_in_ipython() -> None:
    """In a running IPython (a Jupyter kernel), a cell ending in a ``minigrad.trace.Trace`` shows the notebook
    stepper of ``minigrad.viz``. A trace draws nothing itself: its display is registered with IPython here,
    by the type's name, so neither ``minigrad.trace`` nor ``minigrad.viz`` loads before a trace is shown."""
    ipython = _sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None:
        shell.display_formatter.ipython_display_formatter.for_type_by_name(
            "minigrad.trace.trace",
            "Trace",
            lambda trace: _importlib.import_module(f"{__name__}.viz.notebook").display_trace(trace),
        )


_show_traces_in_ipython()
