"""Lesson 3 demo: a broadcast add and a matmul, so gradients are summed back to each shape.

Run headless with `python demo.py` in the lesson's folder, or step through it with
`minigrad lesson debug 3`: at the `add` node the engine reduces the (2, 3) gradient
meant for `b` to b's shape (3,) — a `grad_reduced` event — before it accumulates it.
"""

import minigrad as mg

x = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], name="x")  # a batch of 2 rows
b = mg.tensor([0.5, -1.0, 2.0], requires_grad=True, name="b")  # one bias per column
W = mg.tensor([[1.0, -1.0], [2.0, 0.0], [0.5, 3.0]], requires_grad=True, name="W")
h = x + b  # b is broadcast to (2, 3): added to both rows
y = h @ W  # (2, 3) @ (3, 2) -> (2, 2)
loss = y.sum()
loss.backward()
print("h =", h)
print("b.grad =", b.grad, " (both rows' gradients, summed)")
print("W.grad =", W.grad)
