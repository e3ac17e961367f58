"""Never ends: a backward pass after another, until the debugger pauses or quits it."""

import minigrad as mg

x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True, name="x")
while True:
    y = (x * x).sum()
    y.backward()
