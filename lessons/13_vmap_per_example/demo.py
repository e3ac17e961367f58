"""Lesson 13 demo: the gradient of every example of a batch, by a loop and by vmap, then clipped as DP-SGD clips.

    minigrad lesson debug 13

A linear model w = [0.5, -1.0] and three examples; each example's loss is (w · x - y)².
First a loop: one backward pass per example (three passes). Then vmap(grad(loss)): one pass over
the whole batch, every value carrying the batch in front. Then each example's gradient is clipped
to norm 10 and the clipped gradients are summed, with and without DP-SGD's noise. Last, the loop
and vmap timed on a larger batch: the demo prints its own numbers.
"""

import time

import minigrad as mg
from minigrad import func

w = mg.tensor([0.5, -1.0], dtype=mg.float64, name="w")
xb = mg.tensor([[1.0, 2.0], [3.0, 0.0], [-1.0, 1.0]], dtype=mg.float64, name="xb")
yb = mg.tensor([1.0, 0.0, 2.0], dtype=mg.float64, name="yb")


def loss(w, x, y):
    """The squared error of one example: x has shape (2,), y is a number."""
    residual = (w * x).sum() - y
    return residual * residual


# ---- a loop: one backward pass per example
rows = []
for x, y in zip(xb.unbind(0), yb.unbind(0)):
    wi = w.detach().requires_grad_()
    loss(wi, x, y).backward()
    rows.append(wi.grad)
by_loop = mg.stack(rows)
print("per-example gradients by a loop:", by_loop.tolist())

# ---- vmap(grad(loss)): one backward pass over the batch
per_example = func.vmap(func.grad(loss), in_dims=(None, 0, 0))(w, xb, yb)
print("per-example gradients by vmap: ", per_example.tolist())
print("the batch's gradient (their sum):", per_example.sum(0).tolist())

# ---- DP-SGD: clip each example's gradient to norm max_norm, sum, add noise, average
max_norm, noise_multiplier = 10.0, 1.0
norms = per_example.square().sum(1).sqrt()
factors = (max_norm / norms).clamp(max=1.0)
clipped = per_example * factors.unsqueeze(1)
clipped_sum = clipped.sum(0)
noise = mg.randn(2, generator=mg.Generator().manual_seed(0), dtype=mg.float64) * (noise_multiplier * max_norm)
private_gradient = (clipped_sum + noise) / len(xb)
print("norms:", [round(n, 4) for n in norms.tolist()], " clip factors:", [round(f, 4) for f in factors.tolist()])
print("clipped sum:", [round(v, 4) for v in clipped_sum.tolist()])
print("private gradient (clipped sum + noise) / 3:", [round(v, 4) for v in private_gradient.tolist()])


# ---- the loop and vmap on a larger batch, timed (the numbers are this machine's)
def timed(fn, repeats=3):
    fn()  # once untimed: the first call also loads the code it runs
    start = time.perf_counter()
    for _ in range(repeats):
        fn()
    return (time.perf_counter() - start) / repeats * 1e3


batch_size = 64  # try 16 and 1024: the loop's time follows the batch, vmap's hardly moves
big_x = mg.randn(batch_size, 2, generator=mg.Generator().manual_seed(1), dtype=mg.float64)
big_y = mg.randn(batch_size, generator=mg.Generator().manual_seed(2), dtype=mg.float64)


def loop_of_passes():
    return mg.stack([func.grad(loss)(w, x, y) for x, y in zip(big_x.unbind(0), big_y.unbind(0))])


def one_vmapped_pass():
    return func.vmap(func.grad(loss), in_dims=(None, 0, 0))(w, big_x, big_y)


loop_ms, vmap_ms = timed(loop_of_passes), timed(one_vmapped_pass)
print(f"{batch_size} examples: a loop of {batch_size} passes {loop_ms:.1f} ms, vmap {vmap_ms:.1f} ms")
