"""Custom autograd Functions shared by the Function, forward-mode and transform tests."""

from __future__ import annotations

import numpy as np

import minigrad as mg


def cube_forms(lib):
    """x³ (backward 3x²g, jvp 3x²t) in each form a Function takes, written once for minigrad and torch
    (``lib``): ``forward(ctx, x)`` (old); ``forward(x)`` + ``setup_context`` (new) without and with
    ``jvp``; and with ``generate_vmap_rule``, with ``jvp`` (``Cube``) and without."""

    class OldCube(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.save_for_forward(x)
            return x * x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * x * x * g

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return 3 * x * x * t

    class NewCube(lib.autograd.Function):
        @staticmethod
        def forward(x):
            return x * x * x

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        backward = OldCube.backward

    class JvpCube(NewCube):
        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])
            ctx.save_for_forward(inputs[0])

        jvp = OldCube.jvp

    class Cube(JvpCube):
        generate_vmap_rule = True

    class VmapNoJvpCube(NewCube):
        generate_vmap_rule = True

    return {"old": OldCube, "new": NewCube, "jvp": JvpCube, "vmap": Cube, "vmap_no_jvp": VmapNoJvpCube}


class NumpyExp(mg.autograd.Function):
    """A forward outside minigrad's ops, so without vmap support: jacrev and a vjp_fn under vmap run
    it once and only its backward per cotangent, as torch.func does."""

    @staticmethod
    def forward(x):
        return mg.tensor(np.exp(x.detach().numpy()))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y
