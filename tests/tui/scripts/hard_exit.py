import os

import minigrad as mg

x = mg.tensor([1.0, 2.0], requires_grad=True, name="x")
(x * x).sum().backward()
print("leaving with os._exit(3)", flush=True)
os._exit(3)
