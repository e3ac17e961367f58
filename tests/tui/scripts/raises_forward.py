import minigrad as mg

a = mg.tensor([1.0, 2.0], requires_grad=True, name="a")
print("made a")
raise ValueError("boom in forward")
