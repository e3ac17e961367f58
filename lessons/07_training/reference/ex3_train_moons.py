"""Exercise 7.3 — train a classifier on the two moons.

Write `train_moons(X, y)`: build a model, train it on the points `X` (a float32
NumPy array [n, 2]) and labels `y` (0 or 1), and return the trained model — a
callable that maps a tensor [n, 2] to logits [n, 2]. The check trains on 200 noisy
points and then measures accuracy on 400 *new* points from the same distribution:
it needs at least 95%, and the whole thing must take under 10 seconds.

Use minigrad.nn (Sequential, Linear, an activation), minigrad.nn.functional.cross_entropy,
and an optimizer from minigrad.optim.
"""

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F


def train_moons(X, y):
    """A model trained on (X, y)."""
    # BEGIN SOLUTION
    # HINT: two hidden layers of 16 tanh units and Adam(lr=0.03) for ~300 full-batch steps is plenty.
    mg.manual_seed(0)
    x, target = mg.tensor(X), mg.tensor(y)
    model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 2))
    optimizer = mg.optim.Adam(model.parameters(), lr=0.03)
    for _ in range(300):
        loss = F.cross_entropy(model(x), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model
    # END SOLUTION
