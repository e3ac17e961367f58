# A learner's training script for nanoGPT's GPT (model.py beside it): nanoGPT's train.py loop
# (https://github.com/karpathy/nanoGPT/blob/3adf61e1/train.py, MIT License, Copyright (c) 2022 Andrej
# Karpathy; see model.py for the notice) cut down to a tiny config on a synthetic token stream,
# with no DDP or wandb. Batches are drawn from a seeded NumPy generator, not torch.randint, so that every
# framework trains on the same batches.
#
#   python train_tiny.py [--save-init init.npz] [--load-init init.npz] [--dropout P] [--slow-attention]
#                        [--crop-block-size] [--max-iters N] [--out-dir DIR] [--init-from resume]
#
# prints "iter N: loss L" each step, the train/val losses of estimate_loss() and a generated sample.
# --out-dir saves train.py's checkpoint (model, optimizer, model_args, iter_num, ...) to DIR/ckpt.pt after
# the last iteration; --init-from resume continues from it, on the batches a run from scratch would draw.
# --slow-attention takes F.scaled_dot_product_attention away, so that model.py attends as on PyTorch < 2.0
# (its causal-mask buffer and masked_fill); --crop-block-size builds the model with twice the block size
# and crops it, as train.py does for a checkpoint with a larger one.
import argparse
import math
import os
from contextlib import nullcontext

import numpy as np
import torch

from model import GPT, GPTConfig

parser = argparse.ArgumentParser()
parser.add_argument("--save-init", help="write the initial weights to this .npz")
parser.add_argument("--load-init", help="start from the weights in this .npz")
parser.add_argument("--max-iters", type=int, default=6)
parser.add_argument("--dropout", type=float, default=0.0)
parser.add_argument("--slow-attention", action="store_true")
parser.add_argument("--crop-block-size", action="store_true")
parser.add_argument("--out-dir")
parser.add_argument("--init-from", choices=["scratch", "resume"], default="scratch")
args = parser.parse_args()

# config: a tiny GPT, as in nanoGPT's config/train_shakespeare_char.py but much smaller
batch_size = 4
block_size = 8
n_layer, n_head, n_embd, dropout, bias = 2, 2, 16, args.dropout, True
vocab_size = 32
gradient_accumulation_steps = 2
learning_rate = 1e-2
max_iters = args.max_iters
weight_decay = 1e-1
beta1, beta2 = 0.9, 0.95
grad_clip = 1.0
decay_lr = True
warmup_iters = 2
lr_decay_iters = 6
min_lr = 1e-3
eval_iters = 2
device = "cuda" if torch.cuda.is_available() else "cpu"
dtype = "float32"
out_dir = args.out_dir
init_from = args.init_from

torch.manual_seed(1337)
device_type = "cuda" if "cuda" in device else "cpu"
ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
ctx = nullcontext() if device_type == "cpu" else torch.amp.autocast(device_type=device_type, dtype=ptdtype)

# the data: a noisy counting sequence, so that there is something to learn
data_rng = np.random.default_rng(0)
stream = (np.arange(2000) + (data_rng.random(2000) < 0.1)) % vocab_size
splits = {"train": stream[:1800].astype(np.uint16), "val": stream[1800:].astype(np.uint16)}
batch_rng = np.random.default_rng(1)


