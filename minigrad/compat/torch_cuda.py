"""``torch.cuda`` as torch's CPU build answers it: no device; seeding and cache calls do nothing,
and calls that need a device raise torch's AssertionError.

(minigrad's own CUDA tensors, through CuPy, are used with minigrad's API; a PyTorch program
run under the hook runs on the CPU.)
"""

from __future__ import annotations

__all__ = [
    "current_device",
    "device_count",
    "empty_cache",
    "get_device_name",
    "get_device_properties",
    "is_available",
    "is_bf16_supported",
    "is_initialized",
    "manual_seed",
    "manual_seed_all",
    "max_memory_allocated",
    "max_memory_reserved",
    "memory_allocated",
    "memory_reserved",
    "seed",
    "seed_all",
    "set_device",
    "synchronize",
]

_NO_CUDA = "Torch not compiled with CUDA enabled (minigrad runs PyTorch programs on the CPU)"


def is_available() -> bool:
    return False


def is_initialized() -> bool:
    return False


def is_bf16_supported(including_emulation: bool = True) -> bool:
    return False


def device_count() -> int:
    return 0


def manual_seed(seed: int) -> None:
    """Nothing to seed without a device (as torch's CPU build)."""


def manual_seed_all(seed: int) -> None:
    """Nothing to seed without a device (as torch's CPU build)."""


def seed() -> None:
    """Nothing to seed without a device (as torch's CPU build)."""


def seed_all() -> None:
    """Nothing to seed without a device (as torch's CPU build)."""


def empty_cache() -> None:
    """No cache to empty."""


def memory_allocated(device=None) -> int:
    return 0


def max_memory_allocated(device=None) -> int:
    return 0


def memory_reserved(device=None) -> int:
    return 0


def max_memory_reserved(device=None) -> int:
    return 0


def _no_device(*args, **kwargs):
    raise AssertionError(_NO_CUDA)


current_device = get_device_name = get_device_properties = set_device = synchronize = _no_device
