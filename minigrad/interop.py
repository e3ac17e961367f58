"""DLPack interchange with NumPy, CuPy and PyTorch (zero-copy where the producer allows)."""

from __future__ import annotations

from . import backend as B
from .tensor import Tensor, make_leaf

__all__ = ["from_dlpack"]

_DLPACK_CPU, _DLPACK_CUDA = 1, 2


def from_dlpack(ext) -> Tensor:
    """A leaf tensor sharing memory with ``ext`` (anything with ``__dlpack__``: NumPy, CuPy, PyTorch).

    CPU producers give a CPU tensor through NumPy, CUDA producers a CUDA tensor
    through CuPy. Unsupported dtypes are refused with the dtype named.
    """
    if not hasattr(ext, "__dlpack__"):
        raise TypeError(f"from_dlpack() expects an object with __dlpack__, got {type(ext).__name__}")
    kind, index = ext.__dlpack_device__()
    if kind == _DLPACK_CPU:
        import numpy as np

        arr, dev = np.from_dlpack(ext), B.CPU
    elif kind == _DLPACK_CUDA:
        dev = B.device(f"cuda:{index}")
        arr = dev.xp.from_dlpack(ext)
    else:
        raise RuntimeError(f"from_dlpack(): DLPack device type {kind} is not supported (only CPU and CUDA)")
    if arr.dtype not in B.SUPPORTED_DTYPES:
        raise TypeError(
            f"from_dlpack(): unsupported dtype {arr.dtype}; minigrad supports "
            + ", ".join(str(d) for d in B.SUPPORTED_DTYPES)
        )
    return make_leaf(arr, dev)


def _dlpack(self: Tensor, *args, **kwargs):
    """Export the data through DLPack (tensors that require grad must be detached first)."""
    if self._rg:
        raise RuntimeError("Can't export tensors that require gradient, use tensor.detach()")
    return self.data.__dlpack__(*args, **kwargs)


def _dlpack_device(self: Tensor):
    return self.data.__dlpack_device__()


Tensor.__dlpack__ = _dlpack
Tensor.__dlpack_device__ = _dlpack_device
