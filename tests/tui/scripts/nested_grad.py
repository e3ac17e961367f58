import minigrad as mg

x = mg.tensor([1.0, -2.0, 3.0], requires_grad=True, name="x")
y = (x * x).sum()
y.backward(retain_graph=True)
(g,) = mg.autograd.grad(y, x)
print("x.grad", x.grad)
print("g", g)
