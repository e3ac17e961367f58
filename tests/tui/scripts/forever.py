import minigrad as mg

a = mg.tensor([1.0], requires_grad=True, name="a")
n = 0
while True:
    n += 1
