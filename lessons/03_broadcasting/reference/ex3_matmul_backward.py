"""Exercise 3.3 — the backward of matmul.

For C = A @ B with A of shape (n, k) or (batch, n, k), B of shape (k, m), and the
incoming gradient G = dL/dC, return (dL/dA, dL/dB) as NumPy arrays with the shapes
of A and B.
"""

import numpy as np


def matmul_backward(A: np.ndarray, B: np.ndarray, G: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(dL/dA, dL/dB) for C = A @ B."""
    # BEGIN SOLUTION
    # HINT: match the shapes; with a batch, B's gradient sums over the batch.
    dA = G @ B.T
    dB = np.swapaxes(A, -1, -2) @ G
    if dB.ndim == 3:
        dB = dB.sum(axis=0)
    return dA, dB
    # END SOLUTION
