"""Recurrent layers: RNN, LSTM, GRU and their one-step cells, as ``torch.nn``.

Built from existing ops (``linear``, ``sigmoid``, ``tanh``, ``stack``), so autograd, the debugger
and forward mode come free. Parameters are named, shaped, ordered and initialised as PyTorch's
(``weight_ih_l0``, ``weight_hh_l0``, ``bias_ih_l0``, ``bias_hh_l0``, ``..._reverse``; gates in
PyTorch's order: LSTM ``i, f, g, o``, GRU ``r, z, n``; all uniform in ``±1/sqrt(hidden_size)``),
so a PyTorch state dict loads and gives PyTorch's outputs.
"""

from __future__ import annotations

import math

from .. import _state
from ..creation import zeros
from ..ops import cat, stack  # the public ops: inside vmap they go to their batching rules
from ..tensor import Tensor, shape_str
from . import init
from .functional import dropout, linear
from .functional._lstm_layer import lstm_layer
from .module import Module
from .parameter import Parameter

__all__ = ["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"]


# ---------------------------------------------------------------- one step of each cell
def _rnn_step(nonlinearity: str):
    def step(x_proj: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None) -> Tensor:
        pre = x_proj + linear(h, w_hh, b_hh)
        return pre.tanh() if nonlinearity == "tanh" else pre.relu()

    return step


def _lstm_step(x_proj: Tensor, state: tuple, w_hh: Tensor, b_hh: Tensor | None) -> tuple:
    """``c' = f c + i g``, ``h' = o tanh(c')``, the gates ``i, f, g, o`` in PyTorch's order."""
    h, c = state
    i, f, g, o = (x_proj + linear(h, w_hh, b_hh)).chunk(4, -1)
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    return o.sigmoid() * c.tanh(), c


def _gru_step(x_proj: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None) -> Tensor:
    """``n = tanh(x_n + r (W_hn h + b_hn))``, ``h' = (1 - z) n + z h``, the gates ``r, z, n``."""
    x_r, x_z, x_n = x_proj.chunk(3, -1)
    h_r, h_z, h_n = linear(h, w_hh, b_hh).chunk(3, -1)
    r = (x_r + h_r).sigmoid()
    z = (x_z + h_z).sigmoid()
    n = (x_n + r * h_n).tanh()
    return (1 - z) * n + z * h


_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _step_for(mode: str):
    if mode == "LSTM":
        return _lstm_step
    if mode == "GRU":
        return _gru_step
    return _rnn_step("tanh" if mode == "RNN_TANH" else "relu")


