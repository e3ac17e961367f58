"""A hook that runs grad() while backward() is running: the inner pass has depth 2."""

import minigrad as mg

x = mg.tensor([1.0, -2.0, 3.0], requires_grad=True, name="x")
h = x * x


def add_curvature(g):
    with mg.enable_grad():
        (inner,) = mg.autograd.grad((x * x * g).sum(), x)
    return g + inner


h.register_hook(add_curvature)
loss = h.sum()
loss.backward()
print("x.grad =", x.grad)
