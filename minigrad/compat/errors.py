"""What a PyTorch name minigrad lacks raises, with one message that says where to look."""

from __future__ import annotations

__all__ = ["MissingTorchName", "missing_message", "unavailable"]


def missing_message(path: str) -> str:
    """The one sentence every missing torch name raises: ``minigrad has no torch.fft.rfft (not implemented); ...``."""
    return f"minigrad has no {path} (not implemented); see README 'PyTorch coverage'"


class MissingTorchName(AttributeError):
    """A torch name minigrad does not have.

    An AttributeError, so ``hasattr(torch, name)`` and ``getattr(torch, name, default)``
    answer as they would for any module without that name.
    """

    def __init__(self, path: str):
        super().__init__(missing_message(path))
        self.path = path


def unavailable(path: str):
    """A stand-in for a torch function a CPU-only program imports but never calls on the CPU path
    (``from torch.distributed import init_process_group``): importing works, calling raises."""

    def refuse(*args, **kwargs):
        raise NotImplementedError(missing_message(path))

    refuse.__name__ = refuse.__qualname__ = path.rsplit(".", 1)[-1]
    refuse.__doc__ = missing_message(path)
    return refuse
