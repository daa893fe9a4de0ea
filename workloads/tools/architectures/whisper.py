"""Whisper (Radford et al., 2022), the encoder-decoder speech recogniser, written from the
published configurations (HF transformers' WhisperModel; openai/whisper-<size> config.json), in
eval mode. Two graphs of the same weights, as it runs:

- encode: the log-mel spectrogram of a window (80 x 3000 frames for 30 s) through the two
  convolutions and the pre-norm encoder, once per window (compute-bound);
- decode: one token through the decoder against two caches per layer, the self-attention's
  (past_self_key_<l>, past_self_value_<l>: the tokens so far, `kv_length` of them) and the
  cross-attention's keys and values of the encoded window (cross_key_<l>, cross_value_<l>), all
  data the step reads (`--static-input 'past_*' --static-input 'cross_*'`).

The token embedding is looked up by the host, as for the decoder LLMs (llama.py); the output
projection is tied to it, so the table is counted once, in the projection. The two graphs hold
every parameter between them: the encoder's and the decoder's.
"""

import dataclasses
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from . import attention


@dataclasses.dataclass(frozen=True)
class WhisperConfig:
    d_model: int
    encoder_layers: int
    decoder_layers: int
    heads: int
    ffn: int
    vocab: int = 51865
    mels: int = 80
    source_positions: int = 1500  # encoder frames of a 30 s window
    target_positions: int = 448

    @property
    def head_dim(self):
        return self.d_model // self.heads


class Attention(nn.Module):
    """Whisper's attention: no bias on the key projection."""

    def __init__(self, c):
        super().__init__()
        self.c = c
        self.q_proj = nn.Linear(c.d_model, c.d_model)
        self.k_proj = nn.Linear(c.d_model, c.d_model, bias=False)
        self.v_proj = nn.Linear(c.d_model, c.d_model)
        self.out_proj = nn.Linear(c.d_model, c.d_model)

    def heads(self, x):
        b, s, _ = x.shape
        return x.view(b, s, self.c.heads, self.c.head_dim).transpose(1, 2)

    def merge(self, x):
        b, _, s, _ = x.shape
        return self.out_proj(x.transpose(1, 2).reshape(b, s, self.c.d_model))

    def attend(self, q, k, v):
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.c.head_dim)
        return torch.matmul(F.softmax(scores, dim=-1), v)

    def self_attention(self, x):
        q, k, v = (self.heads(p(x)) for p in (self.q_proj, self.k_proj, self.v_proj))
        return self.merge(self.attend(q, k, v))

    def cached(self, x, past_k, past_v):
        """The new position over the cache and itself, without joining them (attention.py)."""
        q, k, v = (self.heads(p(x)) for p in (self.q_proj, self.k_proj, self.v_proj))
        attended = attention.split_softmax(q, k, v, past_k, past_v, self.c.head_dim)
        return self.merge(attended), k, v

    def cross(self, x, cross_k, cross_v):
        return self.merge(self.attend(self.heads(self.q_proj(x)), cross_k, cross_v))


class EncoderLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.self_attn = Attention(c)
        self.self_attn_layer_norm = nn.LayerNorm(c.d_model)
        self.fc1 = nn.Linear(c.d_model, c.ffn)
        self.fc2 = nn.Linear(c.ffn, c.d_model)
        self.final_layer_norm = nn.LayerNorm(c.d_model)

    def forward(self, x):
        x = x + self.self_attn.self_attention(self.self_attn_layer_norm(x))
        return x + self.fc2(F.gelu(self.fc1(self.final_layer_norm(x))))


class DecoderLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.self_attn = Attention(c)
        self.self_attn_layer_norm = nn.LayerNorm(c.d_model)
        self.encoder_attn = Attention(c)
        self.encoder_attn_layer_norm = nn.LayerNorm(c.d_model)
        self.fc1 = nn.Linear(c.d_model, c.ffn)
        self.fc2 = nn.Linear(c.ffn, c.d_model)
        self.final_layer_norm = nn.LayerNorm(c.d_model)

    def forward(self, x, past_k, past_v, cross_k, cross_v):
        a, k, v = self.self_attn.cached(self.self_attn_layer_norm(x), past_k, past_v)
        x = x + a
        x = x + self.encoder_attn.cross(self.encoder_attn_layer_norm(x), cross_k, cross_v)
        return x + self.fc2(F.gelu(self.fc1(self.final_layer_norm(x)))), k, v


