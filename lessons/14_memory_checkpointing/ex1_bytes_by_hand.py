# Exercise file generated from reference/ex1_bytes_by_hand.py. Replace each `raise NotImplementedError` with your code;
# check your work with `minigrad lesson check N`, start over with `minigrad lesson reset N`.
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
    # HINT: which rule keeps each h: the matmul that uses it, the tanh that made it, or both?
    raise NotImplementedError("exercise: write saved_bytes_by_hand()")


def checkpointed_bytes_by_hand(batch: int, widths: list, itemsize: int) -> int:
    """The same, when every hidden layer runs inside one ``checkpoint`` (as in the demo's part 3)."""
    # HINT: the Checkpoint node keeps its input and the weights; which activations are still outside it?
    raise NotImplementedError("exercise: write checkpointed_bytes_by_hand()")
