"""Learning-rate schedules (``minigrad.optim.lr_scheduler``, PyTorch's ``torch.optim.lr_scheduler``).

Each sets ``group["lr"]`` of its optimizer on ``step()`` (an lr given as a tensor is written in place);
call it after ``optimizer.step()``: once per epoch, or per batch for CyclicLR and OneCycleLR;
ReduceLROnPlateau's ``step(metric)`` takes the measured quantity.
"""

from .base import LRScheduler
from .composite import ChainedScheduler, SequentialLR
from .cyclic import CyclicLR, OneCycleLR
from .decay import (
    ConstantLR,
    CosineAnnealingLR,
    CosineAnnealingWarmRestarts,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    MultiplicativeLR,
    MultiStepLR,
    PolynomialLR,
    StepLR,
)
from .plateau import ReduceLROnPlateau

_LRScheduler = LRScheduler  # PyTorch's old name, still used by older code

__all__ = [
    "LRScheduler",
    "LambdaLR",
    "MultiplicativeLR",
    "StepLR",
    "MultiStepLR",
    "ConstantLR",
    "LinearLR",
    "ExponentialLR",
    "PolynomialLR",
    "CosineAnnealingLR",
    "CosineAnnealingWarmRestarts",
    "CyclicLR",
    "OneCycleLR",
    "ReduceLROnPlateau",
    "SequentialLR",
    "ChainedScheduler",
]