def get_batch(split):
    data = splits[split]
    ix = batch_rng.integers(0, len(data) - block_size, size=batch_size)
    x = torch.stack([torch.from_numpy((data[i : i + block_size]).astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy((data[i + 1 : i + 1 + block_size]).astype(np.int64)) for i in ix])
    x, y = x.to(device), y.to(device)
    return x, y


if args.slow_attention:
    del torch.nn.functional.scaled_dot_product_attention

iter_num = 0
best_val_loss = 1e9

model_args = dict(
    n_layer=n_layer, n_head=n_head, n_embd=n_embd, block_size=block_size, bias=bias, vocab_size=vocab_size, dropout=dropout
)
if init_from == "scratch":
    if args.crop_block_size:
        model_args["block_size"] = 2 * block_size
    gptconf = GPTConfig(**model_args)
    model = GPT(gptconf)
elif init_from == "resume":
    print(f"Resuming training from {out_dir}")
    ckpt_path = os.path.join(out_dir, "ckpt.pt")
    checkpoint = torch.load(ckpt_path, map_location=device)
    checkpoint_model_args = checkpoint["model_args"]
    for k in ["n_layer", "n_head", "n_embd", "block_size", "bias", "vocab_size"]:
        model_args[k] = checkpoint_model_args[k]
    gptconf = GPTConfig(**model_args)
    model = GPT(gptconf)
    state_dict = checkpoint["model"]
    unwanted_prefix = "_orig_mod."
    for k, v in list(state_dict.items()):
        if k.startswith(unwanted_prefix):
            state_dict[k[len(unwanted_prefix) :]] = state_dict.pop(k)
    model.load_state_dict(state_dict)
    iter_num = checkpoint["iter_num"]
    best_val_loss = checkpoint["best_val_loss"]
if args.save_init:
    np.savez(args.save_init, **{k: v.detach().cpu().numpy() for k, v in model.state_dict().items()})
if args.load_init:
    model.load_state_dict({k: torch.from_numpy(v) for k, v in np.load(args.load_init).items()})
if block_size < model.config.block_size:
    model.crop_block_size(block_size)
    model_args["block_size"] = block_size
model.to(device)

scaler = torch.amp.GradScaler(enabled=(dtype == "float16"))
optimizer = model.configure_optimizers(weight_decay, learning_rate, (beta1, beta2), device_type)
if init_from == "resume":
    optimizer.load_state_dict(checkpoint["optimizer"])
checkpoint = None


@torch.no_grad()
def estimate_loss():
    out = {}
    model.eval()
    for split in ["train", "val"]:
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            X, Y = get_batch(split)
            with ctx:
                logits, loss = model(X, Y)
            losses[k] = loss.item()
        out[split] = losses.mean()
    model.train()
    return out


def get_lr(it):
    if it < warmup_iters:
        return learning_rate * (it + 1) / (warmup_iters + 1)
    if it > lr_decay_iters:
        return min_lr
    decay_ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
    assert 0 <= decay_ratio <= 1
    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))
    return min_lr + coeff * (learning_rate - min_lr)


for _ in range(iter_num * gradient_accumulation_steps):  # the batches of the iterations before a resume
    get_batch("train")
X, Y = get_batch("train")
while True:
    lr = get_lr(iter_num) if decay_lr else learning_rate
    for param_group in optimizer.param_groups:
        param_group["lr"] = lr

    for micro_step in range(gradient_accumulation_steps):
        with ctx:
            logits, loss = model(X, Y)
            loss = loss / gradient_accumulation_steps
        X, Y = get_batch("train")
        scaler.scale(loss).backward()
    if grad_clip != 0.0:
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)

    lossf = loss.item() * gradient_accumulation_steps
    print(f"iter {iter_num}: loss {lossf:.9f}")
    iter_num += 1
    if iter_num > max_iters:
        break

if out_dir:
    checkpoint = {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "model_args": model_args,
        "iter_num": iter_num,
        "best_val_loss": best_val_loss,
        "config": {"learning_rate": learning_rate, "decay_lr": decay_lr, "dtype": dtype, "betas": (beta1, beta2)},
    }
    print(f"saving checkpoint to {out_dir}")
    os.makedirs(out_dir, exist_ok=True)
    torch.save(checkpoint, os.path.join(out_dir, "ckpt.pt"))

losses = estimate_loss()
print(f"step {iter_num}: train loss {losses['train']:.9f}, val loss {losses['val']:.9f}")
model.eval()
sample = model.generate(torch.tensor([[0, 1, 2]], dtype=torch.long, device=device), max_new_tokens=5, top_k=3)
print(f"sample shape {tuple(sample.shape)}")
