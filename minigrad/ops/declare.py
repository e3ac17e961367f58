"""How an op is declared: once, beside its forward, with everything the engine and the transforms read.

An op is a function whose forward computes the result and whose nested ``backward`` (and ``jvp``)
closures are its rules, as in micrograd. The ``@op`` decorator above it declares the rest:

- **its argument types**, by the signature's annotations (``b: Tensor | Number``, ``dim: Dim``): the
  op's entry checks them and raises PyTorch's ``TypeError`` (``minigrad.ops._entry``); an argument
  without an annotation is not checked;
- **what its rules save** (``saves=``): the names of the forward's values the ``backward`` closure
  keeps, as PyTorch's ``save_for_backward`` names them. The engine's version check, ``retain_graph``'s
  freeing and the debugger's "captured" list read this declaration (``minigrad.autograd.saved``);
  a test checks it against what each rule really reads;
- **its batching rule** (``batch=``): the name of a family of rules that ``minigrad.batching`` owns
  (:data:`BROADCASTING`, :data:`BY_DIM`, ...), a function of this module's op written against the
  :class:`BatchedCall` that ``vmap`` hands it, or :data:`LOOP` (``vmap`` runs the op once per entry);
- **its Tensor methods** (``methods=``): the names under which ``Tensor`` carries it;
- and, with :func:`batches_gradients` above it, that its rules take a batch of gradients at once (they
  compute with Tensor methods and operators only), so ``vmap`` of a pull-back and ``jacrev`` run each
  of them once on the whole batch.

The registries live here, keyed by the op's own function; the engine and the transforms read them,
and an op imports nothing from ``minigrad.batching``, ``minigrad.func`` or ``minigrad.nn`` (JAX's
``primitive_batchers`` and ``defjvp`` with the registry owned by the layer that runs the transform).
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Callable
from typing import NamedTuple, Protocol

from .. import _state, _upcalls

__all__ = [
    "op",
    "rules_saving",
    "batches_gradients",
    "on_first_batched",
    "RANDOMNESS_ERROR",
    "Declaration",
    "BatchedCall",
    "declaration",
    "declared_ops",
    "declared_saves",
    "bind_methods",
    "BROADCASTING",
    "TRAILING",
    "BY_DIM",
    "BY_DIM_REQUIRED",
    "BY_DIMS",
    "ALONG_DIM",
    "COMPOSITE",
    "IN_PLACE",
    "LOOP",
    "FAMILIES",
]

#: Elementwise ops with broadcasting: batched operands padded to a common rank, the batch dims lined up.
BROADCASTING = "broadcasting"
#: Ops on the trailing dims of their first operand only (``tril``, ``pad``, ``clone``).
TRAILING = "trailing"
#: Ops taking ``dim`` (reductions): the dims move past the batch dim; ``dim=None`` means every dim.
BY_DIM = "by_dim"
#: As :data:`BY_DIM`, but ``dim`` must be given (``softmax``, ``cumsum``).
BY_DIM_REQUIRED = "by_dim_required"
#: As :data:`BY_DIM_REQUIRED`, for an argument called ``dims`` (``roll``).
BY_DIMS = "by_dims"
#: Ops that cut along one ``dim`` (``narrow``, ``split``, ``unbind``).
ALONG_DIM = "along_dim"
#: Ops written with other ops only: they run as they are, each inner op batched by its own rule.
COMPOSITE = "composite"
#: In-place arithmetic: the batched target's value changes in place, the other operands aligned to it.
IN_PLACE = "in_place"
#: No batching rule: ``vmap`` runs the op once per entry and stacks the results (with PyTorch's warning).
LOOP = "loop"

FAMILIES = (BROADCASTING, TRAILING, BY_DIM, BY_DIM_REQUIRED, BY_DIMS, ALONG_DIM, COMPOSITE, IN_PLACE, LOOP)


class BatchedCall(Protocol):
    """One call of an op with batched arguments, as ``vmap`` hands it to the op's own batching rule.

    Values "batched at this level" hold their entries along dim 0. A rule calls ops on them as on
    any tensor (an argument batched at an outer level dispatches at its own level) and returns
    :meth:`wrap` of its result, or :meth:`loop` for a case it does not batch.
    """

    fn: Callable
    args: tuple
    kwargs: dict
    #: The batch size of this level (the ``vmap``'s).
    size: int
    #: The ``randomness`` of this level's ``vmap``: ``"error"``, ``"different"`` or ``"same"``.
    randomness: str

    def value(self, x):
        """``x``'s entries stacked along dim 0 when ``x`` is batched at this level, else None."""

    def rank(self, x) -> int:
        """One entry's rank (``x.dim()`` for an unbatched tensor, 0 for a number)."""

    def wrap(self, out):
        """``out`` (a tensor or a tuple of them, entries along dim 0) batched at this level."""

    def loop(self):
        """The op run once per entry, the results stacked (with PyTorch's performance warning)."""

    def get(self, name: str):
        """The argument called ``name`` (given by position or keyword, else its default)."""

    def padded(self, v, rank: int):
        """A batched value with size-1 dims after the batch dim, so that its entries have rank ``rank``."""

    def expanded(self, x, size: int):
        """``x``'s batched value; an unbatched ``x`` repeated ``size`` times as a broadcast view."""

    def batched_among(self, values) -> bool:
        """Whether any of ``values`` is batched at this level."""

    def run(self, fn: Callable, *args, **kwargs):
        """``fn(*args, **kwargs)`` through ``vmap``'s dispatch: an argument batched at an outer level goes to
        that level's rule. (An op's own function called directly would not see outer levels.)"""

    def physical(self, d: int, rank: int) -> int:
        """Logical dim ``d`` of a rank-``rank`` entry as a dim of the batched value (past the batch dim),
        with PyTorch's error for a dim out of range."""

    def replaced(self, **changes) -> tuple[list, dict]:
        """The call's ``(args, kwargs)`` with the named arguments replaced (wherever they were given)."""

    def by_family(self, family: str, args: tuple | None = None, kwargs: dict | None = None):
        """The call (with ``args``/``kwargs`` instead of its own, when given) batched by the rule of
        ``family`` (:data:`BROADCASTING`, :data:`BY_DIM`, ...), for an op batched as a family in some cases."""

    def into_n(self, **batched):
        """The op on ``[B * N, ...]`` (each named batched argument so), its result split back into
        ``[B, N, ...]`` and batched: for ops that treat each of the N samples on its own."""


