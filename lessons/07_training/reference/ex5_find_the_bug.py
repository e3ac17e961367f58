"""Exercise 7.5 (debugging) — a training loop that never learns.

`buggy_train` below runs without an error, prints a loss, and ends where it started:
its accuracy on the moons stays at chance. One line is in the wrong place. Step it, from this lesson's folder:

    minigrad-tui ex5_find_the_bug.py

go to the first pass (`g`, `p1`, Enter) and watch a weight (`/`, `weight`, Enter, `w`): its gradient
arrives during each pass — and what is left of it when `optimizer.step()` runs?
Then write `train_moons` correctly: it must score at least 95% on 400 new points.
"""

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F


def buggy_train(X, y, steps=20):
    """Train a small MLP on (X, y); one line is in the wrong place. Returns (model, losses)."""
    mg.manual_seed(0)
    x, target = mg.tensor(X), mg.tensor(y)
    model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
    optimizer = mg.optim.Adam(model.parameters(), lr=0.05)
    losses = []
    for _ in range(steps):
        loss = F.cross_entropy(model(x), target)
        loss.backward()
        optimizer.zero_grad()
        optimizer.step()
        losses.append(loss.item())
    return model, losses


def grad_when_step_runs():
    """The .grad of every parameter at the moment buggy_train calls optimizer.step()."""
    # BEGIN SOLUTION
    # HINT: what does zero_grad() set each .grad to (its default, as in PyTorch)?
    return None
    # END SOLUTION


def train_moons(X, y):
    """A model trained on (X, y): a callable mapping a tensor [n, 2] to logits [n, 2].

    The check trains on 200 noisy points and measures accuracy on 400 *new* points from
    the same distribution: it needs at least 95%.
    """
    # BEGIN SOLUTION
    # HINT: two hidden layers of 16 tanh units and Adam(lr=0.03) for ~300 full-batch steps is plenty.
    # HINT: the order in each step: forward, loss, zero_grad, backward, step.
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


if __name__ == "__main__":
    X, y = mg.data.make_moons(100, noise=0.1, seed=0)
    _, losses = buggy_train(X, y, steps=3)
    print("losses of the buggy loop:", [round(v, 4) for v in losses])
