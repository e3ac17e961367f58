"""Lesson demo: what the rules of a small network save, the graph freed after backward, and the same
network with its two hidden layers checkpointed (recomputed during backward, in a nested pass).

Run it headless with `python demo.py` in the lesson's folder, or step through it with
`minigrad lesson debug` and the lesson's number.
"""

import numpy as np

import minigrad as mg
from minigrad.utils.checkpoint import checkpoint

x = mg.tensor([[1.0, 2.0], [0.5, -1.0]], name="x")  # 2 examples, 2 features
W1 = mg.tensor([[0.5, -0.5, 1.0], [0.25, 0.5, -1.0]], requires_grad=True, name="W1")
W2 = mg.tensor([[1.0, 0.0, -0.5], [0.5, 1.0, 0.0], [0.0, -0.5, 1.0]], requires_grad=True, name="W2")
W3 = mg.tensor([[1.0], [-1.0], [0.5]], requires_grad=True, name="W3")

# Part 1: each rule keeps what its backward will need.
h1 = (x @ W1).tanh()
h2 = (h1 @ W2).tanh()
y = h2 @ W3
loss = (y * y).mean()
loss.backward()  # retain_graph=False: the pass frees the rules, and what they saved, at its end
print(f"saved activations: h1 {h1.nbytes} + h2 {h2.nbytes} + y {y.nbytes} = {h1.nbytes + h2.nbytes + y.nbytes} bytes")
plain = [W.grad.numpy() for W in (W1, W2, W3)]

# Part 2: a second backward through the freed graph.
try:
    loss.backward()
except RuntimeError as err:
    print("second backward refused:", str(err).split(" (")[0])


# Part 3: the two hidden layers as one checkpointed segment.
def hidden(inp):
    return ((inp @ W1).tanh() @ W2).tanh()


for W in (W1, W2, W3):
    W.grad = None
h2c = checkpoint(hidden, x, use_reentrant=False)  # forward without a graph inside: h1 is not kept
yc = h2c @ W3
loss_c = (yc * yc).mean()
loss_c.backward()  # the Checkpoint node's rule runs hidden() again and a nested pass through it
print(f"saved activations with the checkpoint: h2c {h2c.nbytes} + yc {yc.nbytes} = {h2c.nbytes + yc.nbytes} bytes")
same = all(np.allclose(W.grad.numpy(), g) for W, g in zip((W1, W2, W3), plain))
print("same gradients as without the checkpoint:", same)
