"""Exercise 3.1 (warm-up) — which dims does the engine sum over?

A parent of shape `parent` was broadcast to an op's output of shape `output`.
Return the dims of `output` (as a sorted tuple of ints, counted from the left of
`output`) that the engine sums to bring a gradient of shape `output` back to
`parent`: the leading dims broadcasting added, then every dim where `parent`
has size 1 and `output` does not. This is the `dims` of a `grad_reduced` event.

Examples: parent (3,), output (2, 3) -> (0,);  parent (4, 1), output (4, 5) -> (1,).
"""


def reduced_dims(parent: tuple, output: tuple) -> tuple:
    """The dims of `output` summed to reduce a gradient to `parent`'s shape."""
    # BEGIN SOLUTION
    # HINT: align the shapes on the right; output has len(output) - len(parent) extra dims on the left.
    # HINT: for the aligned dims, a parent size of 1 against an output size other than 1 is summed.
    lead = len(output) - len(parent)
    stretched = [lead + i for i, n in enumerate(parent) if n == 1 and output[lead + i] != 1]
    return tuple(range(lead)) + tuple(stretched)
    # END SOLUTION
