"""Activation checkpointing, as ``torch.utils.checkpoint``: trade compute for memory.

``checkpoint(fn, *args, use_reentrant=False)`` runs ``fn`` under no_grad, so none of its intermediate
values are kept, and records one node, ``Checkpoint``, from its inputs (and the parameters it uses) to
its output. When backward reaches that node, its rule runs ``fn`` again with grad on, from the same
inputs and the same random state (a dropout draws the same mask), and runs a nested backward pass
through the graph it just built: in the debugger the recomputation is visible as the nodes it creates
and as a pass one level deeper.

The parameters ``fn`` uses are the node's parents when ``fn`` can be seen to hold them: a Module, a
Module's bound method, or a function whose closure, defaults, global names or ``functools.partial``
arguments hold Modules or tensors. A tensor requiring grad that the recomputed graph reaches otherwise gets its gradient
accumulated into ``.grad`` during the recomputation's pass, as PyTorch's reentrant checkpoint does.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np

from .. import backend as B
from ..autograd.engine import grad as _grad
from ..autograd.function import Function
from ..autograd.grad_mode import enable_grad, is_grad_enabled, no_grad
from ..creation import generator_for
from ..nn.module import Module
from ..tensor import Tensor

__all__ = ["checkpoint", "checkpoint_sequential"]

_REENTRANT_WARNING = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. use_reentrant=False is "
    "recommended (in minigrad both variants recompute the same way)."
)


def _module_class():
    return Module


def _reached_tensors(fn) -> list:
    """The tensors requiring grad that ``fn`` visibly holds (see the module docstring), each once."""
    module = _module_class()
    found, seen_ids, stack, visited = [], set(), [fn], set()
    while stack:
        obj = stack.pop()
        if id(obj) in visited:
            continue
        visited.add(id(obj))
        if isinstance(obj, Tensor):
            if obj.requires_grad and obj.is_leaf and id(obj) not in seen_ids:
                seen_ids.add(id(obj))
                found.append(obj)
        elif isinstance(obj, module):
            stack.extend(reversed(list(obj.parameters())))
        elif isinstance(obj, functools.partial):
            stack.extend([obj.func, *obj.args, *obj.keywords.values()])
        elif isinstance(obj, (list, tuple)):
            stack.extend(obj)
        elif callable(obj):
            stack.append(getattr(obj, "__self__", None))
            stack.extend(cell.cell_contents for cell in (getattr(obj, "__closure__", None) or ()) if _filled(cell))
            stack.extend(getattr(obj, "__defaults__", None) or ())
            stack.extend(_globals_used(obj, module))
    return found


def _globals_used(fn, module) -> list:
    """The Modules and tensors among the global names ``fn``'s code reads (``lambda t: block(t)``)."""
    code, namespace = getattr(fn, "__code__", None), getattr(fn, "__globals__", None)
    if code is None or namespace is None:
        return []
    values = (namespace.get(name) for name in code.co_names)
    return [v for v in values if isinstance(v, (Tensor, module))]


def _filled(cell) -> bool:
    try:
        cell.cell_contents  # noqa: B018  (an empty cell raises)
    except ValueError:
        return False
    return True


def _leaves_of(outputs) -> list:
    """The leaves requiring grad that the graph of ``outputs`` reaches."""
    leaves, seen, stack = [], set(), [o for o in outputs if isinstance(o, Tensor) and o.requires_grad]
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        if t.is_leaf:
            leaves.append(t)
        else:
            stack.extend(p for p in t.parents if p.requires_grad)
    return leaves


def _rng_states(devices) -> dict:
    """The default generators' states of the CPU devices among ``devices`` (a CUDA stream is not replayed)."""
    return {device: generator_for(device).bit_generator.state for device in devices if device.xp is np}


def _set_rng_states(states: dict) -> None:
    for device, state in states.items():
        generator_for(device).bit_generator.state = state


