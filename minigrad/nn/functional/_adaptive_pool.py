"""Adaptive pooling: the mean or the max of each of ``output_size`` bins, whatever the input's size.

Bin ``i`` of ``out`` over a length ``L`` covers ``[floor(i*L/out), ceil((i+1)*L/out))``, as in
PyTorch, so neighbouring bins may share an element when ``out`` does not divide ``L``. Built
from the ops the debugger already shows: the mean pools one spatial dim at a time (a mean over
equal bins, else a product with the matrix of bin weights); the max finds each bin's first
largest element and gathers it, so its gradient goes to that element alone, as PyTorch's.
"""

from __future__ import annotations

from ...ops.declare import op
from ...tensor import Tensor, make_leaf, shape_str
from ._batch_rules import batch_of_samples_rule

__all__ = ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d", "adaptive_max_pool2d"]


def _bins(length: int, out: int) -> list:
    return [((i * length) // out, -(-((i + 1) * length) // out)) for i in range(out)]


def _output_size(output_size, input_size: tuple, op: str) -> tuple:
    sizes = output_size if isinstance(output_size, (tuple, list)) else (output_size,) * len(input_size)
    if len(sizes) != len(input_size):
        raise RuntimeError(f"{op}: output_size must be {len(input_size)}")
    sizes = tuple(n if s is None else s for s, n in zip(sizes, input_size))
    if any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in sizes):
        raise RuntimeError(f"{op}: elements of output_size must be non-negative ints, got {tuple(output_size)}")
    return sizes


def _checked(input, op: str, dims: int) -> None:
    if not isinstance(input, Tensor):
        raise TypeError(f"{op}(): argument 'input' must be Tensor, not {type(input).__name__}")
    if input.array.ndim not in (dims + 1, dims + 2):
        if dims == 1:
            raise RuntimeError(
                f"Expected 2 to 3 dimensions, but got {input.array.ndim}-dimensional tensor for argument #1 "
                f"'self' (while checking arguments for {op})"
            )
        raise RuntimeError(f"{op}(): Expected 3D or 4D tensor, but got: {shape_str(input.array.shape)}")
    if input.array.dtype.kind != "f":
        raise RuntimeError(f"{op}(): expected a floating-point input, got {input.array.dtype}")


def _mean_over_bins(x: Tensor, dim: int, out: int) -> Tensor:
    """Pool dim ``dim`` (-1 or -2) of ``x`` into ``out`` bin means."""
    length = x.array.shape[dim]
    if out and length % out == 0:
        return x.unflatten(dim, (out, length // out)).mean(dim)
    xp = x.device.xp
    weights = xp.zeros((length, out), dtype=x.array.dtype)
    for i, (start, end) in enumerate(_bins(length, out)):
        weights[start:end, i] = 1.0 / (end - start)
    weights = make_leaf(weights, x.device)
    return x @ weights if dim == -1 else weights.mT @ x


def _adaptive_avg(input: Tensor, output_size, dims: int, op: str) -> Tensor:
    _checked(input, op, dims)
    sizes = _output_size(output_size, input.array.shape[-dims:], op)
    out = input
    for k, size in enumerate(reversed(sizes)):
        out = _mean_over_bins(out, -1 - k, size)
    return out


def _first_max_indices(input: Tensor, sizes: tuple):
    """For each output element, the flat index (over the pooled dims) of its bin's first largest
    value, as PyTorch picks it (NaN counts as largest)."""
    xp = input.device.xp
    arr = input.array
    spatial = arr.shape[-len(sizes) :]
    lead = arr.shape[: -len(sizes)]
    rows = _bins(spatial[0], sizes[0]) if len(sizes) == 2 else [(0, 1)]
    cols = _bins(spatial[-1], sizes[-1])
    grid = arr.reshape(lead + (1,) + spatial[-1:]) if len(sizes) == 1 else arr
    indices = xp.empty(lead + tuple(sizes), dtype=xp.int64)
    width = spatial[-1]
    for i, (top, bottom) in enumerate(rows):
        for j, (left, right) in enumerate(cols):
            window = grid[..., top:bottom, left:right].reshape(lead + (-1,))
            k = xp.argmax(window, axis=-1)
            flat = (top + k // (right - left)) * width + left + k % (right - left)
            indices[(..., i, j) if len(sizes) == 2 else (..., j)] = flat
    return indices


def _adaptive_max(input: Tensor, output_size, return_indices: bool, dims: int, op: str):
    _checked(input, op, dims)
    sizes = _output_size(output_size, input.array.shape[-dims:], op)
    if 0 in input.array.shape[-dims:] and 0 not in sizes:
        raise RuntimeError(f"{op}(): cannot pool an empty input of shape {shape_str(input.array.shape)}")
    indices = make_leaf(_first_max_indices(input, sizes), input.device)
    flat = input.flatten(-dims) if dims == 2 else input
    values = flat.gather(-1, indices.flatten(-dims) if dims == 2 else indices)
    if dims == 2:
        values = values.unflatten(-1, sizes)
    return (values, indices) if return_indices else values


@op(batch=batch_of_samples_rule)
def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:  # noqa: A002  (torch's argument name)
    """Mean over ``output_size`` adaptive bins of the last dim of ``[N, C, L]`` (or ``[C, L]``)."""
    return _adaptive_avg(input, output_size, 1, "adaptive_avg_pool1d")


@op(batch=batch_of_samples_rule)
def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:  # noqa: A002
    """Mean over adaptive bins of ``[N, C, H, W]`` (or ``[C, H, W]``) into ``output_size`` (an int, or
    ``(oh, ow)`` where None keeps that input size)."""
    return _adaptive_avg(input, output_size, 2, "adaptive_avg_pool2d")


@op(batch=batch_of_samples_rule)
def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False):  # noqa: A002
    """Max over ``output_size`` adaptive bins of the last dim of ``[N, C, L]`` (or ``[C, L]``); with
    ``return_indices`` also each max's position in ``L``."""
    return _adaptive_max(input, output_size, return_indices, 1, "adaptive_max_pool1d")


@op(batch=batch_of_samples_rule)
def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):  # noqa: A002
    """Max over adaptive bins of ``[N, C, H, W]`` (or ``[C, H, W]``) into ``output_size``; with
    ``return_indices`` also each max's flat position in ``H * W``."""
    return _adaptive_max(input, output_size, return_indices, 2, "adaptive_max_pool2d")
