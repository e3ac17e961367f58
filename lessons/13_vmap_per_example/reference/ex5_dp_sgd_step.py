"""Implementation — one step of DP-SGD on a Module.

``model`` is a minigrad Module (``nn.Linear``, an ``nn.Sequential`` of layers, ...) and each example's
loss is the squared error of its output for x against the target y (``squared_error`` below).

``per_example_gradients`` gives every example's gradient of every parameter, in one vmapped pass, as
a dict named like ``model.named_parameters()``. ``dp_sgd_step`` then makes one step of DP-SGD:

1. clip each example's whole gradient (all its parameters together) to norm at most ``max_norm``;
2. sum the clipped gradients over the batch;
3. add Gaussian noise to each parameter's sum, drawn in ``named_parameters()`` order as
   ``mg.randn(*p.shape, generator=generator, dtype=p.dtype) * (noise_multiplier * max_norm)``;
4. divide by the batch size and move each parameter by ``-lr`` times that, in place, outside the graph.

The checks compare with a loop of backward passes, and with the reference on the same noise.
"""

import minigrad as mg
from minigrad import func


def squared_error(model, params: dict, x, y):
    """One example's loss: the model's output for x, with ``params`` in place of its parameters, against y."""
    return (func.functional_call(model, params, (x,)) - y).square().sum()


def per_example_gradients(model, xb, yb) -> dict:
    """``{name: (B, *parameter.shape)}``: each example's gradient of each of the model's parameters, from one
    backward pass over the batch (``vmap`` of ``grad``); the model and its ``.grad`` are left as they were."""
    # BEGIN SOLUTION
    # HINT: func.grad differentiates with respect to a dict of tensors as well; vmap shares it with in_dims=None.
    params = {name: p.detach() for name, p in model.named_parameters()}

    def loss(params, x, y):
        return squared_error(model, params, x, y)

    return func.vmap(func.grad(loss), in_dims=(None, 0, 0))(params, xb, yb)
    # END SOLUTION


def dp_sgd_step(model, xb, yb, lr: float, max_norm: float, noise_multiplier: float, generator=None) -> None:
    """One DP-SGD step on ``model``'s parameters (in place), as the module docstring describes."""
    # BEGIN SOLUTION
    grads = per_example_gradients(model, xb, yb)
    squares = [g.reshape(g.shape[0], -1).square().sum(1) for g in grads.values()]
    factors = (max_norm / mg.stack(squares).sum(0).sqrt()).clamp(max=1.0)
    with mg.no_grad():
        for name, p in model.named_parameters():
            g = grads[name]
            clipped_sum = (g * factors.reshape((-1,) + (1,) * (g.dim() - 1))).sum(0)
            noise = mg.randn(*p.shape, generator=generator, dtype=p.dtype) * (noise_multiplier * max_norm)
            p.sub_((clipped_sum + noise) / xb.shape[0] * lr)
    # END SOLUTION
