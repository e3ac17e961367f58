"""Higher-level derivatives of whole functions: vjp, jvp, jacobian, hessian, vhp, hvp.

Same signatures, return structure and error messages as ``torch.autograd.functional``,
built on :func:`minigrad.autograd.grad`:

- ``inputs`` is a Tensor or a tuple of Tensors; results mirror that (a single
  tensor in, a single tensor out). ``func`` returns a Tensor or a tuple of Tensors.
- The inputs are replaced by fresh tensors before ``func`` runs (detached ones,
  or with ``create_graph=True`` differentiable aliases of inputs that require
  grad), so tensors ``func`` captures from outside are constants.
- Without ``create_graph`` the results are detached; with it they are part of
  a graph that reaches the original inputs.
- ``strict=True`` raises when an output is independent of an input instead of
  returning zeros.

minigrad has no forward-mode AD, so ``jvp`` (and ``hvp``, and the
``"forward-mode"`` Jacobian strategy) use the double-vjp trick: ``u -> J^T u``
is linear in a dummy ``u``, so the vjp of that map with ``v`` is ``J v``.
``vectorize=True`` is accepted and computes a Jacobian with one batched
``grad(..., is_grads_batched=True)`` call per output.
"""

from __future__ import annotations

from ..ops.shape import stack
from ..tensor import Tensor, make, make_leaf, shape_str
from .engine import grad
from .grad_mode import enable_grad, is_grad_enabled, set_grad_enabled

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


# ---------------------------------------------------------------- helpers
def _as_tuple(inp, arg_name: str, fn_name: str) -> tuple[bool, tuple]:
    """(whether ``inp`` was a tuple, ``inp`` as a tuple), checking that it holds Tensors."""
    is_tuple = isinstance(inp, tuple)
    items = inp if is_tuple else (inp,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            where = f"the value at index {i} has type" if is_tuple else f"the given {arg_name} has type"
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but {where} "
                f"{type(el)}."
            )
    return is_tuple, items


def _tuple_postprocess(res, to_unpack):
    """Undo ``_as_tuple``: unwrap one level (bool) or two levels (pair of bools) of tuples."""
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _alias_backward(g):
    return (g,)


def _grad_preprocess(inputs: tuple, create_graph: bool, need_graph: bool) -> tuple:
    """Fresh tensors for ``inputs``: differentiable aliases (create_graph) or detached leaves.

    A new object per input lets grad() tell the inputs given here apart from the
    same tensors captured by ``func`` from its surroundings.
    """
    res = []
    for inp in inputs:
        if create_graph and inp.requires_grad:
            res.append(make(inp.array, (inp,), _alias_backward, "alias"))
        else:
            res.append(make_leaf(inp.array, inp.device, requires_grad=need_graph and inp.array.dtype.kind == "f"))
    return tuple(res)


def _grad_postprocess(tensors: tuple, create_graph: bool) -> tuple:
    if tensors and isinstance(tensors[0], Tensor):
        return tensors if create_graph else tuple(t.detach() for t in tensors)
    return tuple(_grad_postprocess(t, create_graph) for t in tensors)


def _validate_v(v: tuple, other: tuple, is_other_tuple: bool) -> None:
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.shape != el_other.shape:
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(
                f"{prepend}v has invalid size: should be {shape_str(el_other.shape)} but got {shape_str(el_v.shape)}."
            )


_INDEPENDENT = {
    "outputs": "The output of the user-provided function is independent of input {i}. This is not allowed in "
    "strict mode.",
    "hessian": "The hessian of the user-provided function with respect to input {i} is independent of the input. "
    "This is not allowed in strict mode. You should ensure that your function is thrice differentiable and that "
    "the hessian depends on the inputs.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided function with respect "
    "to input {i} is independent of the input. This is not allowed in strict mode. You should ensure that your "
    "function is twice differentiable and that the jacobian depends on the inputs (this would be violated by a "
    "linear function for example).",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the user-provided "
    "function. This is not allowed in strict mode.",
    "not_differentiable": "Output {i} of the user-provided function does not require gradients. The outputs must "
    "be computed in a differentiable manner from the input when running in strict mode.",
}


