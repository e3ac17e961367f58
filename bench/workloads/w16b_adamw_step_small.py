"""W16b the optimizer step alone over many small parameters, where the NumPy calls are the cost:
AdamW over the 6 parameters of a lesson-sized MLP 2-16-16-2 (32 to 256 elements each), float32,
fixed gradients, 50 steps per run; the same peers as W16."""

from __future__ import annotations

from .w16_adamw_step import FOREACH, MINIGRAD_PEERS, RATIOS, TARGETS, adamw_steps, per_unit  # noqa: F401

NAME = "W16b"
TITLE = "AdamW step over an MLP 2-16-16-2's 6 parameters, float32, 50 steps"
UNIT = "ms/step"
PEERS = tuple(FOREACH)


def params(quick: bool) -> dict:
    return {"widths": [2, 4, 2] if quick else [2, 16, 16, 2], "steps": 2 if quick else 50}


def build(peer: str, p: dict):
    def mlp(lib):
        nn, widths = lib.nn, p["widths"]

        def make():
            layers = []
            for n_in, n_out in zip(widths, widths[1:]):
                layers += [nn.Linear(n_in, n_out), nn.Tanh()]
            return nn.Sequential(*layers[:-1])

        return make

    return adamw_steps(peer, mlp, p, seed=17)
