"""RMSNorm, InstanceNorm1d/2d/3d and LocalResponseNorm, as torch.nn's (same parameters, buffers and
state_dict names)."""

from __future__ import annotations

import warnings

from ..creation import ones, zeros
from ..tensor import Tensor, tensor
from .functional import _instance_rms_norm as N
from .module import Module
from .normalization import register_scale_and_shift
from .parameter import Parameter

__all__ = ["RMSNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LocalResponseNorm"]


class RMSNorm(Module):
    """Divide by the root mean square over the trailing ``normalized_shape`` dims, then scale by ``weight``.

    ``eps=None`` uses the machine epsilon of the input's dtype.
    """

    def __init__(
        self, normalized_shape, eps: float | None = None, elementwise_affine: bool = True, device=None, dtype=None
    ):
        super().__init__()
        self.normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(ones(self.normalized_shape, dtype=dtype, device=device))
        else:
            self.register_parameter("weight", None)

    def reset_parameters(self) -> None:
        if self.weight is not None:
            self.weight.array[...] = 1

    def forward(self, x: Tensor) -> Tensor:
        return N.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class _InstanceNorm(Module):
    """Each channel of each sample normalised over its spatial dims; ``[C, *spatial]`` unbatched input too."""

    _SPATIAL = 1

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = False,
        track_running_stats: bool = False,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        kw = dict(dtype=dtype, device=device)
        register_scale_and_shift(self, num_features, affine, bias, dtype, device)
        if track_running_stats:
            self.register_buffer("running_mean", zeros(num_features, **kw))
            self.register_buffer("running_var", ones(num_features, **kw))
            self.register_buffer("num_batches_tracked", tensor(0, dtype="int64", device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        unbatched = self._SPATIAL + 1
        if input.dim() not in (unbatched, unbatched + 1):
            raise ValueError(f"expected {unbatched}D or {unbatched + 1}D input (got {input.dim()}D input)")
        feature_dim = input.dim() - unbatched
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise ValueError(
                    f"expected input's size at dim={feature_dim} to match num_features ({self.num_features}), "
                    f"but got: {input.shape[feature_dim]}."
                )
            warnings.warn(
                f"input's size at dim={feature_dim} does not match num_features. You can silence this warning by "
                "not passing in num_features, which is not used because affine=False",
                UserWarning,
                stacklevel=3,
            )
        x = input.unsqueeze(0) if input.dim() == unbatched else input
        y = N.instance_norm(
            x,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            self.training or not self.track_running_stats,
            self.momentum if self.momentum is not None else 0.0,
            self.eps,
        )
        return y.squeeze(0) if input.dim() == unbatched else y

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
            f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}"
        )


class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of ``[N, C, L]`` (or ``[C, L]``)."""

    _SPATIAL = 1


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of ``[N, C, H, W]`` (or ``[C, H, W]``)."""

    _SPATIAL = 2


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of ``[N, C, D, H, W]`` (or ``[C, D, H, W]``)."""

    _SPATIAL = 3


class LocalResponseNorm(Module):
    """Each value divided by ``(k + alpha * mean of squares over size neighbouring channels) ** beta``."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return N.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
