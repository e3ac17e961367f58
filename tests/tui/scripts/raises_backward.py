import minigrad as mg

x = mg.tensor([1.0, -2.0], requires_grad=True, name="x")
y = (x * x).sum()
y.backward()
y.backward()
