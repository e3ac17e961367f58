"""Lesson 12 demo: batch norm written out of minigrad ops, and the three paths its gradient takes into x.

Run it headless with `python demo.py` in the lesson's folder, or step through it with
`minigrad lesson debug 12`: the backward pass sends three contributions into `x`, one per path
(through `xc`, through `dev` and the variance, through the mean `mu`), each its own step.
"""

import minigrad as mg

# one feature of a batch of four, and the layer's scale and shift
x = mg.tensor([1.0, 8.0, 4.0, 5.0], dtype=mg.float64, requires_grad=True, name="x")
gamma = mg.tensor(2.0, dtype=mg.float64, requires_grad=True, name="gamma")
beta = mg.tensor(0.5, dtype=mg.float64, requires_grad=True, name="beta")
w = mg.tensor([-1.0, 2.0, -3.0, 1.0], dtype=mg.float64, name="w")  # stands in for the layers above
eps = 1e-5

mu = x.mean()
dev = x - mu  # x - mu for the variance...
sq = dev**2
var = sq.mean()
inv_std = (var + eps) ** -0.5
xc = x - mu  # ...and x - mu again for the output: the two paths into x stay apart
xhat = xc * inv_std
y = gamma * xhat + beta
loss = (y * w).sum()
loss.backward()

print(f"mu = {mu.item():.4g}, var = {var.item():.4g}, inv_std = {inv_std.item():.4g}")
print("xhat =", [round(v, 4) for v in xhat.tolist()])
print(f"loss = {loss.item():.4g}")
print("x.grad =", [round(v, 4) for v in x.grad.tolist()])
print(f"gamma.grad = {gamma.grad.item():.4g}, beta.grad = {beta.grad.item():.4g}")

# the closed form that the three paths add up to (exercise 12.4 writes it as a Function)
dxhat = (w * gamma).detach()
closed = inv_std.detach() * (dxhat - dxhat.mean() - xhat.detach() * (dxhat * xhat.detach()).mean())
print("closed form =", [round(v, 4) for v in closed.tolist()])
