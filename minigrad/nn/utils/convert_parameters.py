"""Parameters as one flat vector and back, as ``torch.nn.utils``."""

from __future__ import annotations

from ...autograd import no_grad
from ...ops.shape import cat
from ...tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_vector(vec) -> None:
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")


def _check_same_device(parameters: list) -> None:
    for p in parameters[1:]:
        if p.device is not parameters[0].device:
            raise TypeError("Found two parameters on different devices, this is currently not supported.")


def parameters_to_vector(parameters) -> Tensor:
    """The parameters flattened and concatenated into one 1-D tensor (differentiable)."""
    parameters = list(parameters)
    _check_same_device(parameters)
    return cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters) -> None:
    """Copy consecutive slices of the 1-D ``vec`` into ``parameters``, in place (in their order and shapes)."""
    _check_vector(vec)
    parameters = list(parameters)
    _check_same_device(parameters)
    start = 0
    with no_grad():
        for p in parameters:
            n = p.numel()
            p.copy_(vec[start : start + n].view_as(p))
            start += n
