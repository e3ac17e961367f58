"""Run PyTorch programs unchanged on minigrad.

``minigrad run --torch script.py`` (and ``minigrad-tui --torch``, ``minigrad trace --torch``)
make ``import torch`` give minigrad for that run only; in a notebook::

    from minigrad.compat import install_torch
    install_torch()              # import torch now gives minigrad
    with install_torch(): ...    # ... only inside the block

A torch name minigrad lacks raises :class:`MissingTorchName` (an AttributeError) when first
used, saying ``minigrad has no torch.fft.rfft (not implemented); see README 'PyTorch coverage'``.
A real torch already imported is set aside while the hook is installed and restored after.
"""

from __future__ import annotations

import contextlib

from .errors import MissingTorchName
from .hook import TorchHook, installed, uninstall

__all__ = ["MissingTorchName", "TorchHook", "install_torch", "torch_imports", "torch_installed", "uninstall_torch"]


def install_torch() -> TorchHook:
    """Make ``import torch`` give minigrad until :func:`uninstall_torch` (or the end of a ``with`` block)."""
    from .hook import install

    return install()


def torch_imports(enabled: bool):
    """A context in which ``import torch`` gives minigrad when ``enabled`` (else it changes nothing):
    what ``--torch`` does around a run in every command that has it."""
    return install_torch() if enabled else contextlib.nullcontext()


uninstall_torch = uninstall
torch_installed = installed
