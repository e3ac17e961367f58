# Exercise file generated from reference/ex2_unbroadcast.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 3.2 — sum a broadcast gradient back to a parent's shape.

`g` is a NumPy array with the shape of an op's output; `shape` is the shape of one
parent, which broadcasting stretched to the output's shape. Return an array of
exactly `shape` whose entries are the sums of the entries of `g` each parent element
fed into.
"""

import numpy as np


def unbroadcast(g: np.ndarray, shape: tuple) -> np.ndarray:
    """Reduce `g` to `shape` by summing over the broadcast dims."""
    # HINT: first the extra leading dims, then the dims where shape has a 1 (keepdims=True).
    raise NotImplementedError("exercise: write unbroadcast()")
