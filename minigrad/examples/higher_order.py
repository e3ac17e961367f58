"""A gradient that is itself differentiated: grad(create_graph=True), then backward through it."""

import minigrad as mg

x = mg.tensor([0.5, -1.5], requires_grad=True, name="x")
y = (x * x * x).sum()
(dy,) = mg.autograd.grad(y, x, create_graph=True)
dy.name = "dy"
curvature = (dy * dy).sum()
curvature.backward()
print("dy =", dy)
print("x.grad =", x.grad)
