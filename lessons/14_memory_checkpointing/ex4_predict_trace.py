# Exercise file generated from reference/ex4_predict_trace.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Prediction — what the debugger will show for the lesson's demo.

Read demo.py (do not run it yet) and answer on paper: the check records the demo and compares each
answer with its events. Then find them on screen with `minigrad lesson debug` and the lesson's number.
Names are the demo's variable names ("h2", "W3"); an op is its name ("tanh", "matmul").
"""


def predict_saved_by_y() -> list:
    """The names of the tensors the rule of ``y`` (its matmul) captured, in its operands' order."""
    # HINT: a matmul's gradients are g @ bᵀ and aᵀ @ g: which operands do they read?
    raise NotImplementedError("exercise: write predict_saved_by_y()")


def predict_saved_by_h2() -> list:
    """The names of the tensors the rule of ``h2`` (its tanh) captured."""
    # HINT: tanh's derivative is 1 - tanh(z)²: written with the input z, or with the output?
    raise NotImplementedError("exercise: write predict_saved_by_h2()")


def predict_rule_kept() -> str:
    """The one node of pass 1 whose rule the ``graph_freed`` event does not free (its name)."""
    # HINT: graph_freed drops the rules that saved tensors; which rule holds only numbers and a shape?
    raise NotImplementedError("exercise: write predict_rule_kept()")


def predict_second_backward_fails_at() -> str:
    """The op of the node where the second ``loss.backward()`` raises (its ``error`` event)."""
    # HINT: the second pass runs every rule that was kept, until it reaches one that was freed.
    raise NotImplementedError("exercise: write predict_second_backward_fails_at()")


def predict_recomputed_nodes() -> int:
    """How many nodes the Checkpoint's rule makes when part 3's pass reaches ``h2c``."""
    # HINT: hidden() runs again, with grad on: count its ops.
    raise NotImplementedError("exercise: write predict_recomputed_nodes()")
