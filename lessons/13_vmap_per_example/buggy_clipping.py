"""DP-SGD's gradient for a linear model with two parameters, W (2 x 2) and b (2,), as a colleague wrote it.

Each example's gradient is clipped to norm at most ``max_norm`` before the gradients are summed and
noised, so that no single example can move the model by more than ``max_norm``. Run this file: it
prints the norms after clipping, and they all look fine. Yet the promise is broken for most of
the batch. Exercise ``ex4_find_the_bug.py`` asks why.
"""

import minigrad as mg
from minigrad import func


def loss(params, x, y):
    """One example's squared error: x and y have shape (2,)."""
    residual = params["W"] @ x + params["b"] - y
    return residual.square().sum()


def per_example_gradients(params, xb, yb):
    """{"W": (B, 2, 2), "b": (B, 2)}: the gradient of every example's loss, in one vmapped pass."""
    return func.vmap(func.grad(loss), in_dims=(None, 0, 0))(params, xb, yb)


def clip_per_example(grads, max_norm):
    """Each example's gradient scaled down to norm max_norm where it is larger."""
    clipped = {}
    for name, g in grads.items():
        norms = g.reshape(g.shape[0], -1).square().sum(1).sqrt()
        factors = (max_norm / norms).clamp(max=1.0)
        clipped[name] = g * factors.reshape((-1,) + (1,) * (g.dim() - 1))
    return clipped


def private_gradient(params, xb, yb, max_norm=1.0, noise_multiplier=1.0, generator=None):
    """DP-SGD: the clipped per-example gradients summed, Gaussian noise of std noise_multiplier * max_norm
    added, divided by the batch size."""
    clipped = clip_per_example(per_example_gradients(params, xb, yb), max_norm)
    batch = xb.shape[0]
    return {
        name: (g.sum(0) + mg.randn(*g.shape[1:], generator=generator, dtype=g.dtype) * noise_multiplier * max_norm)
        / batch
        for name, g in clipped.items()
    }


PARAMS = {
    "W": mg.tensor([[0.5, -1.0], [1.0, 0.5]], dtype=mg.float64),
    "b": mg.tensor([0.2, -0.3], dtype=mg.float64),
}
XB = mg.tensor([[1.0, 2.0], [3.0, 0.0], [-1.0, 1.0], [0.1, 0.2]], dtype=mg.float64)
YB = mg.tensor([[1.0, 0.0], [0.0, 2.0], [2.0, 1.0], [0.0, 0.0]], dtype=mg.float64)

if __name__ == "__main__":
    clipped = clip_per_example(per_example_gradients(PARAMS, XB, YB), max_norm=1.0)
    for name, g in clipped.items():
        norms = g.reshape(g.shape[0], -1).square().sum(1).sqrt()
        print(
            f"after clipping to 1.0, the norm of each example's gradient of {name}:",
            [round(n, 4) for n in norms.tolist()],
        )