def _check_requires_grad(tensors: tuple, kind: str, strict: bool) -> None:
    """In strict mode, every tensor must be part of a graph (``kind`` picks the message)."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(_INDEPENDENT["outputs"].format(i=i))
        if not t.requires_grad:
            key = "not_differentiable" if kind == "outputs" else kind
            raise RuntimeError(_INDEPENDENT[key].format(i=i))


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None, is_grads_batched=False):
    """grad() that skips outputs which are None or do not require grad (all None when none is left)."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    kept = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    return grad(
        tuple(o for o, _ in kept),
        inputs,
        tuple(g for _, g in kept),
        retain_graph=retain_graph,
        create_graph=create_graph,
        allow_unused=True,
        is_grads_batched=is_grads_batched,
    )


_FILL_ERRORS = {
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs when "
    "using the double backward trick to compute forward mode gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not allowed "
    "in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
    "grad_jacobian. This is not allowed in strict mode as it prevents from using the double backward trick to "
    "replace forward mode AD.",
}


def _fill_in_zeros(grads: tuple, refs: tuple, strict: bool, create_graph: bool, stage: str) -> tuple:
    """Replace None gradients by zeros shaped like ``refs`` (or raise in strict mode)."""
    res = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_FILL_ERRORS[stage].format(i=i))
            g = _zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(
                f"The {what} of the user-provided function is independent of input {i}. This is not allowed in "
                "strict mode when create_graph=True."
            )
        res.append(g)
    return tuple(res)


def _zeros_like(t: Tensor, requires_grad: bool = False) -> Tensor:
    return make_leaf(t.device.xp.zeros_like(t.array), t.device, requires_grad=requires_grad)


def _one_hot(ref: Tensor, index: int) -> Tensor:
    """A tensor shaped like ``ref``, zero except for a 1 at flat position ``index``."""
    arr = ref.device.xp.zeros(ref.array.size, dtype=ref.array.dtype)
    arr[index] = 1
    return make_leaf(arr.reshape(ref.array.shape), ref.device)


def _basis(ref: Tensor) -> Tensor:
    """The standard basis of ``ref``'s space, batched: shape ``[numel, *ref.shape]``."""
    n = ref.array.size
    eye = ref.device.xp.eye(n, dtype=ref.array.dtype)
    return make_leaf(eye.reshape((n,) + ref.array.shape), ref.device)


def _stack_as(pieces: list, shape: tuple, ref: Tensor) -> Tensor:
    """Stack per-element results and view them as ``shape`` (zeros when there are no elements)."""
    if not pieces:
        return make_leaf(ref.device.xp.zeros(shape, dtype=ref.array.dtype), ref.device)
    return stack(pieces).reshape(shape)


def _run_func(func, inputs: tuple, fn_name: str, strict: bool) -> tuple[bool, tuple]:
    is_outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function", fn_name)
    _check_requires_grad(outputs, "outputs", strict)
    return is_outputs_tuple, outputs


def _prepare_v(v, against: tuple, is_against_tuple: bool, fn_name: str, create_graph: bool, none_msg: str) -> tuple:
    if v is None:
        if len(against) != 1 or against[0].numel() != 1:
            raise RuntimeError(none_msg)
        return None
    _, v = _as_tuple(v, "v", fn_name)
    v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
    _validate_v(v, against, is_against_tuple)
    return v


_V_NONE_OUTPUT = (
    "The vector v can only be None if the user-provided function returns a single Tensor with a single element."
)
_V_NONE_INPUT = (
    "The vector v can only be None if the input to the user-provided function is a single Tensor with a single element."
)


