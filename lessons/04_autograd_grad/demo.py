"""Lesson 4 demo: grad() of two outputs with respect to two inputs, with a .grad already set.

Run with `minigrad lesson debug 4`: watch grads_saved, the pass, then grads_restored.
"""

import minigrad as mg
from minigrad.autograd import grad

a = mg.tensor([2.0, -1.0, 0.5], requires_grad=True, name="a")
b = mg.tensor([3.0, 4.0, -2.0], requires_grad=True, name="b")
a.grad = mg.tensor([100.0, 100.0, 100.0])  # grad() must leave this alone
ab = a * b
aa = a * a  # a is used twice here: two edges into a
out1 = ab.sum()
out2 = aa.sum()
da, db = grad((out1, out2), (a, b))
print("da =", da)
print("db =", db)
print("a.grad is still", a.grad)
