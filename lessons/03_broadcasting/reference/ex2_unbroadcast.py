"""Exercise 3.2 — sum a broadcast gradient back to a parent's shape.

`g` is a NumPy array with the shape of an op's output; `shape` is the shape of one
parent, which broadcasting stretched to the output's shape. Return an array of
exactly `shape` whose entries are the sums of the entries of `g` each parent element
fed into.
"""

import numpy as np


def unbroadcast(g: np.ndarray, shape: tuple) -> np.ndarray:
    """Reduce `g` to `shape` by summing over the broadcast dims."""
    # BEGIN SOLUTION
    # HINT: first the extra leading dims, then the dims where shape has a 1 (keepdims=True).
    lead = g.ndim - len(shape)
    g = g.sum(axis=tuple(range(lead))) if lead else g
    ones = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    return g.sum(axis=ones, keepdims=True) if ones else g
    # END SOLUTION