# ---------------------------------------------------------------- public API
def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """The vector-Jacobian product ``v^T J`` of ``func`` at ``inputs``.

    Returns ``(func_output, vjp)``: ``vjp`` is shaped like the inputs. ``v`` is
    shaped like the outputs; it may be omitted when ``func`` returns a single
    element.
    """
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        is_outputs_tuple, outputs = _run_func(func, inputs, "vjp", strict)
        v = _prepare_v(v, outputs, is_outputs_tuple, "vjp", create_graph, _V_NONE_OUTPUT)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grad_res = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "back")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_inputs_tuple)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """The Jacobian-vector product ``J v`` of ``func`` at ``inputs`` (by the double-vjp trick).

    Returns ``(func_output, jvp)``: ``jvp`` is shaped like the outputs. ``v`` is
    shaped like the inputs; it may be omitted when the input is a single element.
    """
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, "jvp", create_graph, _V_NONE_INPUT)
        is_outputs_tuple, outputs = _run_func(func, inputs, "jvp", strict)
        # u -> J^T u is linear, so u's value never enters the second pass: zeros are enough.
        dummies = tuple(_zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, dummies, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grad_res = _autograd_grad(grad_inputs, dummies, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, outputs, strict, create_graph, "back_trick")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_outputs_tuple)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``.

    For one output and one input, a tensor of shape ``output.shape + input.shape``;
    with tuples, ``result[i][j]`` is the Jacobian of output ``i`` w.r.t. input ``j``.
    ``strategy="reverse-mode"`` takes one vjp per output element;
    ``"forward-mode"`` (needs ``vectorize=True``, as in PyTorch) one jvp per input
    element, which is cheaper when outputs outnumber inputs.
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise ValueError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function has more '
            'outputs than inputs, "forward-mode" tends to be more performant. Otherwise, prefer to use '
            '"reverse-mode".'
        )
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                'minigrad.autograd.functional.jacobian: `create_graph=True` and `strategy="forward-mode"` are '
                'not supported together (yet). Please either set `create_graph=False` or `strategy="reverse-mode"`.'
            )
        return _jacobian_forward(func, inputs, strict, vectorize)
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        is_outputs_tuple, outputs = _run_func(func, inputs, "jacobian", strict)
        if vectorize:
            if strict:
                raise RuntimeError(
                    "minigrad.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not supported "
                    "together. Please either set `strict=False` or `vectorize=False`."
                )
            jac = _jacobian_batched(outputs, inputs, create_graph)
        else:
            jac = _jacobian_loop(outputs, inputs, create_graph, strict)
        jac = _grad_postprocess(jac, create_graph)
        return _tuple_postprocess(jac, (is_outputs_tuple, is_inputs_tuple))


def _jacobian_loop(outputs: tuple, inputs: tuple, create_graph: bool, strict: bool) -> tuple:
    """Reverse mode, one vjp with a one-hot vector per output element."""
    jacobian = []
    for i, out in enumerate(outputs):
        rows = tuple([] for _ in inputs)
        for j in range(out.numel()):
            vj = _autograd_grad((out,), inputs, (_one_hot(out, j),), retain_graph=True, create_graph=create_graph)
            for k, (rows_k, g, inp) in enumerate(zip(rows, vj, inputs)):
                if g is None:
                    if strict:
                        raise RuntimeError(
                            f"Output {i} of the user-provided function is independent of input {k}. This is not "
                            "allowed in strict mode."
                        )
                    g = _zeros_like(inp)
                elif strict and create_graph and not g.requires_grad:
                    raise RuntimeError(
                        f"The jacobian of the user-provided function is independent of input {i}. This is not "
                        "allowed in strict mode when create_graph=True."
                    )
                rows_k.append(g)
        jacobian.append(tuple(_stack_as(rows_k, out.shape + inp.shape, inp) for rows_k, inp in zip(rows, inputs)))
    return tuple(jacobian)


