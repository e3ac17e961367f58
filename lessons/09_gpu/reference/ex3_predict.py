"""Exercise 9.3 — device-agnostic inference.

Write `predict(model, X)`: class predictions (a NumPy int array [n]) of `model` for the
NumPy inputs `X` ([n, features], float32). The model may live on any device: find it
from its parameters, move the inputs there, run the model without recording a graph,
and bring the answer back to the host.
"""

import numpy as np

import minigrad as mg


def predict(model, X) -> np.ndarray:
    """argmax of the model's logits for each row of X, as a NumPy array."""
    # BEGIN SOLUTION
    # HINT: next(model.parameters()).device; mg.no_grad(); .cpu().numpy() (or .numpy(), which copies to host).
    device = next(iter(model.parameters())).device
    with mg.no_grad():
        logits = model(mg.tensor(X).to(device))
    return logits.argmax(1).cpu().numpy()
    # END SOLUTION
