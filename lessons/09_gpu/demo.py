"""Lesson 9 demo: the same training step on the GPU when there is one, on the CPU otherwise.

Run headless with `python demo.py` in the lesson's folder, or step through it with `minigrad lesson
debug 9`: the `to` node moves x to the compute device, and its closure moves the gradient back.
"""

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F

device = "cuda" if mg.cuda_is_available() else "cpu"
print("computing on", device)

# 1. By hand: a transfer is an op. v is float32 on the CPU; the computation runs in float64 on `device`.
v = mg.tensor([1.0, 2.0], requires_grad=True, name="v")
vd = v.to(device, mg.float64)  # a `to` node: it moves (on a GPU) and converts (everywhere)
square_sum = (vd * vd).sum()
square_sum.backward()
print("v.grad =", v.grad, "-", v.grad.dtype, "on", v.grad.device, "(where v lives)")

# 2. One training step of a small MLP on the compute device.
mg.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2)).to(device)  # parameters move
optimizer = mg.optim.SGD(model.parameters(), lr=0.5)

X, y = mg.data.make_moons(64, noise=0.1, seed=0)
x = mg.tensor(X, requires_grad=True, name="x")  # on the CPU, where the data was made
xd = x.to(device)  # one transfer; a no-op (the same tensor) when device is "cpu"
target = mg.tensor(y).to(device)

loss = F.cross_entropy(model(xd), target)
optimizer.zero_grad()
loss.backward()
optimizer.step()

print("loss =", loss.item())  # .item() copies one number back to the host
print("x.grad lives on", x.grad.device, "- the gradient comes back to where x lives")
print("first weight lives on", model[0].weight.device)
