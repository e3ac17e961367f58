"""A 4 000-step training loop: the debugger's memory must stay bounded however long the run."""

import sys

import minigrad as mg

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
w = mg.tensor([0.5, -0.25, 1.0], requires_grad=True, name="w")
x = mg.tensor([1.0, 2.0, 3.0], name="x")
for _ in range(steps):
    loss = ((w * x).sum() - 1.0).square()
    loss.backward()
    w.array -= 0.01 * w.grad.array
    w.grad = None
print("w =", w)
