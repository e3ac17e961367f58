"""Lesson 11 demo: one function differentiated both ways.

    minigrad lesson debug 11

First forward mode: x = [0.5, -1.0] carries the tangent v = [1.0, 0.5] through h = x * x and
y = sum(tanh(h)); every op computes its result's tangent (a tangent_computed step). Then reverse
mode on the same function: one backward pass gives the whole gradient. The two agree:
<grad, v> is the tangent of y. Last, Jacobians of a wide and a tall function, one pass per direction and vmapped, timed.
"""

import functools
import time

import minigrad as mg
from minigrad import func
from minigrad.autograd import forward_ad as fwAD

x0 = [0.5, -1.0]
v0 = [1.0, 0.5]

# ---- forward mode: one pass, the derivative along v
with fwAD.dual_level():
    # make_dual combines a primal and its tangent into a new tensor, x: its graph starts there
    x = fwAD.make_dual(mg.tensor(x0, dtype=mg.float64, name="x0"), mg.tensor(v0, dtype=mg.float64, name="v"))
    x.name = "x"
    h = x * x
    t = h.tanh()
    y = t.sum()
    y_value, y_tangent = fwAD.unpack_dual(y)
print(f"forward mode:  y = {y_value.item():.6f}, tangent of y along v = {y_tangent.item():.6f}")

# ---- reverse mode: one pass, the gradient with respect to every input
xr = mg.tensor(x0, dtype=mg.float64, requires_grad=True, name="xr")
loss = (xr * xr).tanh().sum()
loss.backward()
print(f"reverse mode:  gradient = {xr.grad.tolist()}, <gradient, v> = {(xr.grad * mg.tensor(v0)).sum().item():.6f}")


# ---- when each wins: a Jacobian needs one forward pass per input or one backward pass per output
def timed(jacobian, x, repeats=3):
    jacobian(x)  # once untimed: the first call also loads the code it runs
    start = time.perf_counter()
    for _ in range(repeats):
        jacobian(x)
    return (time.perf_counter() - start) / repeats * 1e3


def by_jvps(f, x):
    """The Jacobian one column at a time: a forward-mode pass (a JVP) per input basis vector."""
    return mg.stack([func.jvp(f, (x,), (e,))[1] for e in mg.eye(x.shape[0], dtype=x.dtype)], dim=1)


for n_out, n_in in ((2, 64), (64, 2)):
    W = mg.randn(n_out, n_in, dtype=mg.float64)

    def f(x, W=W):
        return (W @ x).tanh()

    point = mg.randn(n_in, dtype=mg.float64)  # not x: the forward-mode part's x keeps its name
    print(
        f"Jacobian {n_out}x{n_in}: {n_in} JVPs {timed(functools.partial(by_jvps, f), point):.1f} ms, "
        f"{n_out} VJPs {timed(func.jacrev(f, chunk_size=1), point):.1f} ms; vmapped: "
        f"jacfwd {timed(func.jacfwd(f), point):.1f} ms, jacrev {timed(func.jacrev(f), point):.1f} ms"
    )
