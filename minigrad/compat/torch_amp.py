"""``torch.amp``'s GradScaler and autocast as torch's CPU build has them: disabled, with torch's notice."""

from __future__ import annotations

import functools
import warnings

from .errors import missing_message

__all__ = ["GradScaler", "autocast"]


class GradScaler:
    """A gradient scaler that is always disabled, as torch's on a machine without CUDA:
    ``scale`` returns its argument, ``step`` calls ``optimizer.step()``, ``update`` does nothing."""

    def __init__(
        self,
        device: str = "cuda",
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ):
        if enabled:
            warnings.warn(
                f"torch.amp.GradScaler is enabled, but {device.upper()} is not available under minigrad. Disabling.",
                stacklevel=2,
            )
        self.device = device
        self._growth = (growth_factor, backoff_factor, growth_interval)

    def scale(self, outputs):
        return outputs

    def unscale_(self, optimizer) -> None:
        """Nothing to unscale."""

    def step(self, optimizer, *args, **kwargs):
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None) -> None:
        """Nothing to update."""

    def get_scale(self) -> float:
        return 1.0

    def get_growth_factor(self) -> float:
        return self._growth[0]

    def get_backoff_factor(self) -> float:
        return self._growth[1]

    def get_growth_interval(self) -> int:
        return self._growth[2]

    def is_enabled(self) -> bool:
        return False

    def state_dict(self) -> dict:
        return {}

    def load_state_dict(self, state_dict: dict) -> None:
        """A disabled scaler has no state to load."""


class autocast:  # noqa: N801  (torch's name)
    """Mixed precision off: on ``'cuda'`` disabled with torch's warning (no CUDA under minigrad),
    and refused on ``'cpu'`` when enabled, since minigrad has no bfloat16 to compute in."""

    def __init__(self, device_type: str, dtype=None, enabled: bool = True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        if enabled and device_type == "cpu":
            raise NotImplementedError(missing_message("torch.autocast on the CPU (lower-precision compute)"))
        if enabled:
            warnings.warn(
                f"User provided device_type of '{device_type}', but {device_type.upper()} is not available "
                "under minigrad. Disabling",
                stacklevel=2,
            )
        self.device_type = device_type

    def __enter__(self) -> autocast:
        return self

    def __exit__(self, *exc) -> None:
        return None

    def __call__(self, fn):
        @functools.wraps(fn)
        def run(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)

        return run


def _cuda_grad_scaler(init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000, enabled=True):
    return GradScaler("cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled)


def _cuda_autocast(enabled: bool = True, dtype=None, cache_enabled: bool = True) -> autocast:
    return autocast("cuda", dtype, enabled, cache_enabled)


def _cpu_autocast(enabled: bool = True, dtype=None, cache_enabled: bool = True) -> autocast:
    return autocast("cpu", dtype, enabled, cache_enabled)


_cuda_grad_scaler.__name__ = "GradScaler"
_cuda_autocast.__name__ = _cpu_autocast.__name__ = "autocast"

#: ``torch.cuda.amp`` and ``torch.cpu.amp``: the device fixed, as in torch.
CUDA_AMP = {"GradScaler": _cuda_grad_scaler, "autocast": _cuda_autocast}
CPU_AMP = {"autocast": _cpu_autocast}
