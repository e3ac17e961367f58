"""Process- and thread-wide switches read on the hot path (grad mode, anomaly mode, pass depth).

Kept in a module with no imports so that ``tensor`` and ``autograd`` can both
read them without import cycles. The public API is in ``minigrad.autograd``.
"""

import itertools
import threading


class GradState(threading.local):
    """Grad mode, per thread (as in PyTorch)."""

    enabled = True
    inference = False


class Extras:
    """Process-wide: ``on`` while anomaly mode, a forward-AD level or inference tensors are about, so that
    making a tensor tests one flag for all three (kept by the setters below)."""

    on = False


def _refresh_extras() -> None:
    extras.on = anomaly._enabled or forward._level >= 0 or inference_tensors._entered


class AnomalyState:
    """Anomaly detection, process-wide (as in PyTorch)."""

    _enabled = False
    check_nan = True

    @property
    def enabled(self) -> bool:
        return self._enabled

    @enabled.setter
    def enabled(self, value: bool) -> None:
        self._enabled = value
        _refresh_extras()


class ForwardState:
    """Forward-mode AD, process-wide (as PyTorch's dual levels): ``level`` is -1 outside a level;
    ``epoch`` changes on entering and leaving one, so tangents of a finished level are never read."""

    _level = -1
    epoch = 0
    in_rule = False  # a forward-mode rule is running: its own tensors are arithmetic, not graph nodes

    @property
    def level(self) -> int:
        return self._level

    @level.setter
    def level(self, value: int) -> None:
        self._level = value
        _refresh_extras()


class InferenceTensors:
    """Process-wide: ``entered`` once any thread has entered inference mode (then new tensors check the
    thread's mode), ``made`` once a tensor was made in it (then recorded ops check their parents)."""

    _entered = False
    made = False

    @property
    def entered(self) -> bool:
        return self._entered

    @entered.setter
    def entered(self, value: bool) -> None:
        self._entered = value
        _refresh_extras()


class PassDepth(threading.local):
    """How many backward passes are running in this thread (2 inside a grad() called from a closure)."""

    depth = 0


grad = GradState()
passes = PassDepth()
pass_ids = itertools.count(1)  # every backward pass, ours or a learner's engine (trace.emit), gets the next id
extras = Extras()
inference_tensors = InferenceTensors()
anomaly = AnomalyState()
forward = ForwardState()


class VmapLevels(threading.local):
    """The ``vmap`` calls running in this thread, outermost first (``minigrad.batching``): while any runs,
    every public op checks its arguments for batched tensors."""

    levels = ()


vmap = VmapLevels()
