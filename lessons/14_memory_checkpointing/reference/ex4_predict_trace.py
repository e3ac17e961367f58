"""Prediction — what the debugger will show for a network the text did not step through.

`run()` below is the demo's three parts on another network: one hidden layer of `exp` units, and an
absolute error against a target `t` instead of the square. Read it (do not run it yet) and answer on
paper from what the text says about rules, `graph_freed` and checkpointing: the check records run()
and compares each answer with its events. Then find them on screen, from this lesson's folder, with
`minigrad-tui ex4_predict_trace.py`. Names are run()'s variable names ("h", "W2"); an op is its
name ("exp", "matmul").
"""

import minigrad as mg
from minigrad.utils.checkpoint import checkpoint


def run():
    """Part 1: a pass that frees its graph; part 2: a second backward; part 3: the layer checkpointed."""
    x = mg.tensor([[1.0, 2.0], [0.5, -1.0]], name="x")
    t = mg.tensor([[1.0], [0.0]], name="t")
    W1 = mg.tensor([[0.5, -0.5, 1.0], [0.25, 0.5, -1.0]], requires_grad=True, name="W1")
    W2 = mg.tensor([[1.0], [-1.0], [0.5]], requires_grad=True, name="W2")

    h = (x @ W1).exp()
    y = h @ W2
    d = y - t
    loss = d.abs().sum()
    loss.backward()

    try:
        loss.backward()
    except RuntimeError:
        pass

    def layer(inp):
        return (inp @ W1).exp() @ W2

    yc = checkpoint(layer, x, use_reentrant=False)
    loss_c = (yc - t).abs().sum()
    loss_c.backward()


def predict_saved_by_y() -> list:
    """The names of the tensors the rule of ``y`` (its matmul) captured, in its operands' order."""
    # BEGIN SOLUTION
    # HINT: a matmul's gradients are g @ bᵀ and aᵀ @ g: which operands do they read?
    return ["h", "W2"]
    # END SOLUTION


def predict_saved_by_h() -> list:
    """The names of the tensors the rule of ``h`` (its exp) captured."""
    # BEGIN SOLUTION
    # HINT: exp's derivative is exp(z) itself: written with the input z, or with the output?
    return ["h"]
    # END SOLUTION


def predict_rules_kept() -> list:
    """The names of the nodes of the first pass whose rules its ``graph_freed`` event does not free, in the
    order the pass runs them."""
    # BEGIN SOLUTION
    # HINT: graph_freed drops the rules that saved tensors; which rules here need no tensor at all?
    return ["loss", "d"]
    # END SOLUTION


def predict_second_backward_fails_at() -> str:
    """The op of the node where the second ``loss.backward()`` raises (its ``error`` event)."""
    # BEGIN SOLUTION
    # HINT: the second pass runs the rules that were kept, in the pass's order, until it reaches one that was freed.
    return "abs"
    # END SOLUTION


def predict_recomputed_nodes() -> int:
    """How many nodes the Checkpoint's rule makes when part 3's pass reaches ``yc``."""
    # BEGIN SOLUTION
    # HINT: layer() runs again, with grad on: count its ops.
    return 3
    # END SOLUTION


if __name__ == "__main__":
    run()
