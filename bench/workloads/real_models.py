"""Models as third-party PyTorch code writes them, defined once for any torch-like library.

Each builder takes ``lib`` (``torch`` or ``minigrad``) and returns a Module class written with
``lib.nn`` exactly as the source writes it, so one definition runs on every framework peer and a
difference in speed is the framework's, not the code's. ``train(lib, ...)`` is the loop both run.

Sources, rewritten here: the GPT block is nanoGPT's ``model.py`` (Block, CausalSelfAttention, MLP,
attending with F.scaled_dot_product_attention, as it does on PyTorch >= 2.0); the LSTM language model is pytorch/examples' word_language_model
``RNNModel``; the CNN is pytorch/examples' mnist ``Net`` (LeNet-style, two convolutions and a pool).
"""

from __future__ import annotations

import math
import zlib

import numpy as np


def gpt_block(lib, manual_attention: bool = False):
    """nanoGPT's transformer block: pre-norm causal self-attention and a GELU MLP, with residuals.

    As nanoGPT's model.py, it attends with ``F.scaled_dot_product_attention`` where the library has it
    (PyTorch >= 2.0 and minigrad) and otherwise by hand (a tril buffer, masked_fill, softmax), the path
    ``manual_attention`` forces."""
    nn, F = lib.nn, lib.nn.functional

    class CausalSelfAttention(nn.Module):
        def __init__(self, n_embd, n_head, block_size):
            super().__init__()
            self.c_attn = nn.Linear(n_embd, 3 * n_embd)
            self.c_proj = nn.Linear(n_embd, n_embd)
            self.n_head, self.n_embd = n_head, n_embd
            self.flash = hasattr(F, "scaled_dot_product_attention") and not manual_attention
            if not self.flash:
                mask = lib.tril(lib.ones(block_size, block_size)).view(1, 1, block_size, block_size)
                self.register_buffer("bias", mask)

        def forward(self, x):
            B, T, C = x.size()
            q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
            k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
            q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
            v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
            if self.flash:
                y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=0, is_causal=True)
            else:
                att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
                att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
                att = F.softmax(att, dim=-1)
                y = att @ v
            y = y.transpose(1, 2).contiguous().view(B, T, C)
            return self.c_proj(y)

    class MLP(nn.Module):
        def __init__(self, n_embd):
            super().__init__()
            self.c_fc = nn.Linear(n_embd, 4 * n_embd)
            self.gelu = nn.GELU()
            self.c_proj = nn.Linear(4 * n_embd, n_embd)

        def forward(self, x):
            return self.c_proj(self.gelu(self.c_fc(x)))

    class Block(nn.Module):
        def __init__(self, n_embd, n_head, block_size):
            super().__init__()
            self.ln_1 = nn.LayerNorm(n_embd)
            self.attn = CausalSelfAttention(n_embd, n_head, block_size)
            self.ln_2 = nn.LayerNorm(n_embd)
            self.mlp = MLP(n_embd)

        def forward(self, x):
            x = x + self.attn(self.ln_1(x))
            return x + self.mlp(self.ln_2(x))

    return Block


def lstm_lm(lib):
    """word_language_model's RNNModel (LSTM): embedding, LSTM, a decoder to the vocabulary."""
    nn = lib.nn

    class RNNModel(nn.Module):
        def __init__(self, ntoken, ninp, nhid, nlayers):
            super().__init__()
            self.encoder = nn.Embedding(ntoken, ninp)
            self.rnn = nn.LSTM(ninp, nhid, nlayers)
            self.decoder = nn.Linear(nhid, ntoken)

        def forward(self, tokens):
            output, _ = self.rnn(self.encoder(tokens))
            return self.decoder(output)

    return RNNModel


def mnist_net(lib):
    """pytorch/examples' mnist Net, without its dropout (a random mask would differ between peers)."""
    nn, F = lib.nn, lib.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 32, 3, 1)
            self.conv2 = nn.Conv2d(32, 64, 3, 1)
            self.fc1 = nn.Linear(9216, 128)
            self.fc2 = nn.Linear(128, 10)

        def forward(self, x):
            x = F.relu(self.conv1(x))
            x = F.relu(self.conv2(x))
            x = lib.flatten(F.max_pool2d(x, 2), 1)
            return F.log_softmax(self.fc2(F.relu(self.fc1(x))), dim=1)

    return Net


def load_initial_weights(lib, model, seed: int) -> None:
    """Fill ``model``'s parameters with values drawn from its parameter names, shapes and ``seed`` only.

    Every peer builds its own model and calls this, so all start from the same weights without
    needing each other's library. Matrices are uniform in +-1/sqrt(fan_in) as torch's Linear; a
    vector named ``weight`` (a norm's scale) is near 1, any other vector (a bias) near 0. Buffers
    (nanoGPT's causal mask) are left as the model made them.
    """
    with lib.no_grad():
        for name, param in model.named_parameters():
            g = np.random.default_rng([seed, zlib.crc32(name.encode())])
            shape = tuple(param.shape)
            if len(shape) >= 2:
                bound = 1.0 / math.sqrt(math.prod(shape[1:]))
                values = g.uniform(-bound, bound, shape)
            else:
                values = g.uniform(-0.1, 0.1, shape) + (1.0 if name.endswith("weight") else 0.0)
            param.copy_(lib.tensor(values.astype(np.float32)))


def train(lib, model, opt, batches, loss_fn) -> float:
    """The training loop every framework peer runs: zero_grad, forward, loss, backward, step."""
    loss = None
    for inputs, target in batches:
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(inputs), target)
        loss.backward()
        opt.step()
    return float(loss.item())
