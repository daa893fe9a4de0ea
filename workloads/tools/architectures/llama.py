"""Decoder-only language models of the Llama family: RMSNorm, rotary position embeddings,
grouped-query attention and a SwiGLU MLP (Llama 3.2, Qwen2.5 and SmolLM2 share this architecture;
Qwen2.5 adds biases to the q, k and v projections). Written from the published configurations
(each model's config.json on its model card, cited in docs/workloads.md), in eval mode.

Two phases of inference are two graphs of the same weights:

- prefill: the prompt's `sequence` tokens at once (compute-bound at long prompts), the logits of
  the last position only (what generation needs);
- decode: one new token against a KV cache of `kv_length` positions per layer (memory-bound: every
  weight and the whole cache read once). The caches are graph inputs (past_key_<l>,
  past_value_<l>) that the importer reads as data (`--static-input 'past_*'`): each becomes the
  weight of the layer that reads it. Attention reads the cache where it is, without concatenating
  the new position onto it (the runtime appends present_key_<l>, present_value_<l>, the outputs).

The token embedding is looked up by the host, as accelerator runtimes do: the graph starts from
inputs_embeds. All five models tie the LM head to the embedding table, so the table is the LM head's
weight, once, and the graph's parameters are the published count.
"""

import dataclasses
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from . import attention


@dataclasses.dataclass(frozen=True)
class LlamaConfig:
    hidden: int
    layers: int
    heads: int
    kv_heads: int
    ffn: int
    vocab: int
    rope_theta: float
    max_positions: int
    norm_eps: float
    qkv_bias: bool = False  # Qwen2.5

    @property
    def head_dim(self):
        return self.hidden // self.heads


class RMSNorm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rotate_half(x, half):
    """`half` a Python int: a slice bound read from a traced shape would be computed at run time,
    which ONNX shape inference cannot follow through Slice."""
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class Attention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.q_proj = nn.Linear(c.hidden, c.heads * c.head_dim, bias=c.qkv_bias)
        self.k_proj = nn.Linear(c.hidden, c.kv_heads * c.head_dim, bias=c.qkv_bias)
        self.v_proj = nn.Linear(c.hidden, c.kv_heads * c.head_dim, bias=c.qkv_bias)
        self.o_proj = nn.Linear(c.heads * c.head_dim, c.hidden, bias=False)

    def project(self, x, cos, sin):
        """q grouped by KV head [b, kv_heads, group * s, d], k and v [b, kv_heads, s, d]."""
        c = self.c
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, c.heads, c.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(b, s, c.kv_heads, c.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, s, c.kv_heads, c.head_dim).transpose(1, 2)
        half = c.head_dim // 2
        q = q * cos + rotate_half(q, half) * sin
        k = k * cos + rotate_half(k, half) * sin
        # Grouped-query attention without copying K or V: the query heads that share a KV head
        # are stacked along the sequence axis.
        q = q.reshape(b, c.kv_heads, (c.heads // c.kv_heads) * s, c.head_dim)
        return q, k, v

    def merge(self, attended, b, s):
        c = self.c
        out = attended.reshape(b, c.heads, s, c.head_dim).transpose(1, 2).reshape(b, s, c.hidden)
        return self.o_proj(out)

    def prefill(self, x, cos, sin):
        b, s, _ = x.shape
        q, k, v = self.project(x, cos, sin)
        # The causal mask is the softmax's business (a fused kernel skips the masked scores or
        # fills them in registers): no mask tensor, whose bytes would be charged as data.
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.c.head_dim)
        probs = F.softmax(scores, dim=-1)
        return self.merge(torch.matmul(probs, v), b, s), k, v

    def decode(self, x, cos, sin, past_k, past_v):
        """Attention of the new position over the cache and itself, the softmax taken over both
        parts without joining them (as flash-decoding kernels do): the cache is read in place."""
        b, s, _ = x.shape
        q, k, v = self.project(x, cos, sin)
        attended = attention.split_softmax(q, k, v, past_k, past_v, self.c.head_dim)
        return self.merge(attended, b, s), k, v


class DecoderLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.input_layernorm = RMSNorm(c.hidden, c.norm_eps)
        self.self_attn = Attention(c)
        self.post_attention_layernorm = RMSNorm(c.hidden, c.norm_eps)
        self.gate_proj = nn.Linear(c.hidden, c.ffn, bias=False)
        self.up_proj = nn.Linear(c.hidden, c.ffn, bias=False)
        self.down_proj = nn.Linear(c.ffn, c.hidden, bias=False)

    def mlp(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))

    def forward(self, x, attend):
        a, k, v = attend(self.self_attn, self.input_layernorm(x))
        x = x + a
        return x + self.mlp(self.post_attention_layernorm(x)), k, v


