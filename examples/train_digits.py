"""Train an MLP on scikit-learn's 8x8 digits to >= 95% test accuracy (a few seconds).

python examples/train_digits.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _progress import training_bar  # noqa: E402


def evaluate(model: nn.Module, X, y) -> float:
    """Accuracy of ``model`` on arrays ``X``, ``y`` (eval mode, no graph)."""
    model.eval()
    with mg.no_grad():
        predictions = model(mg.tensor(X)).argmax(1).numpy()
    model.train()
    return float((predictions == y).mean())


def train(epochs: int = 20, batch_size: int = 64, seed: int = 0, progress: bool = True) -> dict:
    """Mini-batch AdamW on an 80/20 split of the digits; returns loss and train/test accuracy."""
    mg.manual_seed(seed)
    X, y = mg.data.load_digits()
    X_train, X_test, y_train, y_test = mg.data.train_test_split(X, y, test_fraction=0.2)
    loader = mg.data.DataLoader((X_train, y_train), batch_size=batch_size, shuffle=True)
    model = nn.MLP(64, [128], 10, dropout=0.1)
    optimizer = mg.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    scheduler = mg.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
    with training_bar(epochs * len(loader), "digits", enabled=progress) as update:
        for _ in range(epochs):
            for xb, yb in loader:
                logits = model(xb)
                loss = F.cross_entropy(logits, yb)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                update(loss=loss.item(), acc=float((logits.argmax(1) == yb).float().mean()))
            scheduler.step()
    return {
        "loss": loss.item(),
        "train_accuracy": evaluate(model, X_train, y_train),
        "test_accuracy": evaluate(model, X_test, y_test),
        "model": model,
    }


if __name__ == "__main__":
    result = train()
    print(
        f"final loss {result['loss']:.4f}, train accuracy {result['train_accuracy']:.1%}, "
        f"test accuracy {result['test_accuracy']:.1%}"
    )
