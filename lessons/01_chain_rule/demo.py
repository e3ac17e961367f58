"""Lesson 1 demo: the chain rule on f = tanh(a * b + c), watched node by node.

Run headless with `python demo.py` in the lesson's folder, or step through it with
`minigrad lesson debug 1`.
"""

import minigrad as mg

a = mg.tensor(2.0, requires_grad=True, name="a")
b = mg.tensor(-3.0, requires_grad=True, name="b")
c = mg.tensor(6.5, requires_grad=True, name="c")
d = a * b
e = d + c
f = e.tanh()
f.backward()

print(f"f = {f.item():.6f}")
print(f"df/da = {a.grad.item():.6f}   (by hand: (1 - f**2) * b)")
print(f"df/db = {b.grad.item():.6f}   (by hand: (1 - f**2) * a)")
print(f"df/dc = {c.grad.item():.6f}   (by hand: (1 - f**2))")
