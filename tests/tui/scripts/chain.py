import sys

import minigrad as mg

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
x = mg.tensor([0.5, -0.25], requires_grad=True, name="x")
h = x
for _ in range(n - 2):
    h = h * 1.0001
loss = h.sum()
loss.backward()
