"""The benchmark workloads: one module per workload, each with one builder per peer.

A workload module defines ``NAME``, ``TITLE``, ``UNIT``, ``PEERS`` (in report order),
``params(quick)`` (the sizes, identical for every peer), ``per_unit(params)`` (what a
run's seconds are divided by to give ``UNIT``) and ``build(peer, params)``, which
does all set-up and returns ``run`` (or ``(run, info)``): a function that performs
one timed run and returns a check value (a loss or a gradient norm) so that peers
can be compared for agreement; a run that times only part of itself returns
``{"check", "wall", "cpu"}`` instead. Optional: ``TARGETS`` ({(a, b): max ratio}),
``RATIOS`` (the pairs to report), ``LIMITS`` ({peer: max median in UNIT}), ``SUBJECT``
(the peer that always runs), ``MINIGRAD_PEERS`` (the peers that run minigrad, compared with
``--compare-to``; default: those named minigrad*). Peers that cannot run raise :class:`Skip`.
"""

from __future__ import annotations

import importlib

MODULES = {
    "W1": "bench.workloads.w1_op_overhead",
    "W2": "bench.workloads.w2_mlp",
    "W3": "bench.workloads.w3_hvp",
    "W4": "bench.workloads.w4_deep_chain",
    "W5": "bench.workloads.w5_micrograd_demo",
    "W6a": "bench.workloads.w6a_tracing_ops",
    "W6b": "bench.workloads.w6b_tracing_mlp",
    "W6c": "bench.workloads.w6c_tracing_small_mlp",
    "W6d": "bench.workloads.w6d_tracing_mnist_mlp",
    "W6e": "bench.workloads.w6e_tracing_gpt_block",
    "W7a": "bench.workloads.w7a_diagram_1000",
    "W7b": "bench.workloads.w7b_frames_200",
    "W8": "bench.workloads.w8_debugger",
    "W9": "bench.workloads.w9_gpu_mlp",
    "W10a": "bench.workloads.w10a_jacobian_wide",
    "W10b": "bench.workloads.w10b_jacobian_tall",
    "W10c": "bench.workloads.w10c_per_example_grads",
    "W10d": "bench.workloads.w10d_per_example_grads_mlp",
    "W10e": "bench.workloads.w10e_functional_jacobian",
    "W10f": "bench.workloads.w10f_per_example_hessians",
    "W11": "bench.workloads.w11_gpt_block",
    "W12": "bench.workloads.w12_lstm_lm",
    "W13": "bench.workloads.w13_mnist_cnn",
    "W14": "bench.workloads.w14_graph_depth",
    "W14b": "bench.workloads.w14b_graph_memory",
    "W15": "bench.workloads.w15_sine_lstm_lbfgs",
    "W16": "bench.workloads.w16_adamw_step",
    "W16b": "bench.workloads.w16b_adamw_step_small",
    "W17": "bench.workloads.w17_dcgan_generator",
}


class Skip(Exception):
    """This peer cannot run this workload here (not installed, or the workload does not fit it)."""


def load(name: str):
    """The module of workload ``name`` (``W1`` .. ``W10c``)."""
    try:
        return importlib.import_module(MODULES[name])
    except KeyError:
        raise ValueError(f"unknown workload {name!r}; known: {', '.join(MODULES)}") from None


def import_torch():
    """PyTorch pinned to one thread, or Skip when it is not installed."""
    try:
        import torch
    except ImportError:
        raise Skip("PyTorch is not installed") from None
    torch.set_num_threads(1)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass  # already set (only allowed once, before any parallel work)
    return torch


def import_micrograd():
    """micrograd's ``Value`` and ``nn`` modules, or Skip when it is not installed."""
    try:
        from micrograd import engine, nn
    except ImportError:
        raise Skip("micrograd is not installed") from None
    return engine, nn
