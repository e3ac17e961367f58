"""linear: ``x @ weight.T + bias`` as one graph node, forward beside backward."""

from __future__ import annotations

from ...ops._util import check_same_device
from ...tensor import Tensor, make, shape_str

__all__ = ["linear"]


def linear(x: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """Affine map over the last dim: ``x @ weight.T + bias``.

    ``x`` is ``[*, in_features]``, ``weight`` ``[out_features, in_features]``,
    ``bias`` ``[out_features]``. One node in the graph (as PyTorch's addmm), so the
    training path stays close to the raw matrix products.
    """
    xd, wd = x.data, weight.data
    if wd.ndim != 2 or xd.ndim == 0 or xd.shape[-1] != wd.shape[1]:
        raise RuntimeError(
            f"linear(): input of shape {shape_str(xd.shape)} does not match weight of shape "
            f"{shape_str(wd.shape)} (expected the input's last dim to be {wd.shape[1] if wd.ndim == 2 else '?'})"
        )
    if x._device is not weight._device:
        check_same_device(x, weight, "linear")
    if xd.dtype != wd.dtype:
        raise RuntimeError(
            f"linear(): input dtype {xd.dtype} and weight dtype {wd.dtype} differ; "
            f"convert the input (x.to({wd.dtype})) or the module (.to({xd.dtype}))"
        )
    out = xd @ wd.T
    parents = (x, weight)
    if bias is not None:
        if bias._device is not weight._device:
            check_same_device(bias, weight, "linear")
        if bias.data.dtype != wd.dtype:
            raise RuntimeError(f"self and mat2 must have the same dtype, but got {bias.data.dtype} and {wd.dtype}")
        if bias.data.shape not in ((), (1,), (wd.shape[0],)):
            raise RuntimeError(
                f"linear(): bias of shape {shape_str(bias.data.shape)} does not match the {wd.shape[0]} output features"
            )
        out += bias.data
        parents = (x, weight, bias)
    in_features, out_features = wd.shape[1], wd.shape[0]

    def backward(g):
        rows = g if g.ndim == 2 else g.reshape(-1, out_features)
        x_rows = x if x.ndim == 2 else x.reshape(-1, in_features)
        grads = (lambda: g @ weight, lambda: rows.mT @ x_rows, lambda: rows.sum(0))
        return grads if bias is not None else grads[:2]

    def jvp(tx, tw, tb=None):
        tangent = tx @ weight.transpose(0, 1) + x @ tw.transpose(0, 1)
        return tangent if tb is None else tangent + tb

    return make(out, parents, backward, "linear", jvp)
