"""The autograd API: backward, grad, grad modes, anomaly mode (and, built on them,
custom Functions, gradcheck and the functional API)."""

from . import forward_ad, functional
from .anomaly import detect_anomaly, is_anomaly_enabled, set_detect_anomaly
from .engine import backward, grad
from .function import Function, FunctionCtx
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck

__all__ = [
    "backward",
    "grad",
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "inference_mode",
    "is_grad_enabled",
    "is_inference_mode_enabled",
    "detect_anomaly",
    "set_detect_anomaly",
    "is_anomaly_enabled",
    "gradcheck",
    "gradgradcheck",
    "GradcheckError",
    "Function",
    "FunctionCtx",
    "functional",
    "forward_ad",
]