class Checkpoint(Function):
    """The checkpointed segment as one node: forward without a graph; backward recomputes and differentiates."""

    @staticmethod
    def forward(ctx, run, preserve_rng_state, kwargs, n_inputs, *tensors):
        args = tensors[:n_inputs]
        ctx.run, ctx.kwargs, ctx.n_inputs = run, kwargs, n_inputs
        devices = {B.CPU} | {a.device for a in args if isinstance(a, Tensor)}
        ctx.rng = _rng_states(devices) if preserve_rng_state else None
        ctx.save_for_backward(*tensors)
        out = run(*args, **kwargs)  # apply runs forward with grad off
        if isinstance(out, list):
            out = tuple(out)
        outs = out if isinstance(out, tuple) else (out,)
        if not all(isinstance(o, Tensor) for o in outs):
            kinds = ", ".join(type(o).__name__ for o in outs)
            raise TypeError(
                f"checkpoint: the function must return a Tensor or a tuple of Tensors, but returned {kinds}"
            )
        return out

    @staticmethod
    def backward(ctx, *grads):
        tensors = ctx.saved_tensors
        params = list(tensors[ctx.n_inputs :])
        create_graph = is_grad_enabled()  # the outer pass records its rules (create_graph=True)
        if create_graph:  # recompute from the inputs themselves, so the gradients are functions of them
            inputs = list(tensors[: ctx.n_inputs])
        else:  # from copies cut from the graph: the nested pass stops there
            inputs = [t.detach().requires_grad_(t.requires_grad) for t in tensors[: ctx.n_inputs]]
        if ctx.rng is not None:
            now = _rng_states(ctx.rng)
            _set_rng_states(ctx.rng)
        try:
            with enable_grad():
                out = ctx.run(*inputs, **ctx.kwargs)
        finally:
            if ctx.rng is not None:
                _set_rng_states(now)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        pairs = [(o, g) for o, g in zip(outs, grads) if isinstance(o, Tensor) and o.requires_grad and g is not None]
        wanted = [t for t in inputs if t.requires_grad] + [p for p in params if p.requires_grad]
        known = {id(t) for t in wanted}
        others = [leaf for leaf in _leaves_of([o for o, _ in pairs]) if id(leaf) not in known]
        found = {}
        if pairs and wanted + others:
            results = _grad(
                [o for o, _ in pairs],
                wanted + others,
                grad_outputs=[g for _, g in pairs],
                create_graph=create_graph,
                allow_unused=True,
            )
            found = {id(t): r for t, r in zip(wanted + others, results)}
            with no_grad():
                for leaf in others:
                    g = found[id(leaf)]
                    if g is not None:
                        leaf.grad = g if leaf.grad is None else leaf.grad + g
        input_grads = [found.get(id(t)) for t in inputs]
        param_grads = [found.get(id(p)) for p in params]
        return (None, None, None, None, *input_grads, *param_grads)


def checkpoint(
    function,
    *args,
    use_reentrant: bool | None = None,
    context_fn=None,
    determinism_check: str = "default",
    debug: bool = False,
    early_stop: bool = True,
    preserve_rng_state: bool = True,
    **kwargs,
):
    """``function(*args, **kwargs)``, its intermediate values recomputed during backward instead of kept.

    ``function`` returns a tensor or a tuple of tensors. ``preserve_rng_state`` replays the random state
    of the forward (so dropout masks agree). ``use_reentrant`` is accepted as PyTorch's (None warns as
    PyTorch does); keyword arguments for ``function`` need ``use_reentrant=False``, as in PyTorch.
    ``context_fn``, ``determinism_check``, ``debug`` and ``early_stop`` are accepted and change nothing.
    """
    if use_reentrant is None:
        warnings.warn(_REENTRANT_WARNING, stacklevel=2)
        use_reentrant = True
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if use_reentrant and (context_fn is not None or debug is not False):
        raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
    inputs = tuple(args)
    held = [t for t in _reached_tensors(function) if not any(t is a for a in inputs)]
    return Checkpoint.apply(function, preserve_rng_state, kwargs, len(inputs), *inputs, *held)


def checkpoint_sequential(functions, segments: int, input, use_reentrant: bool | None = None, **kwargs):
    """Run ``functions`` (a list of modules or a Sequential) in order, in ``segments`` checkpointed pieces;
    the last piece runs normally, as in PyTorch."""
    if use_reentrant is None:
        warnings.warn(_REENTRANT_WARNING, stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if isinstance(functions, _module_class()):
        functions = list(functions.children())

    def run(start, end):
        segment = functions[start : end + 1]  # the closure holds only this segment's modules (and parameters)

        def forward(x):
            for f in segment:
                x = f(x)
            return x

        return forward

    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)
