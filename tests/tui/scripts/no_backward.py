import minigrad as mg

a = mg.tensor([1.0, 2.0], name="a")
print("sum is", float((a + a).sum().item()))
