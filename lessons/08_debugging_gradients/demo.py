"""Lesson 8 demo: vanishing and exploding gradients, a NaN that appears only in the backward pass,
and a weight changed in place between forward and backward.

Run headless with `python demo.py` in the lesson's folder. To see where the gradient vanishes, stop
where it gets small: `minigrad-tui --break "op:sigmoid if |g| < 1e-2" demo.py`. To hunt the NaN, stop
at the first non-finite gradient with `minigrad-tui --break nonfinite
demo.py`, or record and read the trace:
`minigrad trace demo.py -o run.jsonl`, then
`minigrad trace show run.jsonl --node x`.
"""

import numpy as np

import minigrad as mg

# 1. Vanishing: twelve sigmoid layers. Each multiplies the gradient by W.T and by sigmoid' <= 1/4.
rng = np.random.default_rng(0)
h = mg.tensor(rng.standard_normal((8, 16)))
weights = [mg.tensor(rng.standard_normal((16, 16)) * 0.5, requires_grad=True, name=f"W{k}") for k in range(1, 13)]
for k, W in enumerate(weights, 1):
    h = (h @ W).sigmoid()
    h.name = f"s{k}"  # layer k's output, as the debugger names it
h.sum().backward()
norms = [float(np.linalg.norm(W.grad.numpy())) for W in weights]
print("sigmoid layers, gradient norm of each weight, first to last:")
print("  " + "  ".join(f"{n:.1e}" for n in norms))

#    Exploding: twelve relu layers with weights of std 1.0, where He's sqrt(2 / 16) = 0.35 keeps the scale:
#    each layer multiplies the gradient on its way back by about 1.0 * sqrt(16 / 2) = 2.8.
h = mg.tensor(rng.standard_normal((8, 16)))
weights = [mg.tensor(rng.standard_normal((16, 16)), requires_grad=True, name=f"V{k}") for k in range(1, 13)]
for k, V in enumerate(weights, 1):
    h = (h @ V).relu()
    h.name = f"r{k}"
h.sum().backward()
norms = [float(np.linalg.norm(V.grad.numpy())) for V in weights]
print("relu layers, gradient norm of each weight, first to last:")
print("  " + "  ".join(f"{n:.1e}" for n in norms))

# 2. NaN: where() picks sqrt(x) only where x > 0, so the forward pass is finite everywhere...
x = mg.tensor([4.0, 1.0, -1.0, 0.0], requires_grad=True, name="x")
root = x.sqrt()  # NaN at -1 (not selected below), and its backward is infinite at 0
y = mg.where(x > 0, root, 0.0)
loss = y.sum()
loss.backward()
print("loss =", loss.item(), "(finite)")
print("x.grad =", x.grad, " <- NaN: where's zero gradient times sqrt's infinite/NaN local derivative")

# 3. Stale: w changes after the forward pass, before the backward pass that needs it, behind
#    autograd's back (.data is the values outside the graph, as in PyTorch: no version counter sees the change).
w = mg.tensor([1.0, 2.0], requires_grad=True, name="w")
u = mg.tensor([3.0, 4.0], requires_grad=True, name="u")
scaled = w * u  # mul's rule will need w to compute u's gradient
total = scaled.sum()
w.data *= 10  # e.g. a hand-written weight update slipped in between forward and backward
total.backward()
print("u.grad =", u.grad, " <- stale: mul's rule read the updated w; the right answer is [1, 2]")

# 4. The same change as an in-place op: w2's version counter goes from 0 to 1, and backward refuses.
w2 = mg.tensor([1.0, 2.0], requires_grad=True, name="w2")
u2 = mg.tensor([3.0, 4.0], requires_grad=True, name="u2")
scaled2 = w2 * u2
total2 = scaled2.sum()
with mg.no_grad():
    w2.mul_(10)
try:
    total2.backward()
except RuntimeError as err:
    print("backward refused:", str(err).split(". Hint")[0])
