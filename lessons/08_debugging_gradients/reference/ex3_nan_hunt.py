"""Exercise 8.3 — hunt a NaN with a trace, then fix it.

`first_nonfinite_node(fn)`: `fn()` builds a loss and calls `.backward()`. Record it
with `minigrad.trace.record()` and return the name (the NodeInfo `label`) of the
node whose backward closure first produced a NaN or Inf — the node where
`minigrad-tui --break nonfinite` would show the problem appear. Return None when
every gradient stays finite.

`safe_sqrt(x)`: sqrt(x) where x > 0 and 0 elsewhere, whose *gradient* is finite
everywhere: 1 / (2 sqrt(x)) where x > 0 and 0 elsewhere. The demo's
`where(x > 0, x.sqrt(), 0)` gets the values right and the gradient wrong.
"""

import minigrad as mg
from minigrad.trace import record


def first_nonfinite_node(fn):
    """The label of the first node whose closure output holds NaN/Inf, or None."""
    # BEGIN SOLUTION
    # HINT: look at `closure_called` events; each has `outputs` (Snapshots, or None) and `node`.
    # HINT: Snapshot.has_nonfinite() tells you; trace.nodes[event.node].label names the node.
    with record() as trace:
        fn()
    for ev in trace.events:
        if ev.kind == "closure_called" and any(o is not None and o.has_nonfinite() for o in ev.outputs):
            return trace.nodes[ev.node].label
    return None
    # END SOLUTION


def safe_sqrt(x):
    """sqrt(x) for x > 0, else 0 — with a finite gradient everywhere."""
    # BEGIN SOLUTION
    # HINT: the "double where": make sure sqrt never even sees a value <= 0.
    positive = x > 0
    return mg.where(positive, mg.where(positive, x, 1.0).sqrt(), 0.0)
    # END SOLUTION
