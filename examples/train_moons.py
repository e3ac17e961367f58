"""Train an MLP on the two-moons dataset to 100% training accuracy (a second or two).

python examples/train_moons.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _progress import training_bar  # noqa: E402


def train(steps: int = 300, n_samples: int = 200, seed: int = 0, progress: bool = True) -> dict:
    """Full-batch Adam on ``make_moons``; returns the final loss and training accuracy."""
    mg.manual_seed(seed)
    X, y = mg.data.make_moons(n_samples, noise=0.1)
    x, target = mg.tensor(X), mg.tensor(y)
    model = nn.MLP(2, [16, 16], 2)
    optimizer = mg.optim.Adam(model.parameters(), lr=0.03)
    with training_bar(steps, "moons", enabled=progress) as update:
        for _ in range(steps):
            logits = model(x)
            loss = F.cross_entropy(logits, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            accuracy = float((logits.argmax(1).numpy() == y).mean())
            update(loss=loss.item(), acc=accuracy)
    with mg.no_grad():
        accuracy = float((model(x).argmax(1).numpy() == y).mean())
    return {"loss": loss.item(), "accuracy": accuracy, "model": model}


if __name__ == "__main__":
    result = train()
    print(f"final loss {result['loss']:.4f}, training accuracy {result['accuracy']:.1%}")
