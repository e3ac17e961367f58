"""Which minigrad module stands behind each ``torch`` module the import hook serves.

Each entry names the minigrad module whose attributes the torch module shows (None: a stub
with no backing) and the compat namespace that adds or overrides names (None: nothing added).
A compat namespace is ``"module"`` (its ``__all__``) or ``"module:NAME"`` (a dict in it).
"""

from __future__ import annotations

from typing import NamedTuple

from .torch_nn_modules import SUBMODULES

__all__ = ["Entry", "MODULES", "STUBS", "entry_for"]


class Entry(NamedTuple):
    backing: str | None
    extras: str | None = None


_COMPAT = "minigrad.compat"

MODULES = {
    "torch": Entry("minigrad", f"{_COMPAT}.torch_top"),
    "torch.nn": Entry("minigrad.nn", f"{_COMPAT}.torch_parallel:NN"),
    "torch.nn.functional": Entry("minigrad.nn.functional"),
    "torch.nn.init": Entry("minigrad.nn.init"),
    "torch.nn.modules": Entry("minigrad.nn"),
    **{f"torch.nn.modules.{name}": Entry("minigrad.nn") for name in SUBMODULES},
    "torch.nn.modules.linear": Entry("minigrad.nn", f"{_COMPAT}.torch_nn_modules:LINEAR"),
    "torch.serialization": Entry(None, f"{_COMPAT}.torch_serialization"),
    "torch.nn.parameter": Entry("minigrad.nn.parameter"),
    "torch.nn.utils": Entry("minigrad.nn.utils"),
    "torch.nn.parallel": Entry(None, f"{_COMPAT}.torch_parallel"),
    "torch.optim": Entry("minigrad.optim"),
    "torch.optim.lr_scheduler": Entry("minigrad.optim.lr_scheduler"),
    "torch.optim.optimizer": Entry("minigrad.optim.optimizer"),
    "torch.autograd": Entry("minigrad.autograd"),
    "torch.autograd.functional": Entry("minigrad.autograd.functional"),
    "torch.autograd.forward_ad": Entry("minigrad.autograd.forward_ad"),
    "torch.func": Entry("minigrad.func"),
    "torch.linalg": Entry("minigrad.ops.linalg"),
    "torch.special": Entry(None, f"{_COMPAT}.torch_special"),
    "torch.utils": Entry("minigrad.utils"),
    "torch.utils.data": Entry("minigrad.data"),
    "torch.utils.data.dataloader": Entry("minigrad.data.loader"),
    "torch.utils.data.dataset": Entry("minigrad.data.dataset"),
    "torch.utils.data.sampler": Entry("minigrad.data.sampler"),
    "torch.utils.checkpoint": Entry("minigrad.utils.checkpoint"),
    "torch.distributions": Entry("minigrad.distributions"),
    "torch.distributions.normal": Entry("minigrad.distributions"),
    "torch.distributions.categorical": Entry("minigrad.distributions"),
    "torch.distributions.kl": Entry("minigrad.distributions"),
    "torch.cuda": Entry(None, f"{_COMPAT}.torch_cuda"),
    "torch.cuda.amp": Entry(None, f"{_COMPAT}.torch_amp:CUDA_AMP"),
    "torch.amp": Entry(None, f"{_COMPAT}.torch_amp"),
    "torch.cpu": Entry(None, f"{_COMPAT}.torch_devices:CPU"),
    "torch.cpu.amp": Entry(None, f"{_COMPAT}.torch_amp:CPU_AMP"),
    "torch.mps": Entry(None, f"{_COMPAT}.torch_devices:ABSENT"),
    "torch.xpu": Entry(None, f"{_COMPAT}.torch_devices:ABSENT"),
    "torch.accelerator": Entry(None, f"{_COMPAT}.torch_devices:ACCELERATOR"),
    "torch.backends": Entry(None),
    "torch.backends.cudnn": Entry(None, f"{_COMPAT}.torch_backends:CUDNN"),
    "torch.backends.cuda": Entry(None, f"{_COMPAT}.torch_backends:CUDA"),
    "torch.backends.mps": Entry(None, f"{_COMPAT}.torch_backends:ABSENT"),
    "torch.backends.mkldnn": Entry(None, f"{_COMPAT}.torch_backends:ABSENT"),
    "torch.backends.mkl": Entry(None, f"{_COMPAT}.torch_backends:ABSENT"),
    "torch.backends.openmp": Entry(None, f"{_COMPAT}.torch_backends:ABSENT"),
    "torch.backends.opt_einsum": Entry(None, f"{_COMPAT}.torch_backends:ABSENT"),
    "torch.distributed": Entry(None, f"{_COMPAT}.torch_distributed"),
    "torch.version": Entry(None, f"{_COMPAT}.torch_top:VERSION"),
    "torch.jit": Entry(None, f"{_COMPAT}.torch_jit"),
}

#: torch's other modules: importable, every name in them missing (it raises when first used).
STUBS = (
    "ao",
    "compiler",
    "export",
    "fft",
    "functional",
    "futures",
    "fx",
    "hub",
    "library",
    "masked",
    "monitor",
    "mtia",
    "multiprocessing",
    "nested",
    "onnx",
    "overrides",
    "package",
    "profiler",
    "quantization",
    "quasirandom",
    "random",
    "return_types",
    "signal",
    "sparse",
    "storage",
    "testing",
    "types",
)


def entry_for(name: str) -> Entry | None:
    """The entry for the torch module ``name``; None when minigrad has no such module.

    A module below a stub is a stub too (``torch.jit.frontend``); one below a module
    with a backing is served when minigrad has the same module there (``torch.nn.utils.clip_grad``).
    """
    if name in MODULES:
        return MODULES[name]
    if name.startswith("torch.") and name[len("torch.") :] in STUBS:
        return Entry(None)
    parent, _, child = name.rpartition(".")
    if parent in ("", "torch"):  # torch's own modules are all listed (minigrad.trace is not torch.trace)
        return None
    above = entry_for(parent)
    if above is None:
        return None
    if above.backing is None:
        return Entry(None)
    import importlib.util

    backing = f"{above.backing}.{child}"
    try:
        found = importlib.util.find_spec(backing) is not None
    except ModuleNotFoundError:
        found = False
    return Entry(backing) if found else None
