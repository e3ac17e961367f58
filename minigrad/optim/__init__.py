"""Optimizers and learning-rate schedules (``minigrad.optim``); updates never record graphs."""

from . import lr_scheduler
from .adagrad import Adadelta, Adagrad
from .adam import Adam, AdamW
from .adam_variants import Adamax, NAdam, RAdam
from .asgd import ASGD
from .lbfgs import LBFGS
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD

__all__ = [
    "Optimizer",
    "SGD",
    "Adam",
    "AdamW",
    "RMSprop",
    "Adagrad",
    "Adadelta",
    "Adamax",
    "NAdam",
    "RAdam",
    "ASGD",
    "Rprop",
    "LBFGS",
    "lr_scheduler",
]
