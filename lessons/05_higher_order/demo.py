"""Lesson 5 demo: third derivative of x**4 by three nested grad() calls.

Run with `minigrad lesson debug 5`: during the create_graph passes, watch node_created events.
"""

import minigrad as mg
from minigrad.autograd import grad

x = mg.tensor(1.5, dtype=mg.float64, requires_grad=True, name="x")
y = x**4
(d1,) = grad(y, x, create_graph=True)
(d2,) = grad(d1, x, create_graph=True)
(d3,) = grad(d2, x)
print(f"f'(1.5) = {d1.item()}  (4x^3 = {4 * 1.5**3})")
print(f"f''(1.5) = {d2.item()}  (12x^2 = {12 * 1.5**2})")
print(f"f'''(1.5) = {d3.item()}  (24x = {24 * 1.5})")