#: PyTorch's refusal of a random draw inside a ``vmap`` whose ``randomness`` is ``"error"`` (the default).
RANDOMNESS_ERROR = (
    "vmap: called random operation while in randomness error mode. Please either use the 'same' or "
    "'different' randomness flags on vmap or perform the randomness operation out of vmap"
)


def on_first_batched(rule: Callable[[BatchedCall, object], object]) -> Callable[[BatchedCall], object]:
    """An op's own batching rule for calls whose first argument is batched at this level, given that
    argument's batched value (``rule(call, value)``); any other call (a batched argument further on,
    ``x.expand_as(batched)``) runs by the loop."""

    def guarded(call: BatchedCall):
        value = call.value(call.args[0]) if call.args else None
        if value is None:
            return call.loop()
        return rule(call, value)

    guarded.__name__, guarded.__qualname__, guarded.__doc__ = rule.__name__, rule.__qualname__, rule.__doc__
    return guarded


class Declaration(NamedTuple):
    """What ``@op`` declared about one op."""

    name: str
    batch: str | Callable
    methods: tuple[str, ...]
    saves: dict[str, tuple[str, ...]]


_DECLARED: dict[Callable, Declaration] = {}
# code object of a rule -> the names of the values it saves. Keyed by the code, which every closure made
# from it shares, so making an op costs nothing more.
_SAVES: dict[types.CodeType, tuple[str, ...]] = {}
#: The functions :func:`rules_saving` declares: ``vmap`` runs them once per entry, quietly.
ENTRY_BY_ENTRY: set = set()
#: The code of each backward rule declared by :func:`batches_gradients`.
BATCHING_RULES: set = set()


def _rule_codes(code: types.CodeType):
    """The code objects of the functions defined inside ``code``, at any depth."""
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _rule_codes(const)


