"""Normalisation layers: LayerNorm, BatchNorm1d and BatchNorm2d."""

from __future__ import annotations

from ..creation import ones, zeros
from ..tensor import Tensor, shape_str, tensor
from . import functional as F
from .module import Module
from .parameter import Parameter


def register_scale_and_shift(module: Module, shape, affine: bool, bias: bool, dtype, device) -> None:
    """A norm layer's learned ``weight`` (ones) and ``bias`` (zeros) of ``shape``: both None without ``affine``,
    the bias None with ``bias=False``."""
    scale = Parameter(ones(shape, dtype=dtype, device=device)) if affine else None
    module.register_parameter("weight", scale)
    module.register_parameter("bias", Parameter(zeros(shape, dtype=dtype, device=device)) if affine and bias else None)


__all__ = ["LayerNorm", "BatchNorm1d", "BatchNorm2d"]


class LayerNorm(Module):
    """Normalise over the trailing ``normalized_shape`` dims, then scale by ``weight`` and shift by ``bias``."""

    def __init__(
        self,
        normalized_shape,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        device=None,
        dtype=None,
    ):
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape = shape
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        register_scale_and_shift(self, shape, elementwise_affine, bias, dtype, device)

    def forward(self, x: Tensor) -> Tensor:
        k = len(self.normalized_shape)
        shape = tuple(x.shape)  # one entry's, inside vmap
        if shape[len(shape) - k :] != self.normalized_shape or len(shape) < k:
            raise RuntimeError(
                f"{self._label()}: expected input of shape [*, {', '.join(map(str, self.normalized_shape))}] "
                f"(normalized_shape={shape_str(self.normalized_shape)}), got input of shape {shape_str(shape)}"
            )
        return F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class BatchNorm1d(Module):
    """Batch normalisation of ``[N, C]`` or ``[N, C, L]`` inputs over each channel ``C``.

    Training mode normalises with the batch's statistics and updates the running
    mean and (unbiased) variance; eval mode uses the running statistics.
    ``momentum=None`` makes the running statistics a cumulative average.
    """

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        register_scale_and_shift(self, num_features, affine, bias, dtype, device)
        if track_running_stats:
            self.register_buffer("running_mean", zeros(num_features, dtype=dtype, device=device))
            self.register_buffer("running_var", ones(num_features, dtype=dtype, device=device))
            self.register_buffer("num_batches_tracked", tensor(0, dtype="int64", device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    _INPUT_DIMS = {2: "[N, C]", 3: "[N, C, L]"}

    def forward(self, x: Tensor) -> Tensor:
        shape = tuple(x.shape)  # inside vmap, one entry's
        if len(shape) not in self._INPUT_DIMS:
            dims = " or ".join(f"{n}D" for n in self._INPUT_DIMS)
            shapes = " or ".join(self._INPUT_DIMS.values())
            raise ValueError(
                f"{self._label()}: expected {dims} input ({shapes}), got input of shape {shape_str(shape)}"
            )
        if shape[1] != self.num_features:
            raise RuntimeError(
                f"{self._label()}: expected input with num_features={self.num_features} channels in dim 1, "
                f"got input of shape {shape_str(shape)} ({shape[1]} channels)"
            )
        use_batch_stats = self.training or self.running_mean is None
        momentum = self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked.array += 1
            if momentum is None:
                momentum = 1.0 / int(self.num_batches_tracked.array)
        return F.batch_norm(
            x,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            training=use_batch_stats,
            momentum=0.0 if momentum is None else momentum,
            eps=self.eps,
        )

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
            + f"bias={self.bias is not None}, "
            + f"track_running_stats={self.track_running_stats}"
        )


class BatchNorm2d(BatchNorm1d):
    """Batch normalisation of ``[N, C, H, W]`` images over each channel ``C`` (statistics over N, H and W)."""

    _INPUT_DIMS = {4: "[N, C, H, W]"}
