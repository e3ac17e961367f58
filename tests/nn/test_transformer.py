"""Transformer layers: a PyTorch state_dict loads under the same names, outputs and gradients match
PyTorch's in eval mode, and one training step (dropout 0) moves the weights as PyTorch's does."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck

D, H, FF = 8, 2, 16


def _pair(name: str, *args, **kwargs):
    """The torch layer (float64) and ours with its state_dict loaded."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    theirs = getattr(torch.nn, name)(*args, **kwargs).double()
    ours = getattr(mg.nn, name)(*args, **kwargs).double()
    state = {k: mg.tensor(v.detach().numpy().copy()) for k, v in theirs.state_dict().items()}
    result = ours.load_state_dict(state)
    assert not result.missing_keys and not result.unexpected_keys
    return theirs, ours


def _layer_kwargs(**extra):
    return dict(dim_feedforward=FF, dropout=0.1, **extra)


def _encoder(torch_or_mg, norm_first=False, activation="relu", batch_first=False):
    nn = torch_or_mg.nn
    layer = nn.TransformerEncoderLayer(
        D, H, **_layer_kwargs(norm_first=norm_first, activation=activation, batch_first=batch_first)
    )
    return nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(D), enable_nested_tensor=False)


def _compare(theirs, ours, inputs: list, call):
    """``call(model, *inputs)`` in eval mode: the same output, input gradients and parameter gradients."""
    import torch

    theirs.eval()
    ours.eval()
    t_in = [torch.tensor(a, requires_grad=a.dtype.kind == "f") if isinstance(a, np.ndarray) else a for a in inputs]
    m_in = [mg.tensor(a, requires_grad=a.dtype.kind == "f") if isinstance(a, np.ndarray) else a for a in inputs]
    t_out, m_out = call(theirs, *t_in), call(ours, *m_in)
    np.testing.assert_allclose(m_out.detach().numpy(), t_out.detach().numpy(), rtol=1e-9, atol=1e-10)
    w = np.random.default_rng(5).standard_normal(tuple(t_out.shape))
    (t_out * torch.tensor(w)).sum().backward()
    (m_out * mg.tensor(w)).sum().backward()
    for t, m in zip(t_in, m_in):
        if isinstance(t, torch.Tensor) and t.requires_grad:
            np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-8, atol=1e-10)
    ours_params = dict(ours.named_parameters())
    for name, p in theirs.named_parameters():
        np.testing.assert_allclose(ours_params[name].grad.numpy(), p.grad.numpy(), rtol=1e-8, atol=1e-10, err_msg=name)


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_encoder_layer_matches_torch(norm_first, activation):
    theirs, ours = _pair("TransformerEncoderLayer", D, H, **_layer_kwargs(norm_first=norm_first, activation=activation))
    _compare(theirs, ours, [_rand(5, 3, D)], lambda model, x: model(x))


def test_encoder_layer_batch_first_with_masks_matches_torch():
    torch = pytest.importorskip("torch")
    theirs, ours = _pair("TransformerEncoderLayer", D, H, batch_first=True, **_layer_kwargs())
    padding = np.zeros((3, 5), dtype=bool)
    padding[0, 3:] = True
    causal = np.triu(np.ones((5, 5), dtype=bool), 1)  # a boolean mask, as the padding one

    def call(model, x):
        lib = torch if isinstance(x, torch.Tensor) else mg
        return model(x, src_mask=lib.tensor(causal), src_key_padding_mask=lib.tensor(padding))

    _compare(theirs, ours, [_rand(3, 5, D)], call)


def test_encoder_layer_unbatched_matches_torch():
    theirs, ours = _pair("TransformerEncoderLayer", D, H, **_layer_kwargs())
    _compare(theirs, ours, [_rand(4, D)], lambda model, x: model(x))


def test_encoder_stack_matches_torch():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    theirs = _encoder(torch, norm_first=True).double()
    ours = _encoder(mg, norm_first=True).double()
    ours.load_state_dict({k: mg.tensor(v.detach().numpy().copy()) for k, v in theirs.state_dict().items()})
    assert list(ours.state_dict()) == list(theirs.state_dict())
    _compare(theirs, ours, [_rand(5, 2, D)], lambda model, x: model(x))


@pytest.mark.parametrize("norm_first", [False, True])
def test_decoder_layer_matches_torch(norm_first):
    torch = pytest.importorskip("torch")
    theirs, ours = _pair("TransformerDecoderLayer", D, H, **_layer_kwargs(norm_first=norm_first))
    causal = torch.nn.Transformer.generate_square_subsequent_mask(4).double().numpy()

    def call(model, tgt, memory):
        lib = torch if isinstance(tgt, torch.Tensor) else mg
        return model(tgt, memory, tgt_mask=lib.tensor(causal))

    _compare(theirs, ours, [_rand(4, 2, D), _rand(6, 2, D, seed=1)], call)


