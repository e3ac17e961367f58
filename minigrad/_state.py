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
    making a tensor tests one flag for all three (kept by :class:`_Switches`, below)."""

    on = False


class _Switches:
    """Process-wide state whose every write refreshes ``extras.on``. Reads are plain attribute
    reads (the hot path reads them on every op); only writes, which are rare, run Python."""

    def __setattr__(self, name: str, value) -> None:
        object.__setattr__(self, name, value)
        extras.on = anomaly.enabled or forward.level >= 0 or inference_tensors.entered


class AnomalyState(_Switches):
    """Anomaly detection, process-wide (as in PyTorch)."""

    enabled = False
    check_nan = True


class ForwardState(_Switches):
    """Forward-mode AD, process-wide (as PyTorch's dual levels). Levels nest (``func.jvp`` of ``func.jvp``):
    ``level`` is the depth of the innermost active one (-1 outside every level; lowered while a rule of a
    deeper level runs, so the rule's own ops see only the levels outside it). ``keys[d]`` names the level
    at depth ``d``, fresh on each entry, so a tangent of a finished level is never read."""

    level = -1
    keys = ()
    new_keys = itertools.count(1)
    in_rule = False  # a forward-mode rule is running: its own tensors are arithmetic, not graph nodes


class InferenceTensors(_Switches):
    """Process-wide: ``entered`` once any thread has entered inference mode (then new tensors check the
    thread's mode), ``made`` once a tensor was made in it (then recorded ops check their parents)."""

    entered = False
    made = False


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
    every public op checks its arguments for batched tensors. ``replicated``: the ids of the levels whose
    entries are all the same while ``jacrev`` runs its function (``minigrad.batching.levels.replicated``)."""

    levels = ()
    replicated = ()


vmap = VmapLevels()


class Transforms(threading.local):
    """How many ``minigrad.func`` transforms other than ``vmap`` (whose levels are above) run in this
    thread: under any of them a custom Function must have ``setup_context``, as in ``torch.func``."""

    depth = 0


transforms = Transforms()
