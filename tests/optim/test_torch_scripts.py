"""PyTorch training scripts that use the optimizers, schedules, DataLoader options and checkpoint of
issue 30 run unchanged under ``minigrad run --torch``, their losses equal to PyTorch's from the same
initial weights (float32, 1e-4 relative)."""

import importlib.util
import subprocess
import sys

import numpy as np
import pytest

REAL_TORCH = importlib.util.find_spec("torch") is not None

#: A training loop as course code writes it; sys.argv: initial weights, optimizer, schedule.
SCRIPT = """\
import sys
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import lr_scheduler
from torch.utils.checkpoint import checkpoint
from torch.utils.data import BatchSampler, DataLoader, SequentialSampler, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        h = checkpoint(lambda t: F.relu(self.fc1(t)), x, use_reentrant=False)
        return F.log_softmax(self.fc2(h), dim=1)


model = Net()
model.load_state_dict({k: torch.from_numpy(v) for k, v in np.load(sys.argv[1]).items()})
rng = np.random.default_rng(0)
X = torch.from_numpy(rng.standard_normal((24, 4)).astype(np.float32))
y = torch.from_numpy(rng.integers(0, 3, 24))
loader = DataLoader(TensorDataset(X, y), batch_sampler=BatchSampler(SequentialSampler(range(24)), 8, False),
                    num_workers=0, pin_memory=False)
name = sys.argv[2]
if name == "LBFGS":  # in float64: float32 rounding (torch keeps its step length a float32 tensor) sends
    model.double()     # the line searches' branches apart after a few iterations
    loader = [(data.double(), target) for data, target in loader]
    optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5, line_search_fn="strong_wolfe")
else:
    optimizer = getattr(torch.optim, name)(model.parameters())
schedules = {
    "StepLR": lambda: lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7),
    "OneCycleLR": lambda: lr_scheduler.OneCycleLR(optimizer, max_lr=0.05, total_steps=12,
                                                  cycle_momentum="momentum" in optimizer.defaults or "betas" in optimizer.defaults),
    "ReduceLROnPlateau": lambda: lr_scheduler.ReduceLROnPlateau(optimizer, patience=0, factor=0.5),
    "none": lambda: None,
}
scheduler = schedules[sys.argv[3]]()
for epoch in range(4):
    total = 0.0
    for data, target in loader:
        def closure():
            optimizer.zero_grad()
            loss = F.nll_loss(model(data), target)
            loss.backward()
            return loss
        loss = optimizer.step(closure)
        total += loss.item()
        if isinstance(scheduler, lr_scheduler.OneCycleLR):
            scheduler.step()
    if isinstance(scheduler, lr_scheduler.ReduceLROnPlateau):
        scheduler.step(total)
    elif scheduler is not None and not isinstance(scheduler, lr_scheduler.OneCycleLR):
        scheduler.step()
    print(f"{total:.9f}")
"""

RUNS = [
    ("Adadelta", "StepLR"),  # pytorch/examples' mnist
    ("Adagrad", "ReduceLROnPlateau"),
    ("Adamax", "OneCycleLR"),
    ("NAdam", "StepLR"),
    ("RAdam", "OneCycleLR"),
    ("ASGD", "none"),
    ("Rprop", "StepLR"),
    ("LBFGS", "none"),
]


def _weights(path):
    rng = np.random.default_rng(1)
    shapes = {"fc1.weight": (16, 4), "fc1.bias": (16,), "fc2.weight": (3, 16), "fc2.bias": (3,)}
    np.savez(path, **{k: rng.uniform(-0.5, 0.5, s).astype(np.float32) for k, s in shapes.items()})


def _run(tmp_path, *command):
    (tmp_path / "script.py").write_text(SCRIPT)
    done = subprocess.run([sys.executable, *command], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return [float(v) for v in done.stdout.split()]


@pytest.mark.parametrize("optimizer,schedule", RUNS)
def test_the_script_runs_unchanged_and_learns(tmp_path, optimizer, schedule):
    _weights(tmp_path / "init.npz")
    losses = _run(tmp_path, "-m", "minigrad", "run", "--torch", "script.py", "init.npz", optimizer, schedule)
    assert len(losses) == 4 and np.isfinite(losses).all()
    if optimizer != "LBFGS":  # a few line-searched iterations on each batch in turn overshoot the others
        assert losses[-1] < losses[0]
    if REAL_TORCH:
        theirs = _run(tmp_path, "script.py", "init.npz", optimizer, schedule)
        np.testing.assert_allclose(losses, theirs, rtol=1e-4)
