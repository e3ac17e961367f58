"""Custom autograd Functions: user-written forward and backward, recorded like a built-in op.

>>> class Cube(Function):
...     @staticmethod
...     def forward(ctx, x):
...         ctx.save_for_backward(x)
...         return x * x * x
...     @staticmethod
...     def backward(ctx, g):
...         (x,) = ctx.saved_tensors
...         return g * 3 * x * x
>>> y = Cube.apply(x)          # doctest: +SKIP

``apply`` runs ``forward`` with grad mode off, then wraps each output with
``tensor.make`` (op name = the class name), so the node appears in graphs and in
the event stream exactly like a built-in op. Its backward closure calls the
user's ``backward`` under the engine's grad mode: written with Tensor ops, it is
itself differentiable, so double backward works.
"""

from __future__ import annotations

import functools
import inspect
import weakref

from .. import _state, _upcalls
from .. import backend as B
from ..ops.declare import rules_saving
from ..ops.inplace import record_written
from ..tensor import Tensor, _set_tangent, make, make_leaf

__all__ = ["Function", "FunctionCtx", "once_differentiable"]

_grad_state = _state.grad
_forward_state = _state.forward
_transforms = _state.transforms
_vmap = _state.vmap

SETUP_CONTEXT_MESSAGE = (
    "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, jacrev, ...), it must "
    "override the setup_context staticmethod. For more details, please see "
    "https://pytorch.org/docs/main/notes/extending.func.html"
)
_signatures = weakref.WeakKeyDictionary()


def _bound(forward, args: tuple, kwargs: dict) -> tuple:
    """``(args, kwargs)`` as ``forward`` binds them: parameters given by keyword, and defaults, become
    positional, so ``setup_context`` sees every input (as PyTorch binds them)."""
    found = _signatures.get(forward)
    if found is None:
        signature = inspect.signature(forward)
        defaults = any(p.default is not p.empty for p in signature.parameters.values())
        found = _signatures[forward] = (signature, defaults)
    signature, defaults = found
    if not kwargs and not defaults:
        return args, kwargs
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.args, bound.kwargs


class FunctionCtx:
    """The ``ctx`` passed to a Function's forward and backward.

    Attributes: ``needs_input_grad`` (one bool per forward argument: a tensor
    that requires grad, under grad mode), ``saved_tensors``, and anything the
    forward sets on it.
    """

    def __init__(self, needs_input_grad: tuple):
        self.needs_input_grad = needs_input_grad
        self._saved = ()
        self._saved_for_forward = ()
        self._in_jvp = False
        self._tangents = {}  # dual level -> the outputs' tangents (jvp runs once per level, for all outputs)
        self._raw_outputs = ()  # forward's outputs, kept under nested dual levels (_carry_outer_tangents)
        self._non_differentiable = set()
        self._dirty = ()
        self.materialize_grads = True

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors (or None) for backward; read them back with ``saved_tensors``."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(
                    f"save_for_backward can only save tensors, but argument {i} is of type {type(t).__name__}"
                )
        self._saved = tensors

    def save_for_forward(self, *tensors) -> None:
        """Keep tensors (or None) for ``jvp``; inside ``jvp`` they are ``saved_tensors``."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(
                    f"save_for_forward expects all arguments to be tensors; but argument {i} is of type "
                    f"{type(t).__name__}"
                )
        self._saved_for_forward = tensors

    @property
    def saved_tensors(self) -> tuple:
        """The tensors given to ``save_for_backward`` (a saved output is the output node itself);
        inside ``jvp``, those given to ``save_for_forward``."""
        if self._in_jvp:
            return self._saved_for_forward
        return tuple(t() if callable(t) else t for t in self._saved)  # a saved output's node (_wrap_outputs)

    def mark_dirty(self, *tensors) -> None:
        """Declare inputs that forward wrote in place; each must be returned as an output, and after
        ``apply`` it is the Function's node, as after an in-place op (``x.add_(y)``)."""
        self._dirty = tensors

    def mark_non_differentiable(self, *outputs) -> None:
        """Declare outputs (e.g. indices) that get no gradient; they come out as tensors not requiring grad."""
        self._non_differentiable.update(id(o) for o in outputs)

    def set_materialize_grads(self, value: bool) -> None:
        """With False, backward receives None (not zeros) for outputs that got no gradient."""
        self.materialize_grads = bool(value)


