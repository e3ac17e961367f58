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
        # BEGIN SOLUTION
        # HINT: keep a copy of the first gradient as the buffer; update p.data in place with -=.
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            g = p.grad.data
            if self.buffers[i] is None:
                self.buffers[i] = g.clone()
            else:
                self.buffers[i] = self.momentum * self.buffers[i] + g
            p.data -= self.lr * self.buffers[i]
        # END SOLUTION


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
        # BEGIN SOLUTION
        # HINT: t counts steps, starting at 1; the bias corrections use β^t.
        self.t += 1
        b1, b2 = self.betas
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            g = p.grad.data
            self.m[i] = b1 * self.m[i] + (1 - b1) * g
            self.v[i] = b2 * self.v[i] + (1 - b2) * g * g
            m_hat = self.m[i] / (1 - b1**self.t)
            v_hat = self.v[i] / (1 - b2**self.t)
            p.data -= self.lr * m_hat / (v_hat.sqrt() + self.eps)
        # END SOLUTION
