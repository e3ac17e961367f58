import minigrad as mg

for i in range(50_000):
    print("line", i)
x = mg.tensor([3.0], requires_grad=True, name="x")
(x * x).sum().backward()
print("x.grad", x.grad)
