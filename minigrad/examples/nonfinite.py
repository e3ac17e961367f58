"""sqrt at 0: its derivative 1 / (2 * sqrt(x)) is infinite, and the gradient becomes NaN downstream."""

import minigrad as mg

x = mg.tensor([0.0, 4.0, 1.0], requires_grad=True, name="x")
y = x.sqrt()
loss = (y * 2.0).sum()
loss.backward()
print("x.grad =", x.grad)
