"""Lesson 2 demo: a node reused twice, so its gradient is a sum of contributions.

Run headless with `python demo.py` in the lesson's folder, or step through it with
`minigrad lesson debug 2` and watch the grad_accumulated events: two into `b` (one per
edge of `b * b`), two into `a` (one per edge of `a + a`).
"""

import minigrad as mg

a = mg.tensor(3.0, requires_grad=True, name="a")
b = a + a  # a is used twice: two edges from b to a
c = b * b  # b is used twice: two edges from c to b
c.backward()
print("c =", c.item(), " dc/da =", a.grad.item(), " (by hand: 8 * a =", 8 * 3.0, ")")
