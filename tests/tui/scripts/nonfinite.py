import minigrad as mg

x = mg.tensor([1.0, 0.0], requires_grad=True, name="x")
y = x.log()
loss = y.sum()
loss.backward()
