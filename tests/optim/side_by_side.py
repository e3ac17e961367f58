"""Run a minigrad optimizer and PyTorch's of the same name side by side, for the optimizer tests."""

import numpy as np

import minigrad as mg
from minigrad.nn import Parameter
from minigrad.nn import functional as F


def step_one_parameter(torch, name: str, kwargs: dict, gradients, steps: int, **tolerance):
    """Step optimizer ``name`` (built with ``kwargs``) on a float64 ``[3, 4]`` parameter in both libraries, with
    ``gradients(step, shape)`` as the gradient of each step; after every step the parameters agree to
    ``tolerance`` (``assert_allclose``'s ``rtol``/``atol``). Returns both optimizers and both parameters."""
    start = np.random.default_rng(0).standard_normal((3, 4))
    p = Parameter(mg.tensor(start, dtype=mg.float64))
    tp = torch.nn.Parameter(torch.from_numpy(start.copy()))
    opt = getattr(mg.optim, name)([p], **kwargs)
    topt = getattr(torch.optim, name)([tp], **kwargs)
    for step in range(steps):
        g = gradients(step, start.shape)
        p.grad = mg.tensor(g, dtype=mg.float64)
        tp.grad = torch.from_numpy(g.copy())
        opt.step()
        topt.step()
        np.testing.assert_allclose(p.array, tp.detach().numpy(), err_msg=f"step {step}", **tolerance)
    return opt, topt, p, tp


def train_both(torch, ours: tuple, theirs: tuple, steps: int) -> tuple[list, list]:
    """``steps`` steps of cross-entropy training of each ``(model, optimizer, inputs, targets)``; the losses
    before each step, ours then PyTorch's."""
    model, opt, x, t = ours
    tmodel, topt, tx, tt = theirs
    losses, tlosses = [], []
    for _ in range(steps):
        loss = F.cross_entropy(model(x), t)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tloss = torch.nn.functional.cross_entropy(tmodel(tx), tt)
        topt.zero_grad()
        tloss.backward()
        topt.step()
        losses.append(loss.item())
        tlosses.append(tloss.item())
    return losses, tlosses
