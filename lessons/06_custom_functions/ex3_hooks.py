# Exercise file generated from reference/ex3_hooks.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 6.3 — hooks: look at, and change, the gradient flowing through a tensor.

`t.register_hook(fn)` makes the engine call `fn(grad)` when the complete gradient of
`t` is known, before `t`'s own backward closure runs. If `fn` returns a tensor, that
tensor replaces the gradient for the rest of the pass (everything upstream of `t`
sees it); if it returns None, the gradient is unchanged. `register_hook` returns a
handle whose `remove()` takes the hook off again.
"""


def clip_gradient(t, max_abs: float):
    """Clamp every element of the gradient flowing through `t` to [-max_abs, max_abs]; return the handle."""
    # HINT: the hook receives a Tensor; .clamp(min, max) returns the clipped one.
    raise NotImplementedError("exercise: write clip_gradient()")


def capture_grads(named: dict) -> dict:
    """Register hooks that store the gradient of each tensor in `named` (name -> tensor).

    Return a dict that, after the next backward pass, maps each name to the gradient
    that arrived at that tensor — intermediates included, without `retain_grad()`.
    The hooks must not change any gradient.
    """
    # HINT: a hook that stores and returns None; bind the name with a default argument.
    raise NotImplementedError("exercise: write capture_grads()")
