"""Prediction — what the debugger will show for the lesson's demo.

Read demo.py (do not run it yet) and answer on paper: the check records the demo and compares each
answer with its events. Then find them on screen with `minigrad lesson debug` and the lesson's number.
Names are the demo's variable names ("h2", "W3"); an op is its name ("tanh", "matmul").
"""


def predict_saved_by_y() -> list:
    """The names of the tensors the rule of ``y`` (its matmul) captured, in its operands' order."""
    # BEGIN SOLUTION
    # HINT: a matmul's gradients are g @ bᵀ and aᵀ @ g: which operands do they read?
    return ["h2", "W3"]
    # END SOLUTION


def predict_saved_by_h2() -> list:
    """The names of the tensors the rule of ``h2`` (its tanh) captured."""
    # BEGIN SOLUTION
    # HINT: tanh's derivative is 1 - tanh(z)²: written with the input z, or with the output?
    return ["h2"]
    # END SOLUTION


def predict_rule_kept() -> str:
    """The one node of pass 1 whose rule the ``graph_freed`` event does not free (its name)."""
    # BEGIN SOLUTION
    # HINT: graph_freed drops the rules that saved tensors; which rule holds only numbers and a shape?
    return "loss"
    # END SOLUTION


def predict_second_backward_fails_at() -> str:
    """The op of the node where the second ``loss.backward()`` raises (its ``error`` event)."""
    # BEGIN SOLUTION
    # HINT: the second pass runs every rule that was kept, until it reaches one that was freed.
    return "mul"
    # END SOLUTION


def predict_recomputed_nodes() -> int:
    """How many nodes the Checkpoint's rule makes when part 3's pass reaches ``h2c``."""
    # BEGIN SOLUTION
    # HINT: hidden() runs again, with grad on: count its ops.
    return 4
    # END SOLUTION