class Function:
    """Base class for custom differentiable operations.

    Subclass it with static ``forward(ctx, *args, **kwargs)`` returning a
    Tensor or a tuple of Tensors, and static ``backward(ctx, *grads)`` taking
    one gradient per output and returning one gradient (or None) per forward
    argument. Call it as ``MyFunction.apply(*args, **kwargs)``. Alternatively
    define ``forward(*args)`` without ctx plus
    ``setup_context(ctx, inputs, output)``, as in PyTorch 2: only that form
    works under the ``minigrad.func`` transforms (``grad``, ``jvp``, ``vmap``,
    ...); ``vmap`` also needs a ``vmap`` staticmethod or ``generate_vmap_rule``.

    Tensor arguments are the node's parents; other arguments (and keyword
    arguments) are constants and must get ``None`` as their gradient. As in
    PyTorch, the engine checks each gradient against its input: one whose shape
    broadcasts to the input's shape is summed down to it (a ``grad_reduced``
    event), another shape or device is an error, another dtype is cast.

    With several outputs, each output is its own graph node (same op name), and
    ``backward`` is called once per pass with every output's gradient (zeros
    for an output that got none, or None with ``ctx.set_materialize_grads(False)``),
    as in PyTorch: the outputs hang off one hidden node (op ``<Name>_outputs``)
    that makes the call.
    """

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            f"{type(self).__name__} is a minigrad.autograd.Function: call it as {type(self).__name__}.apply(...) "
            "with static forward and backward methods"
        )

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement the backward function for custom autograd.Function.")

    @staticmethod
    def jvp(ctx, *tangents):
        """Forward-mode rule: one tangent per forward input (None for non-tensors) in, one per output out."""
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with forward mode AD."
        )

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    generate_vmap_rule = False
    """With True, ``vmap`` batches the Function by running its ``forward``, ``setup_context``, ``backward``
    and ``jvp`` each under a ``vmap`` of their own (they must be written with minigrad ops)."""

    @staticmethod
    def vmap(info, in_dims, *args):
        """The Function under ``minigrad.func.vmap`` (or set ``generate_vmap_rule = True``, not both).

        ``info`` has ``batch_size`` and ``randomness``; ``in_dims`` has one entry per argument: the
        dim of its batch, None for an argument not batched. ``args`` are the forward's arguments,
        each tensor holding the whole batch. Return ``(output, out_dims)``: ``out_dims`` one dim (or
        None) per output tensor, as ``output`` is structured."""
        raise NotImplementedError(
            "To use autograd.Function with vmap, you must either override the vmap staticmethod or set "
            "generate_vmap_rule=True."
        )

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` and record one graph node per output (when grad mode is on and an input requires grad).

        Under a ``minigrad.func`` transform the Function must have ``setup_context``; under ``vmap``
        also a ``vmap`` staticmethod or ``generate_vmap_rule`` (``minigrad.batching.function``)."""
        separate_setup = cls.setup_context is not Function.setup_context
        if separate_setup:
            args, kwargs = _bound(cls.forward, args, kwargs)
        if _transforms.depth or _vmap.levels:
            if not separate_setup:
                raise RuntimeError(SETUP_CONTEXT_MESSAGE)
            if _vmap.levels:
                batched = _upcalls.vmap_function_apply(cls, args, kwargs)
                if batched is not NotImplemented:
                    return batched
        grad_on = _grad_state.enabled
        ctx = FunctionCtx(tuple(grad_on and isinstance(a, Tensor) and a.requires_grad for a in args))
        forward_level = _forward_state.level
        _grad_state.enabled = False
        _forward_state.level = -1  # forward's own ops carry no tangents: jvp gives the outputs' tangents
        try:
            if separate_setup:
                raw = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, raw)
            else:
                raw = cls.forward(ctx, *args, **kwargs)
        finally:
            _grad_state.enabled = grad_on
            _forward_state.level = forward_level
        is_tuple = isinstance(raw, tuple)
        raw_outputs = raw if is_tuple else (raw,)
        for i, o in enumerate(raw_outputs):
            if not isinstance(o, Tensor):
                raise TypeError(
                    f"{cls.__name__}.forward must return a Tensor or a tuple of Tensors, "
                    f"but output {i} is of type {type(o).__name__}"
                )
        if ctx._dirty and not all(any(d is o for o in raw_outputs) for d in ctx._dirty):
            raise RuntimeError(
                "Some elements marked as dirty during the forward method were not returned as output. The inputs "
                "that are modified inplace must all be outputs of the Function."
            )
        parents = tuple(a for a in args if isinstance(a, Tensor))
        if not parents:
            return raw
        if ctx._dirty:
            return _written_input(cls, ctx, args, parents, raw_outputs)
        outputs = _wrap_outputs(cls, ctx, args, parents, raw_outputs)
        return outputs if is_tuple else outputs[0]


def _written_input(cls, ctx: FunctionCtx, args: tuple, parents: tuple, raw_outputs: tuple) -> Tensor:
    """The output of a Function whose forward wrote an input in place (``ctx.mark_dirty``): that input
    becomes the Function's node, recorded as an in-place op is (``ops.inplace``), so its old node moves
    to a copy, and a view rewrites its base."""
    if len(raw_outputs) != 1:
        raise NotImplementedError(
            f"{cls.__name__}: ctx.mark_dirty is supported for a Function with one output (the written input)"
        )
    (written,) = raw_outputs
    if written.is_leaf and written.requires_grad and _grad_state.enabled:
        raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
    specs = ((written.array.shape, written.array.dtype, written.device),)
    rule, jvp = _closure(cls, ctx, args, specs), _tangent_rule(cls, ctx, args, 0)

    def node(_, *inputs):  # the Function's node on its inputs, ``written``'s old node among them
        # with its own copy of the value: nodes made on the way (a view's copy_slices) hold it, and the
        # memory it came from may be written again
        return make(written.array.copy(), inputs, rule, cls.__name__, jvp)

    return record_written(written, cls.__name__, node, *parents)


def _wrap_outputs(cls, ctx: FunctionCtx, args: tuple, parents: tuple, raw_outputs: tuple) -> tuple:
    specs = tuple((o.array.shape, o.array.dtype, o.device) for o in raw_outputs)
    arg_ids = {id(a) for a in args}
    if _forward_state.level > 0:  # nested forward levels: the rules may read forward's outputs (_carry_outer_tangents)
        ctx._raw_outputs = tuple(
            None if id(o) in arg_ids or id(o) in ctx._non_differentiable else o for o in raw_outputs
        )
    if len(raw_outputs) == 1:
        rules = [_closure(cls, ctx, args, specs)]
        parents_of, pending = parents, None
    else:
        hub, pending = _hub(cls, ctx, args, parents, specs)
        rules = [_output_rule(hub, pending, k) for k in range(len(raw_outputs))]
        parents_of = (hub,)
    outputs = []
    for k, (o, rule) in enumerate(zip(raw_outputs, rules)):
        if id(o) in ctx._non_differentiable:
            outputs.append(make_leaf(o.array, o.device))
            continue
        node = make(o.array, parents_of, rule, cls.__name__, _tangent_rule(cls, ctx, args, k))
        if node.device is not o.device:
            node.device = o.device
        outputs.append(node)
        if node.requires_grad and id(o) not in arg_ids and any(s is o for s in ctx._saved):
            # A saved output becomes the output node (for double backward), held weakly: the node's
            # closure holds ctx, and a strong reference back would be a cycle.
            unpack = weakref.ref(node) if len(raw_outputs) == 1 else _saved_output(cls, ctx, args, node, k, o, pending)
            ctx._saved = tuple(unpack if s is o else s for s in ctx._saved)
    return tuple(outputs)


def _saved_output(cls, ctx: FunctionCtx, args: tuple, node: Tensor, k: int, raw: Tensor, pending: dict):
    """What ``saved_tensors`` calls for output ``k`` of a several-output Function: its node while the caller
    keeps it, else a node remade on the hub (``node``'s parent), as PyTorch unpacks a saved output with
    its grad_fn, so a backward that reads an output the caller dropped stays differentiable."""
    node_ref, hub_ref, ctx_ref = weakref.ref(node), weakref.ref(node.parents[0]), weakref.ref(ctx)

    def unpack():
        found, hub = node_ref(), hub_ref()
        if found is not None or hub is None:
            return raw if found is None else found
        rule = _output_rule(hub, pending, k)
        return make(raw.array, (hub,), rule, cls.__name__, _tangent_rule(cls, ctx_ref(), args, k))

    return unpack


@rules_saving(("ctx",))  # what the user's ``ctx.save_for_backward`` gave it
def _closure(cls, ctx: FunctionCtx, args: tuple, specs: tuple):
    """The backward closure of a one-output Function: one gradient per tensor argument, checked."""

    def backward(g):
        return _checked(cls, args, cls.backward(ctx, g))

    backward.__wrapped__ = cls.backward  # lets inspect.getsource (and the debugger) show the user's code
    backward.__qualname__ = f"{cls.__qualname__}.backward"
    return backward


@rules_saving(("ctx",))
def _hub(cls, ctx: FunctionCtx, args: tuple, parents: tuple, specs: tuple) -> tuple[Tensor, dict]:
    """The node that calls ``backward`` once for a Function with several outputs, and its ``pending``.

    Each output is a node whose only parent is this hub. An output's rule leaves
    its complete gradient in ``pending`` and sends the hub a one-hot mark; the hub
    (after every output, in topological order) reads from the summed marks which
    outputs got a gradient in this pass and calls ``backward`` with all of them,
    zeros (or None) for the rest, as PyTorch does.
    """
    device = parents[0].device
    pending = {}

    def backward(reached):
        hits = B.to_host(reached.array)
        grads_in = tuple(pending.pop(k) if hits[k] else _zeros(spec, ctx) for k, spec in enumerate(specs))
        pending.clear()
        return _checked(cls, args, cls.backward(ctx, *grads_in))

    backward.__wrapped__ = cls.backward
    backward.__qualname__ = f"{cls.__qualname__}.backward"
    fill_tangents = _tangent_rule(cls, ctx, args, 0)

    def jvp(*tangents):  # forward mode: runs ``jvp`` once (the outputs read its results); the hub's own is 0
        fill_tangents(*tangents)
        return make_leaf(device.xp.zeros(len(specs), dtype=B.get_default_dtype()), device)

    hub = make(
        device.xp.zeros(len(specs), dtype=B.get_default_dtype()), parents, backward, cls.__name__ + "_outputs", jvp
    )
    return hub, pending


@rules_saving({"output_backward": ("k", "mark", "pending")})  # the hub's mark, and where the gradient waits
def _output_rule(hub: Tensor, pending: dict, k: int):
    mark = make_leaf(hub.device.xp.eye(hub.array.shape[0], dtype=hub.array.dtype)[k], hub.device)

    def output_backward(g):
        pending[k] = g
        return (mark,)

    return output_backward


def _checked(cls, args: tuple, grads) -> tuple:
    """The gradients ``backward`` returned, one per tensor argument, after PyTorch's checks."""
    name = cls.__name__ + "Backward"
    n_args = len(args)
    if not isinstance(grads, tuple):
        grads = (grads,)
    if len(grads) != n_args:
        if len(grads) > n_args and all(x is None for x in grads[n_args:]):
            grads = grads[:n_args]
        else:
            raise RuntimeError(
                f"function {name} returned an incorrect number of gradients (expected {n_args}, got {len(grads)})"
            )
    tensor_positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    for i, gi in enumerate(grads):
        if gi is not None and i not in tensor_positions:
            raise RuntimeError(
                f"function {name} returned a gradient different than None at position {i + 1}, "
                "but the corresponding forward input was not a Variable"
            )
    for i in tensor_positions:
        if grads[i] is not None and not isinstance(grads[i], Tensor):
            raise RuntimeError(f"expected Variable or None (got {type(grads[i]).__name__})")
    return tuple(grads[i] for i in tensor_positions)


TWICE_MESSAGE = "trying to differentiate twice a function that was marked with @once_differentiable"


def once_differentiable(backward):
    """Decorate a Function's ``backward`` that is not itself differentiable (as PyTorch's decorator).

    It runs under no_grad. When the pass records a graph (``create_graph``) and an
    incoming gradient requires grad, its results come out as nodes (op ``Error``)
    that refuse to be differentiated, with PyTorch's message.
    """

    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        grad_on = _grad_state.enabled
        _grad_state.enabled = False
        try:
            outputs = backward(ctx, *grads)
        finally:
            _grad_state.enabled = grad_on
        sources = tuple(g for g in grads if isinstance(g, Tensor) and g.requires_grad)
        if not grad_on or not sources:
            return outputs
        single = not isinstance(outputs, tuple)
        marked = tuple(
            make(o.array, sources, _differentiated_twice, "Error") if isinstance(o, Tensor) else o
            for o in ((outputs,) if single else outputs)
        )
        return marked[0] if single else marked

    return wrapper


def _differentiated_twice(g):
    raise RuntimeError(TWICE_MESSAGE)


def _carry_outer_tangents(ctx: FunctionCtx, level: int) -> None:
    """Before the rule of the level at depth ``level + 1`` runs: ``forward`` ran with no level active, so
    give its outputs (which the rule may have saved) the tangents the output nodes carry at the levels
    outside (those rules ran first), as if ``forward`` had run under them."""
    for depth in range(level + 1):
        for o, tangent in zip(ctx._raw_outputs, ctx._tangents.get(depth - 1, ())):
            if o is not None:
                _set_tangent(o, tangent, depth)


def _tangent_rule(cls, ctx: FunctionCtx, args: tuple, k: int):
    """The forward-mode rule of output ``k``: ``cls.jvp`` called once for all outputs, its results checked."""
    name = cls.__name__ + "Backward"
    tensor_positions = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))

    def jvp(*tangents):
        level = _forward_state.level  # the rule of the level at depth d runs with depth d - 1 active
        if level not in ctx._tangents:
            if level >= 0:
                _carry_outer_tangents(ctx, level)
            per_arg = [None] * len(args)
            for i, t in zip(tensor_positions, tangents):
                per_arg[i] = t
            ctx._in_jvp = True
            try:
                out = cls.jvp(ctx, *per_arg)
            finally:
                ctx._in_jvp = False
            ctx._tangents[level] = out if isinstance(out, tuple) else (out,)
        out = ctx._tangents[level]
        if k >= len(out):
            raise RuntimeError(
                f"function {name} returned an incorrect number of forward gradients (expected at least {k + 1}, "
                f"got {len(out)})"
            )
        if not isinstance(out[k], Tensor):
            raise TypeError(
                f"function {name} returned a forward gradient of type {type(out[k]).__name__} for output {k}; "
                "expected a Tensor"
            )
        return out[k]

    jvp.__wrapped__ = cls.jvp
    jvp.__qualname__ = f"{cls.__qualname__}.jvp"
    return jvp


def _zeros(spec, ctx):
    if not ctx.materialize_grads:
        return None
    shape, dtype, device = spec
    return make_leaf(device.xp.zeros(shape, dtype=dtype), device)
