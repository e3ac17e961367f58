"""Lesson 7 demo: two SGD steps on one weight, by hand; then an MLP learns the two moons with Adam.

Run headless with `python demo.py` in the lesson's folder, or step through it with
`minigrad lesson debug 7`: each step is one backward() pass from `loss` down to the
weights, then the optimizer changes the weights' data (outside any pass).
"""

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F

# 1. One weight, one data point, by hand: loss = (3w - 1)**2, two steps of SGD.
w = mg.tensor(2.0, requires_grad=True, name="w")
sgd = mg.optim.SGD([w], lr=0.05)
for step in range(2):
    error = w * 3.0 - 1.0
    loss = error**2
    sgd.zero_grad()  # .grad accumulates: clear it before every backward
    loss.backward()
    sgd.step()  # w <- w - lr * w.grad, in place, outside any graph
    print(f"step {step}  loss {loss.item():.4f}  w.grad {w.grad.item():.4f}  w {w.item():.4f}")

# 2. An MLP learns the two moons with Adam, in 60 full-batch steps.
mg.manual_seed(0)
X, y = mg.data.make_moons(100, noise=0.1, seed=0)
x, target = mg.tensor(X), mg.tensor(y)

model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
optimizer = mg.optim.Adam(model.parameters(), lr=0.05)

for step in range(60):
    logits = model(x)
    loss = F.cross_entropy(logits, target)
    optimizer.zero_grad()  # .grad accumulates: clear it before every backward
    loss.backward()
    optimizer.step()
    if step % 10 == 0 or step == 59:
        accuracy = float((logits.argmax(1).numpy() == y).mean())
        print(f"step {step:2d}  loss {loss.item():.4f}  accuracy {accuracy:.0%}")