class WhisperEncoder(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv1d(c.mels, c.d_model, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(c.d_model, c.d_model, kernel_size=3, stride=2, padding=1)
        self.embed_positions = nn.Embedding(c.source_positions, c.d_model)
        self.layers = nn.ModuleList(EncoderLayer(c) for _ in range(c.encoder_layers))
        self.layer_norm = nn.LayerNorm(c.d_model)

    def forward(self, input_features):
        x = F.gelu(self.conv2(F.gelu(self.conv1(input_features)))).permute(0, 2, 1)
        x = x + self.embed_positions.weight
        for layer in self.layers:
            x = layer(x)
        return self.layer_norm(x)


class WhisperDecoder(nn.Module):
    """One decoding step: the new token's embedding and its position in, the next token's logits
    and the new self-attention keys and values out."""

    def __init__(self, c):
        super().__init__()
        self.embed_positions = nn.Embedding(c.target_positions, c.d_model)
        self.layers = nn.ModuleList(DecoderLayer(c) for _ in range(c.decoder_layers))
        self.layer_norm = nn.LayerNorm(c.d_model)
        self.proj_out = nn.Linear(c.d_model, c.vocab, bias=False)  # tied to the token embedding

    def forward(self, inputs_embeds, position_ids, *caches):
        x = inputs_embeds + self.embed_positions(position_ids)
        presents = []
        for i, layer in enumerate(self.layers):
            x, k, v = layer(x, *caches[4 * i:4 * i + 4])
            presents += [k, v]
        return (self.proj_out(self.layer_norm(x)), *presents)


class WhisperEncode(nn.Module):
    """The encode graph: the encoder, then the cross-attention keys and values that every decoder
    layer reads, computed once per window (as deployed Whisper runtimes do); the decode steps read
    them as caches. Shares the modules of `whisper`."""

    def __init__(self, whisper):
        super().__init__()
        self.encoder = whisper.encoder
        self.cross = nn.ModuleList(layer.encoder_attn for layer in whisper.decoder.layers)

    def forward(self, input_features):
        x = self.encoder(input_features)
        caches = []
        for attention in self.cross:
            caches += [attention.heads(attention.k_proj(x)), attention.heads(attention.v_proj(x))]
        return tuple(caches)


class Whisper(nn.Module):
    """Both halves, for the parameter count; the graphs are the halves'."""

    def __init__(self, c):
        super().__init__()
        self.encoder = WhisperEncoder(c)
        self.decoder = WhisperDecoder(c)


def example_inputs(c, phase):
    """Tiny shapes for tracing; the graph's dims stay symbolic (batch, kv_length)."""
    if phase == "encode":
        # The window is fixed by the position table: 3000 mel frames, 1500 encoder positions.
        inputs = (torch.zeros(1, c.mels, 2 * c.source_positions),)
        outputs = [f"cross_{kind}_{l}" for l in range(c.decoder_layers) for kind in ("key", "value")]
        axes = {name: {0: "batch"} for name in ["input_features"] + outputs}
        return inputs, ["input_features"], outputs, axes
    names = ["inputs_embeds", "position_ids"]
    axes = {"inputs_embeds": {0: "batch"}, "position_ids": {0: "batch"}}
    caches = []
    for l in range(c.decoder_layers):
        for kind in ("key", "value"):
            caches.append(torch.zeros(1, c.heads, 3, c.head_dim))
            names.append(f"past_self_{kind}_{l}")
            axes[names[-1]] = {0: "batch", 2: "kv_length"}
        for kind in ("key", "value"):
            caches.append(torch.zeros(1, c.heads, c.source_positions, c.head_dim))
            names.append(f"cross_{kind}_{l}")
            axes[names[-1]] = {0: "batch"}
    outputs = ["logits"] + [f"present_self_{kind}_{l}" for l in range(c.decoder_layers)
                            for kind in ("key", "value")]
    axes["logits"] = {0: "batch"}
    return (torch.zeros(1, 1, c.d_model), torch.tensor([[3]]), *caches), names, outputs, axes


# name: config, published parameter count (HF model cards, openai/whisper-<size>).
WHISPER = {
    "whisper-base": (WhisperConfig(d_model=512, encoder_layers=6, decoder_layers=6, heads=8,
                                   ffn=2048), 72_593_920),
    "whisper-small": (WhisperConfig(d_model=768, encoder_layers=12, decoder_layers=12, heads=12,
                                    ffn=3072), 241_734_912),
}
