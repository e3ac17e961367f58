# Exercise file generated from reference/ex3_nan_hunt.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
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
    # HINT: look at `closure_called` events; each has `outputs` (Snapshots, or None) and `node`.
    # HINT: Snapshot.has_nonfinite() tells you; trace.nodes[event.node].label names the node.
    raise NotImplementedError("exercise: write first_nonfinite_node()")


def safe_sqrt(x):
    """sqrt(x) for x > 0, else 0 — with a finite gradient everywhere."""
    # HINT: the "double where": make sure sqrt never even sees a value <= 0.
    raise NotImplementedError("exercise: write safe_sqrt()")
