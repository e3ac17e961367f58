# Exercise file generated from reference/ex3_matmul_backward.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 3.3 — the backward of matmul.

For C = A @ B with A of shape (n, k) or (batch, n, k), B of shape (k, m), and the
incoming gradient G = dL/dC, return (dL/dA, dL/dB) as NumPy arrays with the shapes
of A and B.
"""

import numpy as np


def matmul_backward(A: np.ndarray, B: np.ndarray, G: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(dL/dA, dL/dB) for C = A @ B."""
    # HINT: match the shapes; with a batch, B's gradient sums over the batch.
    raise NotImplementedError("exercise: write matmul_backward()")
