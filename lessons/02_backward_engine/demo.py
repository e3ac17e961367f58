"""Lesson 2 demo: a node reused twice, so its gradient is a sum of contributions.

Run with `minigrad lesson debug 2` and watch the grad_accumulated events into `a`.
"""

import minigrad as mg

a = mg.tensor([1.5, -2.0], requires_grad=True, name="a")
b = a + a
c = b * b
loss = c.sum()
loss.backward()
print("a.grad =", a.grad, " (8 * a =", (8 * a).detach(), ")")
