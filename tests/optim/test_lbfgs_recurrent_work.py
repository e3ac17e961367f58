"""LBFGS over a recurrent model stepped by hand (pytorch/examples' time_sequence_prediction): the work of
each closure does not grow with the closures and steps before it, grows linearly with the sequence
length, and each closure's graph is freed by reference counting alone (the cyclic GC has nothing to do).

Work is counted in tensors made (ids only grow, one per tensor), not in time."""

import gc
import weakref

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn


def _closure_records(length: int, steps: int = 2, max_iter: int = 3):
    """Train the example's two LSTMCells and Linear on sine waves; per closure, the number of tensors it
    made (forward and backward) and a weak reference to its loss."""
    mg.manual_seed(0)
    cell1, cell2, linear = nn.LSTMCell(1, 5).double(), nn.LSTMCell(5, 5).double(), nn.Linear(5, 1).double()
    params = [*cell1.parameters(), *cell2.parameters(), *linear.parameters()]
    waves = mg.from_numpy(np.sin((np.arange(length + 1) + np.array([[0], [7], [13]])) / 3.0))
    inputs, target = waves[:, :-1], waves[:, 1:]
    optimizer = mg.optim.LBFGS(params, lr=0.8, max_iter=max_iter)
    made, losses = [], []

    def closure():
        optimizer.zero_grad()
        first = h = c = h2 = c2 = mg.zeros(3, 5, dtype=mg.float64)
        outputs = []
        for x_t in inputs.split(1, dim=1):
            h, c = cell1(x_t, (h, c))
            h2, c2 = cell2(h, (h2, c2))
            outputs.append(linear(h2))
        loss = nn.functional.mse_loss(mg.cat(outputs, dim=1), target)
        loss.backward()
        made.append(mg.zeros(()).id - first.id)
        losses.append(weakref.ref(loss))
        return loss

    for _ in range(steps):
        optimizer.step(closure)
    return made, losses


@pytest.fixture
def cyclic_gc_off():
    was_enabled = gc.isenabled()
    gc.disable()
    yield
    if was_enabled:
        gc.enable()


def test_each_closure_makes_as_many_tensors_as_the_first():
    made, _ = _closure_records(length=6)
    assert len(made) >= 5
    assert made == [made[0]] * len(made)


def test_tensors_per_closure_grow_linearly_with_the_sequence():
    made = {length: _closure_records(length, steps=1, max_iter=1)[0][0] for length in (4, 8, 16)}
    assert made[16] - made[8] == 2 * (made[8] - made[4]), made


def test_each_closures_graph_is_freed_without_the_cyclic_gc(cyclic_gc_off):
    _, losses = _closure_records(length=6)
    assert all(loss() is None for loss in losses)
