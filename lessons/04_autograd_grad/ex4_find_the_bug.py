# Exercise file generated from reference/ex4_find_the_bug.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
"""Exercise 4.4 (debugging) — a grad() that forgets one of its five steps.

`buggy_grad` below computes gradients with `backward(inputs=...)` and puts every
`.grad` back afterwards (it is not safe against a pass that raises, as exercise 4.2
must be; that is not the bug here), but it has one planted bug: when an input already holds a
`.grad`, its answer is wrong. Step it, from this lesson's folder:

    minigrad-tui ex4_find_the_bug.py

and look at the accumulation into `a.grad` near the end of the pass: what is
`before`? Compare with the demo's pass (`minigrad lesson debug 4`), where it is None.
"""

import minigrad as mg


def buggy_grad(output, inputs) -> tuple:
    """d output / d each input, leaving .grad as it was; one of the five steps is missing."""
    before = {id(t): t.grad for t in inputs}
    output.backward(inputs=list(inputs), retain_graph=True)
    grads = tuple(t.grad for t in inputs)
    for t in inputs:
        t.grad = before[id(t)]
    return grads


def run_buggy():
    """The lesson's example through buggy_grad."""
    a = mg.tensor([2.0, -1.0, 0.5], requires_grad=True, name="a")
    b = mg.tensor([3.0, 4.0, -2.0], requires_grad=True, name="b")
    a.grad = mg.tensor([100.0, 100.0, 100.0])
    out = (a * b).sum() + (a * a).sum()
    return buggy_grad(out, (a, b))


def buggy_result_for_a() -> list:
    """What buggy_grad returns as the gradient of a in run_buggy()."""
    # HINT: backward() adds into .grad; what was in a.grad when it started?
    raise NotImplementedError("exercise: write buggy_result_for_a()")


def clear_before_run(inputs) -> None:
    """The missing step: what must happen to each input's .grad after saving it, before the pass?"""
    # HINT: the pass must start from nothing, so that what it leaves is this pass's gradient alone.
    raise NotImplementedError("exercise: write clear_before_run()")


if __name__ == "__main__":
    da, db = run_buggy()
    print("buggy grad of a:", da)
