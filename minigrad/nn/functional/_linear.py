"""linear: ``x @ weight.T + bias`` as one graph node, forward beside backward."""

from __future__ import annotations

import numpy as np

from ...ops._util import check_same_device
from ...ops.declare import BatchedCall, batches_gradients, op
from ...tensor import Tensor, make, shape_str

__all__ = ["linear"]


def _linear_rule(call: BatchedCall):
    """``linear``: one ``linear`` call for a batched input, a matmul where the weight is batched."""
    x, weight = call.args[0], call.args[1]
    bias = call.args[2] if len(call.args) > 2 else call.kwargs.get("bias")
    v = call.value(x)
    if v is not None and call.value(weight) is None and call.value(bias) is None and x.dim() > 0:
        return call.wrap(call.run(call.fn, v, weight, bias))
    out = x @ weight.transpose(-1, -2)
    return out if bias is None else out + bias


@batches_gradients
@op(batch=_linear_rule, saves=("weight", "x"))
def linear(x: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """Affine map over the last dim: ``x @ weight.T + bias``.

    ``x`` is ``[*, in_features]``, ``weight`` ``[out_features, in_features]``,
    ``bias`` ``[out_features]``. One node in the graph for a batch of rows (as PyTorch's
    addmm), so the training path stays close to the raw matrix products; any other input
    is viewed as rows first and its output viewed back.
    """
    xd, wd = x.array, weight.array
    if wd.ndim != 2 or xd.ndim == 0 or xd.shape[-1] != wd.shape[1]:
        raise RuntimeError(
            f"linear(): input of shape {shape_str(xd.shape)} does not match weight of shape "
            f"{shape_str(wd.shape)} (expected the input's last dim to be {wd.shape[1] if wd.ndim == 2 else '?'})"
        )
    if x.device is not weight.device:
        check_same_device(x, weight, "linear")
    if xd.dtype != wd.dtype:
        raise RuntimeError(
            f"linear(): input dtype {xd.dtype} and weight dtype {wd.dtype} differ; "
            f"convert the input (x.to({wd.dtype})) or the module (.to({xd.dtype}))"
        )
    if xd.ndim != 2:  # rows of any batch shape (or one row): one 2-D product between two views, as PyTorch's graph
        rows = linear(x.reshape(-1, xd.shape[-1]), weight, bias)
        return rows.reshape(*xd.shape[:-1], wd.shape[0])
    out = _rows_times_transposed(xd, wd)
    if bias is None:

        def backward(g):
            return lambda: g @ weight, lambda: g.mT @ x

        def jvp(tx, tw):
            return tx @ weight.mT + x @ tw.mT

        return make(out, (x, weight), backward, "linear", jvp)
    if bias.device is not weight.device:
        check_same_device(bias, weight, "linear")
    if bias.array.dtype != wd.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {bias.array.dtype} and {wd.dtype}")
    if bias.array.shape not in ((), (1,), (wd.shape[0],)):
        raise RuntimeError(
            f"linear(): bias of shape {shape_str(bias.array.shape)} does not match the {wd.shape[0]} output features"
        )
    out += bias.array

    # the bias was added to every row: its gradient is g, which the engine sums over the rows
    def backward(g):
        return lambda: g @ weight, lambda: g.mT @ x, lambda: g

    def jvp(tx, tw, tb):
        return tx @ weight.mT + x @ tw.mT + tb

    return make(out, (x, weight, bias), backward, "linear", jvp)


def _rows_times_transposed(x, w):
    """``x @ w.T``. For a few rows and many outputs it is computed as ``(w @ x.T).T``, copied back to rows:
    OpenBLAS's kernels for a transposed right operand are slow on a short left one (20 rows, 200 -> 800, one
    thread: 150 us as ``x @ w.T``, 103 us this way; an LSTM step's shape), and equal from 64 rows on."""
    if 1 < x.shape[0] < 64 <= w.shape[0] and type(x) is np.ndarray:
        return np.ascontiguousarray((w @ x.T).T)
    return x @ w.T
