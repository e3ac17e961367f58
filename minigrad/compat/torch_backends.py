"""``torch.backends.*`` as torch's CPU build answers it: no cuDNN, CUDA or MPS; settings are kept
(a script may set ``torch.backends.cudnn.benchmark = True``) and change nothing."""

from __future__ import annotations

from types import SimpleNamespace

__all__ = ["ABSENT", "CUDA", "CUDNN"]


def _false(*args, **kwargs) -> bool:
    return False


def _none() -> None:
    return None


#: A backend this build lacks (mps, mkldnn, mkl, openmp, opt_einsum).
ABSENT = {"is_available": _false, "is_built": _false, "enabled": False}
CUDNN = {
    "is_available": _false,
    "version": _none,
    "enabled": True,
    "benchmark": False,
    "deterministic": False,
    "allow_tf32": True,
}
CUDA = {
    "is_built": _false,
    "matmul": SimpleNamespace(
        allow_tf32=False,
        allow_fp16_reduced_precision_reduction=True,
        allow_bf16_reduced_precision_reduction=True,
    ),
    "flash_sdp_enabled": _false,
    "mem_efficient_sdp_enabled": _false,
    "enable_flash_sdp": _none,
    "enable_mem_efficient_sdp": _none,
    "enable_math_sdp": _none,
}
