import minigrad as mg

w = mg.tensor([1.0, 2.0], requires_grad=True, name="w")
loss1 = (w * w).sum()
loss1.backward()
loss2 = (w * 3.0).sum()
loss2.backward()