def _jacobian_batched(outputs: tuple, inputs: tuple, create_graph: bool) -> tuple:
    """Reverse mode, one batched grad() per output with the standard basis as grad_outputs."""
    jacobian = []
    for out in outputs:
        if out.numel() == 0 or not out.requires_grad:
            jacobian.append(tuple(_stack_as([], out.shape + inp.shape, inp) for inp in inputs))
            continue
        vj = _autograd_grad(
            (out,), inputs, (_basis(out),), create_graph=create_graph, retain_graph=True, is_grads_batched=True
        )
        jacobian.append(
            tuple(
                _stack_as([], out.shape + inp.shape, inp) if g is None else g.reshape(out.shape + inp.shape)
                for g, inp in zip(vj, inputs)
            )
        )
    return tuple(jacobian)


def _jacobian_forward(func, inputs, strict: bool, vectorize: bool):
    """Forward strategy: one Jacobian column (a jvp by the double-vjp trick) per input element."""
    if strict:
        raise RuntimeError(
            'minigrad.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are not supported '
            'together (yet). Please either set `strict=False` or `strategy="reverse-mode"`.'
        )
    if not vectorize:
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian is only implemented for "
            "`vectorize=True`."
        )
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _grad_preprocess(inputs, create_graph=False, need_graph=True)
        is_outputs_tuple, outputs = _run_func(func, inputs, "jacobian", strict)
        dummies = tuple(_zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, dummies, create_graph=True)
        columns = [[[] for _ in inputs] for _ in outputs]  # columns[i][k]: d output i / d input k, per element
        for k, (inp, gk) in enumerate(zip(inputs, grad_inputs)):
            for e in range(inp.numel()):
                col = (None,) * len(outputs)
                if gk is not None:
                    col = _autograd_grad((gk,), dummies, (_one_hot(inp, e),), retain_graph=True)
                for i, (out, c) in enumerate(zip(outputs, col)):
                    columns[i][k].append(_zeros_like(out) if c is None else c)
    jac = tuple(
        tuple(
            stack(cols, dim=-1).reshape(out.shape + inp.shape) if cols else _stack_as([], out.shape + inp.shape, inp)
            for cols, inp in zip(columns[i], inputs)
        )
        for i, out in enumerate(outputs)
    )
    jac = _grad_postprocess(jac, False)
    return _tuple_postprocess(jac, (is_outputs_tuple, is_inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function ``func`` at ``inputs``.

    For one input, a tensor of shape ``input.shape + input.shape``; with a tuple
    of inputs, ``result[i][j]`` is the block for inputs ``i`` and ``j``.
    """
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise ValueError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def single_output(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(t_out, "outputs", strict)
        if is_out_tuple:
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def jac_func(*inp):
        jac = jacobian(single_output, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    res = jacobian(
        jac_func,
        inputs,
        create_graph=create_graph,
        strict=strict,
        vectorize=vectorize,
        strategy=outer_jacobian_strategy,
    )
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))


def _scalar_output(func, inputs, fn_name: str, strict: bool) -> tuple:
    is_outputs_tuple, outputs = _run_func(func, inputs, fn_name, strict)
    if is_outputs_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a single element")
    return is_outputs_tuple, outputs


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """The vector-Hessian product ``v^T H`` of a scalar function at ``inputs``.

    Returns ``(func_output, vhp)``, ``vhp`` shaped like the inputs.
    """
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vhp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, "vhp", create_graph, _V_NONE_INPUT)
        is_outputs_tuple, outputs = _scalar_output(func, inputs, "vhp", strict)
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grad_res = _autograd_grad(jac, inputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_inputs_tuple)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """The Hessian-vector product ``H v`` of a scalar function at ``inputs`` (by the double-vjp trick).

    Returns ``(func_output, hvp)``, ``hvp`` shaped like the inputs. For a twice
    continuously differentiable function the Hessian is symmetric and
    ``hvp == vhp``; vhp needs one pass fewer.
    """
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hvp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, "hvp", create_graph, _V_NONE_INPUT)
        is_outputs_tuple, outputs = _scalar_output(func, inputs, "hvp", strict)
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        grad_jac = tuple(_zeros_like(inp, requires_grad=True) for inp in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grad_res = _autograd_grad(double_back, grad_jac, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back_trick")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_inputs_tuple)
