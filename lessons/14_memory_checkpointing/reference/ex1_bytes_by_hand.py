"""Warm-up — the bytes a network's saved activations hold, by hand.

The network is the lesson's running example, of any size: an input ``x`` of shape (batch, widths[0]),
then for each hidden width a matmul with a weight and a tanh, then a last matmul to widths[-1] outputs
``y``, and the loss ``(y * y).mean()``::

    h = x
    for W in hidden weights:   h = (h @ W).tanh()
    y = h @ W_last
    loss = (y * y).mean()

Count, on paper first, the bytes of the *activations* the rules keep for backward: the tensors they
captured that are not leaves (``x`` and the weights are leaves; they live whether or not you call
backward). ``itemsize`` is the bytes of one number: 4 for float32, 8 for float64.
"""


def saved_bytes_by_hand(batch: int, widths: list, itemsize: int) -> int:
    """The bytes of the activations the rules of the network above keep."""
    # BEGIN SOLUTION
    # HINT: which rule keeps each h: the matmul that uses it, the tanh that made it, or both?
    return batch * sum(widths[1:]) * itemsize
    # END SOLUTION


def checkpointed_bytes_by_hand(batch: int, widths: list, itemsize: int) -> int:
    """The same, when every hidden layer runs inside one ``checkpoint`` (as in the demo's part 3)."""
    # BEGIN SOLUTION
    # HINT: the Checkpoint node keeps its input and the weights; which activations are still outside it?
    return batch * (widths[-2] + widths[-1]) * itemsize
    # END SOLUTION
