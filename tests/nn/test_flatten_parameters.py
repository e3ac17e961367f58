"""RNN/LSTM/GRU.flatten_parameters() is accepted and changes nothing (PyTorch code calls it before each
forward when the model may run on cuDNN)."""

import numpy as np
import pytest

import minigrad as mg


@pytest.mark.parametrize("layer", [mg.nn.RNN, mg.nn.LSTM, mg.nn.GRU])
def test_flatten_parameters_is_a_no_op(layer):
    mg.manual_seed(0)
    rnn = layer(3, 4, num_layers=2)
    before = {k: v.numpy().copy() for k, v in rnn.state_dict().items()}
    x = mg.randn(5, 2, 3)
    with mg.no_grad():
        expected = rnn(x)[0].numpy()
        assert rnn.flatten_parameters() is None
        np.testing.assert_array_equal(rnn(x)[0].numpy(), expected)
    for k, v in rnn.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), before[k])