def test_transformer_matches_torch_and_state_dict_names_agree():
    torch = pytest.importorskip("torch")
    kwargs = dict(d_model=D, nhead=H, num_encoder_layers=2, num_decoder_layers=1, dim_feedforward=FF)
    theirs, ours = _pair("Transformer", batch_first=True, **kwargs)
    assert [(k, tuple(v.shape)) for k, v in ours.state_dict().items()] == [
        (k, tuple(v.shape)) for k, v in theirs.state_dict().items()
    ]
    mask = mg.nn.Transformer.generate_square_subsequent_mask(4).numpy()
    np.testing.assert_array_equal(mask, torch.nn.Transformer.generate_square_subsequent_mask(4).numpy())
    padding = np.zeros((2, 5), dtype=bool)
    padding[1, 4] = True

    def call(model, src, tgt):
        lib = torch if isinstance(src, torch.Tensor) else mg
        return model(
            src,
            tgt,
            tgt_mask=lib.tensor(mask).double(),
            src_key_padding_mask=lib.tensor(padding),
            memory_key_padding_mask=lib.tensor(padding),
        )

    _compare(theirs, ours, [_rand(2, 5, D), _rand(2, 4, D, seed=1)], call)


def test_one_training_step_matches_torch():
    torch = pytest.importorskip("torch")
    kwargs = dict(d_model=D, nhead=H, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=FF, dropout=0.0)
    theirs, ours = _pair("Transformer", **kwargs)
    t_opt = torch.optim.Adam(theirs.parameters(), lr=1e-2)
    m_opt = mg.optim.Adam(ours.parameters(), lr=1e-2)
    src, tgt, target = _rand(5, 2, D), _rand(3, 2, D, seed=1), _rand(3, 2, D, seed=2)
    for _ in range(2):
        t_opt.zero_grad()
        m_opt.zero_grad()
        t_loss = ((theirs(torch.tensor(src), torch.tensor(tgt)) - torch.tensor(target)) ** 2).mean()
        m_loss = ((ours(mg.tensor(src), mg.tensor(tgt)) - mg.tensor(target)) ** 2).mean()
        np.testing.assert_allclose(m_loss.item(), t_loss.item(), rtol=1e-10)
        t_loss.backward()
        m_loss.backward()
        t_opt.step()
        m_opt.step()
    ours_state = ours.state_dict()
    for name, value in theirs.state_dict().items():
        np.testing.assert_allclose(ours_state[name].numpy(), value.numpy(), rtol=1e-7, atol=1e-9, err_msg=name)


def test_encoder_layer_gradcheck_float64():
    mg.manual_seed(0)
    layer = mg.nn.TransformerEncoderLayer(4, 2, dim_feedforward=6, dropout=0.0, activation="gelu").double()
    x = mg.tensor(_rand(3, 2, 4), requires_grad=True)
    assert gradcheck(lambda t: layer(t), (x,))


def test_dropout_is_active_in_training_only():
    mg.manual_seed(0)
    layer = mg.nn.TransformerEncoderLayer(D, H, dim_feedforward=FF, dropout=0.5)
    x = mg.tensor(_rand(4, 2, D).astype(np.float32))
    with mg.no_grad():
        assert not np.allclose(layer(x).numpy(), layer(x).numpy())
        layer.eval()
        np.testing.assert_array_equal(layer(x).numpy(), layer(x).numpy())


def test_activation_module_and_callable_are_accepted():
    x = mg.tensor(_rand(3, 1, D).astype(np.float32))
    for activation in (mg.nn.GELU(), mg.nn.functional.silu):
        layer = mg.nn.TransformerEncoderLayer(D, H, dim_feedforward=FF, activation=activation)
        assert layer(x).shape == (3, 1, D)


def test_refusals_in_torchs_words():
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        mg.nn.TransformerEncoderLayer(D, H, activation="tanh")
    model = mg.nn.Transformer(d_model=D, nhead=H, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=FF)
    with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
        model(mg.zeros(5, 2, D), mg.zeros(3, 3, D))
    with pytest.raises(RuntimeError, match="the feature number of src and tgt must be equal to d_model"):
        model(mg.zeros(5, 2, D + 1), mg.zeros(3, 2, D + 1))


def test_causal_hint_without_mask_is_refused_as_torch():
    layer = mg.nn.TransformerEncoderLayer(D, H, dim_feedforward=FF)
    with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint"):
        layer(mg.zeros(3, 1, D), is_causal=True)
