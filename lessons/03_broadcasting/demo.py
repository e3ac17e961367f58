"""Lesson 3 demo: a broadcast add and a matmul, so gradients are summed back to each shape.

Run with `minigrad lesson debug 3`.
"""

import minigrad as mg

mg.manual_seed(0)
x = mg.randn(4, 3)
W = mg.randn(3, 2, requires_grad=True)
b = mg.zeros(3, requires_grad=True)
h = x + b
y = h @ W
loss = y.sum()
loss.backward()
print("b.grad (4 rows summed):", b.grad)
print("W.grad shape:", W.grad.shape)
