"""Interchange with NumPy, CuPy and PyTorch (zero-copy where the producer allows), and the questions
PyTorch code asks of an object (``is_tensor``, ``numel``)."""

from __future__ import annotations

from . import backend as B
from .tensor import Tensor, make_leaf, tensor

__all__ = ["from_dlpack", "from_numpy", "as_tensor", "is_tensor", "numel"]

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


def from_numpy(ndarray) -> Tensor:
    """A CPU leaf tensor sharing memory with the NumPy array ``ndarray``, as ``torch.from_numpy``:
    writes to either show in the other. Dtypes minigrad lacks are refused with the supported ones named."""
    import numpy as np

    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    if ndarray.dtype not in B.SUPPORTED_DTYPES:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{ndarray.dtype}. The only supported types are: "
            + ", ".join(str(d) for d in B.SUPPORTED_DTYPES)
            + "."
        )
    return make_leaf(ndarray, B.CPU)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """``data`` as a tensor, sharing memory where it can, as ``torch.as_tensor``: a tensor of the asked
    dtype and device is returned itself (else converted, staying in the graph); a CPU NumPy array
    of the asked dtype is shared; anything else is copied as :func:`minigrad.tensor` copies it."""
    import numpy as np

    want_dtype = None if dtype is None else B.to_dtype(dtype)
    want_device = None if device is None else B.device(device)
    if isinstance(data, Tensor):
        if (want_dtype is None or want_dtype == data.dtype) and (want_device is None or want_device == data.device):
            return data
        return data.to(device=want_device or data.device, dtype=want_dtype or data.dtype)
    if (
        isinstance(data, np.ndarray)
        and data.dtype in B.SUPPORTED_DTYPES
        and (want_dtype is None or want_dtype == data.dtype)
        and (want_device or B.get_default_device()) == B.CPU
    ):
        return make_leaf(data, B.CPU)
    return tensor(data, dtype=dtype, device=device)


def is_tensor(obj) -> bool:
    """Whether ``obj`` is a minigrad Tensor (``torch.is_tensor``)."""
    return isinstance(obj, Tensor)


def numel(input: Tensor) -> int:  # noqa: A002  (torch's argument name)
    """The number of elements of ``input`` (``torch.numel``)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"numel(): argument 'input' must be Tensor, not {type(input).__name__}")
    return input.numel()


def _dlpack(self: Tensor, *args, **kwargs):
    """Export the data through DLPack (tensors that require grad must be detached first)."""
    if self.requires_grad:
        raise RuntimeError("Can't export tensors that require gradient, use tensor.detach()")
    return self.array.__dlpack__(*args, **kwargs)


def _dlpack_device(self: Tensor):
    return self.array.__dlpack_device__()


Tensor.__dlpack__ = _dlpack
Tensor.__dlpack_device__ = _dlpack_device
