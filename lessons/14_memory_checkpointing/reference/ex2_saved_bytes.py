"""Implementation — measure what the rules saved, from a recorded trace.

Every ``closure_called`` event lists the values the rule captured (``ev.captured``): a captured tensor
has ``kind`` "tensor" (or "weakref", a rule's own output, held weakly) and a ``tensor_id``, which
``trace.nodes[tensor_id]`` describes (``shape``, ``dtype`` such as "float32", ``is_leaf``).

Write ``saved_bytes(trace, pass_id)``: the bytes of the distinct tensors that the rules called in pass
``pass_id`` captured, leaves left out (the inputs and the parameters live anyway). A tensor captured by
two rules, or twice by one, counts once.

Then ``peak_saved_bytes(trace, pass_id)``: a checkpoint's rule recomputes its segment and runs a
nested pass through it while the outer graph still holds what it saved. The peak is the outer pass's
saved bytes plus the largest of its nested passes' (those that start while ``pass_id`` runs, one level
deeper: ``ev.depth``); with no nested pass, it is the pass's own saved bytes.
"""

import math

import numpy as np


def tensor_bytes(info) -> int:
    """The bytes of the tensor a NodeInfo describes."""
    # BEGIN SOLUTION
    return math.prod(info.shape) * np.dtype(info.dtype).itemsize
    # END SOLUTION


def saved_bytes(trace, pass_id: int) -> int:
    """The bytes of the distinct non-leaf tensors the rules of pass ``pass_id`` captured."""
    # BEGIN SOLUTION
    # HINT: a set of tensor ids; look each one up in trace.nodes.
    seen = set()
    for ev in trace.find("closure_called"):
        if ev.pass_id != pass_id:
            continue
        for captured in ev.captured:
            if captured.kind in ("tensor", "weakref") and not trace.nodes[captured.tensor_id].is_leaf:
                seen.add(captured.tensor_id)
    return sum(tensor_bytes(trace.nodes[tid]) for tid in seen)
    # END SOLUTION


def peak_saved_bytes(trace, pass_id: int) -> int:
    """``saved_bytes`` of the pass plus the largest ``saved_bytes`` of a pass nested in it."""
    # BEGIN SOLUTION
    # HINT: find the seq of the pass's pass_started and pass_finished events first.
    (start,) = [ev for ev in trace.find("pass_started") if ev.pass_id == pass_id]
    end = max(ev.seq for ev in trace.events if ev.pass_id == pass_id)
    nested = [
        ev.pass_id for ev in trace.find("pass_started") if start.seq < ev.seq < end and ev.depth == start.depth + 1
    ]
    return saved_bytes(trace, pass_id) + max((saved_bytes(trace, p) for p in nested), default=0)
    # END SOLUTION
