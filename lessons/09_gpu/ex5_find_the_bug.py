# Exercise file generated from reference/ex5_find_the_bug.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 9.5 (debugging) — "I moved my tensor to the GPU and its .grad is None".

`buggy_gradient` below makes a tensor that requires grad, moves it to the compute
device (and to float64, so that the move is a real `to` node even on a CPU), and
reads its gradient after backward — which is None. Step it, from this lesson's folder:

    minigrad-tui ex5_find_the_bug.py

and look at the last accumulation of the pass: into which node's `.grad` does the
gradient go? Is that the tensor `x` names? Then answer and fix.
"""

import minigrad as mg


def buggy_gradient(device="cpu"):
    """The gradient of sum(x * x) with respect to x, for x = [1, 2, 3]; one line is wrong."""
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True).to(device, mg.float64)
    (x * x).sum().backward()
    return x.grad


def op_of_x() -> str:
    """In buggy_gradient, the op of the node the variable x refers to ("leaf" for a leaf)."""
    # HINT: x is bound to what the last call on its line returned.
    raise NotImplementedError("exercise: write op_of_x()")


def fixed_gradient(device="cpu"):
    """The gradient of sum(xd * xd) with respect to the float32 tensor x = [1, 2, 3] made on the CPU,
    computing on `device` in float64. Returns x.grad."""
    # HINT: keep a name for the leaf you made; move a copy for the computation.
    raise NotImplementedError("exercise: write fixed_gradient()")


if __name__ == "__main__":
    import warnings

    warnings.simplefilter("ignore")
    print("x.grad after the buggy move:", buggy_gradient())