class LlamaModel(nn.Module):
    def __init__(self, c, phase):
        super().__init__()
        self.c = c
        self.phase = phase
        self.layers = nn.ModuleList(DecoderLayer(c) for _ in range(c.layers))
        self.norm = RMSNorm(c.hidden, c.norm_eps)
        self.lm_head = nn.Linear(c.hidden, c.vocab, bias=False)  # tied to the embedding table
        inv_freq = 1.0 / (c.rope_theta ** (torch.arange(0, c.head_dim, 2).float() / c.head_dim))
        self.register_buffer("inv_freq", inv_freq)

    def forward(self, inputs_embeds, position_ids, *past):
        # The rotary angles of the positions given (the prompt's, or the cache length in
        # decode), computed as HF's LlamaRotaryEmbedding does, broadcast over the heads.
        angles = position_ids[:, None, :, None].float() * self.inv_freq
        angles = torch.cat((angles, angles), dim=-1)
        cos, sin = angles.cos(), angles.sin()
        x = inputs_embeds
        presents = []
        for i, layer in enumerate(self.layers):
            if self.phase == "prefill":
                attend = lambda attn, h: attn.prefill(h, cos, sin)
            else:
                attend = lambda attn, h, i=i: attn.decode(h, cos, sin, past[2 * i], past[2 * i + 1])
            x, k, v = layer(x, attend)
            presents += [k, v]
        logits = self.lm_head(self.norm(x[:, -1:, :]))
        return (logits, *presents)


def parameter_count(c):
    """The published count: the tied embedding table once, no rotary buffer."""
    d = c.head_dim
    attention = c.hidden * (c.heads + 2 * c.kv_heads) * d + c.heads * d * c.hidden
    if c.qkv_bias:
        attention += (c.heads + 2 * c.kv_heads) * d
    layer = attention + 3 * c.hidden * c.ffn + 2 * c.hidden
    return c.layers * layer + c.hidden + c.vocab * c.hidden


def example_inputs(c, phase):
    """Tiny shapes for tracing (the graph's dims stay symbolic: batch, sequence, kv_length)."""
    names = ["inputs_embeds", "position_ids"]
    if phase == "prefill":
        inputs = (torch.zeros(1, 3, c.hidden), torch.arange(3)[None, :])
        axes = {"inputs_embeds": {0: "batch", 1: "sequence"},
                "position_ids": {0: "batch", 1: "sequence"}}
    else:
        past = []
        axes = {"inputs_embeds": {0: "batch"}, "position_ids": {0: "batch"}}
        for l in range(c.layers):
            for kind in ("key", "value"):
                past.append(torch.zeros(1, c.kv_heads, 3, c.head_dim))
                names.append(f"past_{kind}_{l}")
                axes[names[-1]] = {0: "batch", 2: "kv_length"}
        inputs = (torch.zeros(1, 1, c.hidden), torch.tensor([[3]]), *past)
    outputs = ["logits"] + [f"present_{kind}_{l}" for l in range(c.layers)
                            for kind in ("key", "value")]
    axes["logits"] = {0: "batch"}
    return inputs, names, outputs, axes
