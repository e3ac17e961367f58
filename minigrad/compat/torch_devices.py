"""``torch.cpu``, ``torch.mps``, ``torch.xpu`` and ``torch.accelerator`` as torch's CPU build answers them."""

from __future__ import annotations

__all__ = ["ABSENT", "ACCELERATOR", "CPU"]

_NO_ACCELERATOR = "Cannot access accelerator device when none is available."


def _true() -> bool:
    return True


def _false() -> bool:
    return False


def _one() -> int:
    return 1


def _zero() -> int:
    return 0


def _cpu() -> str:
    return "cpu"


def _nothing(*args, **kwargs) -> None:
    return None


def _no_accelerator(*args, **kwargs):
    raise RuntimeError(_NO_ACCELERATOR)


CPU = {"is_available": _true, "device_count": _one, "synchronize": _nothing, "current_device": _cpu}
#: A device kind the machine lacks (mps, xpu).
ABSENT = {"is_available": _false, "device_count": _zero, "manual_seed": _nothing, "manual_seed_all": _nothing}
ACCELERATOR = {
    "is_available": _false,
    "device_count": _zero,
    "current_accelerator": _nothing,
    "current_device_index": _no_accelerator,
    "current_device_idx": _no_accelerator,
    "set_device_index": _no_accelerator,
    "synchronize": _no_accelerator,
    "empty_cache": _nothing,
}