def _register_saves(fn: Callable, saves) -> dict[str, tuple[str, ...]]:
    by_rule = {"backward": tuple(saves)} if isinstance(saves, (tuple, list)) else dict(saves or {})
    codes = [c for c in _rule_codes(fn.__code__) if c.co_name in by_rule]
    for rule, names in by_rule.items():
        found = [c for c in codes if c.co_name == rule]
        if not found:
            raise TypeError(f"{fn.__qualname__}: saves= names a rule {rule!r} that it does not define")
        unknown = [n for n in names if not any(n in c.co_freevars for c in found)]
        if unknown:
            raise TypeError(f"{fn.__qualname__}: its rule {rule!r} declares it saves {unknown}, which it does not read")
        for code in found:  # a rule defined in two branches may read fewer of them in one
            _SAVES[code] = tuple(n for n in names if n in code.co_freevars)
    return by_rule


def op(*, batch: str | Callable, methods: tuple[str, ...] | str = (), saves=None):
    """Declare the function below as an op (see the module's docstring).

    ``saves`` is a tuple of names for the rule called ``backward``, or a dict from rule names to
    tuples when the op defines several rules (``{"backward": ("a", "b"), "backward_scalar": ("b",)}``).
    """
    if isinstance(batch, str) and batch not in FAMILIES:
        raise ValueError(f"op: unknown batching family {batch!r}; expected a rule or one of {FAMILIES}")
    names = (methods,) if isinstance(methods, str) else tuple(methods)

    def declare(fn: Callable) -> Callable:
        by_rule = _register_saves(fn, saves)
        _DECLARED[fn] = Declaration(fn.__name__, batch, names, by_rule)
        return fn

    return declare


def rules_saving(saves):
    """Declare what the rules defined inside the function below save, for a function that makes rules
    but is not an op itself (a rule factory shared by several ops, or a rule's step computed on arrays);
    ``saves`` as for :func:`op`.

    Such a function reads its tensors' arrays, so it has no batching rule: handed a batch (a rule running on
    a batch of gradients, under ``vmap``), it runs once per entry, as ``vmap`` runs an op declared ``LOOP``
    but without the warning (the slow path is minigrad's, not the user's op). Outside ``vmap`` the call
    costs one test of a thread-local tuple more."""

    def declare(fn: Callable) -> Callable:
        _register_saves(fn, saves)
        ENTRY_BY_ENTRY.add(fn)
        vmap = _state.vmap

        @functools.wraps(fn)
        def entry(*args, **kwargs):
            if vmap.levels:
                return _upcalls.vmap_call(fn, args, kwargs)
            return fn(*args, **kwargs)

        return entry

    return declare


def batches_gradients(fn: Callable) -> Callable:
    """Declare that the backward rules defined in ``fn`` (an op or a rule factory; or ``fn`` itself, a rule)
    compute only with ops that ``vmap`` batches (Tensor methods, operators, public ops or their checked
    entries; never arrays, nor an op's own function called directly, which skips the batching): a batch of
    gradients (``vmap`` of a pull-back, ``jacrev``) goes through each such rule at once. The engine runs any
    other rule once per entry of the batch. A test runs every declared op's rules both ways."""
    own = inspect.unwrap(fn)
    BATCHING_RULES.add(own.__code__)
    BATCHING_RULES.update(_rule_codes(own.__code__))
    return fn


def declaration(fn: Callable) -> Declaration | None:
    """The declaration of the op ``fn`` (its own function, not a checked entry), or None."""
    return _DECLARED.get(fn)


def declared_ops() -> dict[Callable, Declaration]:
    """Every declared op, by its function."""
    return dict(_DECLARED)


def declared_saves(rule: Callable) -> tuple[str, ...] | None:
    """The names of the values the rule ``rule`` saves, as its op declared them; None when undeclared."""
    code = getattr(rule, "__code__", None)
    return None if code is None else _SAVES.get(code)


def bind_methods(cls: type, module_name: str | None = None) -> None:
    """Give ``cls`` (Tensor) each declared op under its declared method names (those of ops defined in
    ``module_name`` only, when given)."""
    for fn, decl in _DECLARED.items():
        if module_name is None or fn.__module__ == module_name:
            for name in decl.methods:
                setattr(cls, name, fn)
