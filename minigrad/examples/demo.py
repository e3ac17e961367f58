import minigrad as mg

a = mg.tensor([2.0, -1.0, 0.5], requires_grad=True, name="a")
b = mg.tensor([3.0, 4.0, -2.0], requires_grad=True, name="b")
c = a * b
d = c.tanh()
loss = (d + a * a).sum()
loss.backward()
print("loss  =", loss)
print("a.grad =", a.grad)
print("b.grad =", b.grad)