# ---------------------------------------------------------------- the layers
class RNNBase(Module):
    """What RNN, LSTM and GRU share: parameters per layer and direction, the loop over time."""

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device=None,
        dtype=None,
    ):
        super().__init__()
        if not isinstance(dropout, (int, float)) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an element being zeroed"
            )
        if not isinstance(hidden_size, int) or isinstance(hidden_size, bool):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size != 0:
            raise NotImplementedError("proj_size is not supported by minigrad's LSTM (use proj_size=0)")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        directions = 2 if bidirectional else 1
        gate_size = _GATES[mode] * hidden_size
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else hidden_size * directions
            for suffix in ("", "_reverse")[:directions]:
                name = f"l{layer}{suffix}"
                setattr(self, f"weight_ih_{name}", Parameter(zeros(gate_size, layer_input, dtype=dtype, device=device)))
                setattr(self, f"weight_hh_{name}", Parameter(zeros(gate_size, hidden_size, dtype=dtype, device=device)))
                if bias:
                    setattr(self, f"bias_ih_{name}", Parameter(zeros(gate_size, dtype=dtype, device=device)))
                    setattr(self, f"bias_hh_{name}", Parameter(zeros(gate_size, dtype=dtype, device=device)))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every weight and bias uniform in ``±1/sqrt(hidden_size)``, as PyTorch."""
        bound = 1.0 / math.sqrt(self.hidden_size)
        for p in self.parameters():
            init.uniform_(p, -bound, bound)

    def flatten_parameters(self) -> None:
        """Nothing to do: PyTorch packs the weights into one cuDNN buffer here; minigrad keeps them as they are."""

    def _weights(self, layer: int, reverse: bool) -> tuple:
        name = f"l{layer}{'_reverse' if reverse else ''}"
        get = self._parameters.get
        return get(f"weight_ih_{name}"), get(f"weight_hh_{name}"), get(f"bias_ih_{name}"), get(f"bias_hh_{name}")

    def _check_input(self, x: Tensor) -> bool:
        """Whether ``x`` is batched; PyTorch's errors for a wrong rank, dtype or feature size."""
        if not isinstance(x, Tensor):
            raise TypeError(f"{type(self).__name__}: input must be a Tensor, not {type(x).__name__}")
        if x.dim() not in (2, 3):
            raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got {x.dim()}D instead")
        if x.dtype != self.weight_ih_l0.dtype:
            ours, theirs = f"minigrad.{x.dtype}", f"minigrad.{self.weight_ih_l0.dtype}"
            raise ValueError(
                f"RNN input dtype ({ours}) does not match weight dtype ({theirs}). "
                f"Convert input: input.to({theirs}), or convert model: model.to({ours})"
            )
        if x.shape[-1] != self.input_size:
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got {x.shape[-1]}"
            )
        if x.shape[1 if x.dim() == 3 and self.batch_first else 0] == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        return x.dim() == 3

    def _check_hidden(self, h: Tensor, batch: int, what: str) -> None:
        expected = (self.num_layers * (2 if self.bidirectional else 1), batch, self.hidden_size)
        if tuple(h.shape) != expected:
            raise RuntimeError(f"Expected {what} size {shape_str(expected)}, got {shape_str(h.shape)}")

    def _initial(self, x: Tensor, batch: int) -> Tensor:
        layers = self.num_layers * (2 if self.bidirectional else 1)
        return zeros(layers, batch, self.hidden_size, dtype=x.dtype, device=x.device)

    def _run(self, x: Tensor, state):
        """``x`` of shape (L, N, H_in) through every layer; ``state`` is h0 (or (h0, c0)), stacked per layer.

        Each layer's sequence is kept as a list of per-step tensors: slicing one stacked tensor at
        every step would make each step's gradient a full-size scatter (quadratic in L). An LSTM runs
        each layer as one op instead (``_run_lstm_layers``), but under ``vmap``, whose batching rules
        its per-step ops have.
        """
        if self.mode == "LSTM" and not _state.vmap.levels:
            return self._run_lstm_layers(x, state)
        step = _step_for(self.mode)
        lstm = self.mode == "LSTM"
        directions = 2 if self.bidirectional else 1
        sequence = list(x.unbind(0))
        finals = []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                index = layer * directions + direction
                s = (state[0][index], state[1][index]) if lstm else state[index]
                w_ih, w_hh, b_ih, b_hh = self._weights(layer, direction == 1)
                hs = [None] * len(sequence)
                for t in reversed(range(len(sequence))) if direction == 1 else range(len(sequence)):
                    s = step(linear(sequence[t], w_ih, b_ih), s, w_hh, b_hh)
                    hs[t] = s[0] if lstm else s
                outputs.append(hs)
                finals.append(s)
            sequence = outputs[0] if directions == 1 else [cat(pair, -1) for pair in zip(*outputs)]
            if self.dropout and self.training and layer < self.num_layers - 1:
                sequence = [dropout(h, self.dropout, True) for h in sequence]
        if lstm:
            return stack(sequence), (stack([f[0] for f in finals]), stack([f[1] for f in finals]))
        return stack(sequence), stack(finals)

    def _run_lstm_layers(self, x: Tensor, state: tuple):
        """The LSTM as ``_run``, each layer and direction one ``lstm_layer`` op."""
        directions = 2 if self.bidirectional else 1
        sequence, finals_h, finals_c = x, [], []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                index = layer * directions + direction
                w_ih, w_hh, b_ih, b_hh = self._weights(layer, direction == 1)
                source = sequence.flip(0) if direction == 1 else sequence
                # both biases join the input's share of the gates: added to each other once, not to every row
                bias = zeros(w_hh.shape[0], dtype=w_hh.dtype, device=w_hh.device) if b_ih is None else b_ih + b_hh
                states = lstm_layer(source, w_ih, w_hh, bias, state[0][index], state[1][index])
                hs = states[0, 1:]
                finals_h.append(states[0, -1])
                finals_c.append(states[1, -1])
                outputs.append(hs.flip(0) if direction == 1 else hs)
            sequence = outputs[0] if directions == 1 else cat(outputs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                sequence = dropout(sequence, self.dropout, True)
        return sequence, (stack(finals_h), stack(finals_c))

    def forward(self, input: Tensor, hx=None):  # noqa: A002
        batched = self._check_input(input)
        x = input if batched else input.unsqueeze(1)
        if batched and self.batch_first:
            x = x.transpose(0, 1)
        batch = x.shape[1]
        if self.mode == "LSTM":
            if hx is None:
                hx = (self._initial(x, batch), self._initial(x, batch))
            else:
                hx = tuple(h if batched else h.unsqueeze(1) for h in hx)
                self._check_hidden(hx[0], batch, "hidden[0]")
                self._check_hidden(hx[1], batch, "hidden[1]")
        else:
            if hx is None:
                hx = self._initial(x, batch)
            else:
                hx = hx if batched else hx.unsqueeze(1)
                self._check_hidden(hx, batch, "hidden")
        out, final = self._run(x, hx)
        if batched and self.batch_first:
            out = out.transpose(0, 1)
        if not batched:
            out = out.squeeze(1)
            final = tuple(f.squeeze(1) for f in final) if self.mode == "LSTM" else final.squeeze(1)
        return out, final

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.mode == "RNN_RELU":
            text += ", nonlinearity='relu'"
        if not self.bias:
            text += ", bias=False"
        if self.batch_first:
            text += ", batch_first=True"
        if self.dropout:
            text += f", dropout={self.dropout}"
        if self.bidirectional:
            text += ", bidirectional=True"
        return text


class RNN(RNNBase):
    """Elman RNN: ``h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)`` (or relu).

    ``forward(input, h0=None)`` returns ``(output, h_n)``: ``output`` is every step's top-layer
    state, ``(L, N, D*H)`` (``(N, L, D*H)`` with ``batch_first``); ``h_n`` the last state of each
    layer and direction, ``(num_layers*D, N, H)``. Unbatched ``(L, H_in)`` inputs work too.
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        nonlinearity: str = "tanh",
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        device=None,
        dtype=None,
    ):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(
            mode, input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional, 0, device, dtype
        )
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    """Long short-term memory: ``forward(input, (h0, c0)=None)`` returns ``(output, (h_n, c_n))``.

    Gates ``i, f, g, o`` (PyTorch's order in ``weight_ih_l0`` rows): ``c_t = f c_{t-1} + i g``,
    ``h_t = o tanh(c_t)``. Shapes as :class:`RNN`; ``proj_size`` must be 0.
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device=None,
        dtype=None,
    ):
        super().__init__(
            "LSTM",
            input_size,
            hidden_size,
            num_layers,
            bias,
            batch_first,
            dropout,
            bidirectional,
            proj_size,
            device,
            dtype,
        )


class GRU(RNNBase):
    """Gated recurrent unit: ``forward(input, h0=None)`` returns ``(output, h_n)``.

    Gates ``r, z, n`` (PyTorch's order): ``n = tanh(W_in x + b_in + r (W_hn h + b_hn))``,
    ``h_t = (1 - z) n + z h_{t-1}``. Shapes as :class:`RNN`.
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        device=None,
        dtype=None,
    ):
        super().__init__(
            "GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional, 0, device, dtype
        )


# ---------------------------------------------------------------- one step as a module
class _CellBase(Module):
    def __init__(self, mode: str, input_size: int, hidden_size: int, bias: bool, device, dtype):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        gate_size = _GATES[mode] * hidden_size
        self.weight_ih = Parameter(zeros(gate_size, input_size, dtype=dtype, device=device))
        self.weight_hh = Parameter(zeros(gate_size, hidden_size, dtype=dtype, device=device))
        if bias:
            self.bias_ih = Parameter(zeros(gate_size, dtype=dtype, device=device))
            self.bias_hh = Parameter(zeros(gate_size, dtype=dtype, device=device))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        bound = 1.0 / math.sqrt(hidden_size)
        for p in self.parameters():
            init.uniform_(p, -bound, bound)

    def _step(self, x: Tensor, state):
        if x.dim() not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got {x.dim()}D instead")
        batched = x.dim() == 2
        if not batched:
            x = x.unsqueeze(0)
            state = (
                None
                if state is None
                else tuple(s.unsqueeze(0) for s in state)
                if self.mode == "LSTM"
                else state.unsqueeze(0)
            )
        if state is None:
            h = zeros(x.shape[0], self.hidden_size, dtype=x.dtype, device=x.device)
            state = (h, h) if self.mode == "LSTM" else h
        out = _step_for(self.mode)(linear(x, self.weight_ih, self.bias_ih), state, self.weight_hh, self.bias_hh)
        if not batched:
            out = tuple(o.squeeze(0) for o in out) if self.mode == "LSTM" else out.squeeze(0)
        return out

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if not self.bias:
            text += ", bias=False"
        if self.mode == "RNN_RELU":
            text += ", nonlinearity=relu"
        return text


class RNNCell(_CellBase):
    """One step of :class:`RNN`: ``forward(input, hx=None)`` returns ``h'``."""

    def __init__(
        self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh", device=None, dtype=None
    ):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity: {nonlinearity}")
        super().__init__(
            "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, bias, device, dtype
        )
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        return self._step(input, hx)


class LSTMCell(_CellBase):
    """One step of :class:`LSTM`: ``forward(input, (hx, cx)=None)`` returns ``(h', c')``."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, bias, device, dtype)

    def forward(self, input: Tensor, hx=None) -> tuple:  # noqa: A002
        return self._step(input, hx)


class GRUCell(_CellBase):
    """One step of :class:`GRU`: ``forward(input, hx=None)`` returns ``h'``."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, bias, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        return self._step(input, hx)
