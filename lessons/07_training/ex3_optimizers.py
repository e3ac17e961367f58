# Exercise file generated from reference/ex3_optimizers.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 7.3 — SGD with momentum, and Adam.

Each optimizer keeps its parameters in `self.params` and its per-parameter state
in lists. `step()` updates every parameter that has a `.grad`, in place, through `.data`
(`p.data`, `p.grad.data`: the values outside the graph, as in PyTorch): an update must never be
recorded in a graph.

SGD with momentum (PyTorch's form):  b = g on the first step, then b = m * b + g;
                                     p = p - lr * b
Adam (Kingma & Ba), step t = 1, 2, ...:
    m = β1 m + (1 - β1) g            v = β2 v + (1 - β2) g²
    m̂ = m / (1 - β1^t)               v̂ = v / (1 - β2^t)
    p = p - lr * m̂ / (sqrt(v̂) + eps)
"""

import minigrad as mg


class SGDMomentum:
    def __init__(self, params, lr: float, momentum: float = 0.9):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.buffers = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    def step(self):
        # HINT: keep a copy of the first gradient as the buffer; update p.data in place with -=.
        raise NotImplementedError("exercise: write step()")


class Adam:
    def __init__(self, params, lr: float = 1e-3, betas=(0.9, 0.999), eps: float = 1e-8):
        self.params = list(params)
        self.lr, self.betas, self.eps = lr, betas, eps
        self.m = [mg.zeros_like(p.data) for p in self.params]
        self.v = [mg.zeros_like(p.data) for p in self.params]
        self.t = 0

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    def step(self):
        # HINT: t counts steps, starting at 1; the bias corrections use β^t.
        raise NotImplementedError("exercise: write step()")
