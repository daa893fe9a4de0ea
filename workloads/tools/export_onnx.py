#!/usr/bin/python3
"""Export the memplace workload architectures to small, weight-free ONNX fixtures.

Run from the repository root with Debian's Python (the only one that has torch here):

    /usr/bin/python3 workloads/tools/export_onnx.py            # all models
    /usr/bin/python3 workloads/tools/export_onnx.py bert-base  # just one

It writes workloads/onnx/<name>.onnx for:

  resnet50, resnet101, mobilenet-v2   torchvision 0.14, weights=None, input 1x3x224x224
  inception-v3                        torchvision 0.14, weights=None, aux_logits=False,
                                      input 1x3x299x299
  bert-base    BertModel (HF architecture) re-implemented below: 12 layers, hidden 768,
               12 heads, FFN 3072, erf GELU, pooler; inputs input_ids, token_type_ids,
               attention_mask, all 1x128 int64
  gpt2-small   GPT2Model (HF architecture, no LM head: ends with the final LayerNorm):
               12 layers, 768, 12 heads, causal mask, tanh GELU ("gelu_new"); input_ids 1x128
  transformer-decoder  torch.nn.TransformerDecoder-style post-norm stack of the base
               Transformer (Vaswani et al.): 6 layers, d_model 512, 8 heads, FFN 2048, ReLU;
               inputs tgt 1x128x512 and memory 1x128x512 (no embeddings, no output projection)

Every model is exported in eval mode at opset 17 (LayerNormalization is one op) with static
shapes (batch 1), after its parameters are randomised with fixed seeds so the exporter cannot
merge identical initialisers. ONNX shape inference then fills in value_info, and the data of every
floating-point initializer is dropped (dims and dtype stay): the importer needs shapes only, so a
fixture is a few hundred KB instead of hundreds of MB. Integer initializers (shape constants,
indices) keep their data so the graph stays shape-inferable. The output is deterministic.
"""

import io
import math
import os
import sys

import onnx
import onnx.shape_inference
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

from architectures import shaped
from architectures.bert import BertModel, merge_heads, split_heads
from architectures.export import export_shapes_only

OPSET = 17
SEED = 20210503  # EGRL, ICLR 2021
OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "onnx")


# --------------------------------------------------------------------------------------------
# Hand-written transformers (faithful to the reference architectures, minus training-only parts)


class GPT2Block(nn.Module):
    def __init__(self, hidden, heads, max_positions):
        super().__init__()
        self.heads = heads
        self.ln_1 = nn.LayerNorm(hidden, eps=1e-5)
        self.c_attn = nn.Linear(hidden, 3 * hidden)
        self.c_proj = nn.Linear(hidden, hidden)
        self.ln_2 = nn.LayerNorm(hidden, eps=1e-5)
        self.c_fc = nn.Linear(hidden, 4 * hidden)
        self.mlp_proj = nn.Linear(4 * hidden, hidden)
        causal = torch.tril(torch.ones(max_positions, max_positions, dtype=torch.bool))
        self.register_buffer("bias", causal.view(1, 1, max_positions, max_positions))
        self.register_buffer("masked_bias", torch.tensor(-1e4))

    def attention(self, x):
        hidden = x.shape[-1]
        q, k, v = self.c_attn(x).split(hidden, dim=2)
        q, k, v = (split_heads(t, self.heads) for t in (q, k, v))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(v.shape[-1])
        s = q.shape[-2]
        causal = self.bias[:, :, :s, :s]
        scores = torch.where(causal, scores, self.masked_bias.to(scores.dtype))
        return self.c_proj(merge_heads(torch.matmul(F.softmax(scores, dim=-1), v)))

    def forward(self, x):
        x = x + self.attention(self.ln_1(x))
        h = F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh")  # HF "gelu_new"
        return x + self.mlp_proj(h)


class GPT2Model(nn.Module):
    """HF transformers GPT2Model (gpt2 small config), eval mode, without the LM head."""

    def __init__(self, layers=12, hidden=768, heads=12, vocab=50257, max_positions=1024):
        super().__init__()
        self.wte = nn.Embedding(vocab, hidden)
        self.wpe = nn.Embedding(max_positions, hidden)
        self.h = nn.ModuleList(GPT2Block(hidden, heads, max_positions) for _ in range(layers))
        self.ln_f = nn.LayerNorm(hidden, eps=1e-5)

    def forward(self, input_ids):
        s = input_ids.shape[-1]
        position_ids = torch.arange(0, s, dtype=torch.long).unsqueeze(0)
        x = self.wte(input_ids) + self.wpe(position_ids)
        for block in self.h:
            x = block(x)
        return self.ln_f(x)


class MultiHeadAttention(nn.Module):
    """nn.MultiheadAttention's computation with separate q/k/v projections."""

    def __init__(self, d_model, heads):
        super().__init__()
        self.heads = heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, query, key_value, mask=None):
        q = split_heads(self.q_proj(query), self.heads)
        k = split_heads(self.k_proj(key_value), self.heads)
        v = split_heads(self.v_proj(key_value), self.heads)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
        if mask is not None:
            scores = scores + mask
        return self.out_proj(merge_heads(torch.matmul(F.softmax(scores, dim=-1), v)))


class DecoderLayer(nn.Module):
    """torch.nn.TransformerDecoderLayer (norm_first=False, activation=relu), eval mode."""

    def __init__(self, d_model, heads, ffn):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, heads)
        self.multihead_attn = MultiHeadAttention(d_model, heads)
        self.linear1 = nn.Linear(d_model, ffn)
        self.linear2 = nn.Linear(ffn, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.norm3 = nn.LayerNorm(d_model)

    def forward(self, x, memory, tgt_mask):
        x = self.norm1(x + self.self_attn(x, x, tgt_mask))
        x = self.norm2(x + self.multihead_attn(x, memory))
        return self.norm3(x + self.linear2(F.relu(self.linear1(x))))


class TransformerDecoder(nn.Module):
    def __init__(self, layers=6, d_model=512, heads=8, ffn=2048, seq=128):
        super().__init__()
        self.layers = nn.ModuleList(DecoderLayer(d_model, heads, ffn) for _ in range(layers))
        # nn.Transformer.generate_square_subsequent_mask(seq): 0 on and below the diagonal.
        causal = torch.triu(torch.full((seq, seq), float("-inf")), diagonal=1)
        self.register_buffer("tgt_mask", causal)

    def forward(self, tgt, memory):
        x = tgt
        for layer in self.layers:
            x = layer(x, memory, self.tgt_mask)
        return x


# --------------------------------------------------------------------------------------------
# Export


def image_input(size):
    return (torch.randn(1, 3, size, size),), ["image"]


def token_inputs(seq=128, vocab=30522):
    ids = torch.randint(0, vocab, (1, seq))
    return ids, torch.zeros(1, seq, dtype=torch.long), torch.ones(1, seq, dtype=torch.long)


def build(name):
    """Returns (model, example inputs, input names) for a workload name."""
    if name == "resnet50":
        return torchvision.models.resnet50(weights=None), *image_input(224)
    if name == "resnet101":
        return torchvision.models.resnet101(weights=None), *image_input(224)
    if name == "mobilenet-v2":
        return torchvision.models.mobilenet_v2(weights=None), *image_input(224)
    if name == "inception-v3":
        model = torchvision.models.inception_v3(weights=None, aux_logits=False, init_weights=False)
        return model, *image_input(299)
    if name == "bert-base":
        return BertModel(), token_inputs(), ["input_ids", "token_type_ids", "attention_mask"]
    if name == "gpt2-small":
        return GPT2Model(), (torch.randint(0, 50257, (1, 128)),), ["input_ids"]
    if name == "transformer-decoder":
        inputs = (torch.randn(1, 128, 512), torch.randn(1, 128, 512))
        return TransformerDecoder(), inputs, ["tgt", "memory"]
    raise SystemExit(f"unknown model {name!r}; known: "
                     f"{', '.join(MODELS + shaped.SHAPED_MODELS)}")


MODELS = ["resnet50", "resnet101", "bert-base", "mobilenet-v2", "inception-v3", "gpt2-small",
          "transformer-decoder"]


def randomise(model):
    """Distinct random parameters and BN statistics: no two initialisers are identical."""
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.02)
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.normal_(0.0, 0.1)
                m.running_var.uniform_(0.5, 1.5)


def strip_weights(model):
    """Drops floating-point initializer data, keeping dims and dtype (integers stay)."""
    float_types = {onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16, onnx.TensorProto.DOUBLE,
                   onnx.TensorProto.BFLOAT16}
    for init in model.graph.initializer:
        if init.data_type in float_types:
            init.ClearField("raw_data")
            init.ClearField("float_data")
            init.ClearField("double_data")
            init.ClearField("int32_data")  # float16 / bfloat16 storage


def export(name):
    torch.manual_seed(SEED)
    model, inputs, input_names = build(name)
    randomise(model)
    model.eval()
    buffer = io.BytesIO()
    torch.onnx.export(model, inputs, buffer, opset_version=OPSET, input_names=input_names,
                      do_constant_folding=True)
    proto = onnx.load_model_from_string(buffer.getvalue())
    proto = onnx.shape_inference.infer_shapes(proto, strict_mode=True)
    strip_weights(proto)
    proto.producer_name = "memplace workloads/tools/export_onnx.py"
    proto.doc_string = f"memplace workload {name}: shapes only (weight data stripped)"
    path = os.path.join(OUT_DIR, f"{name}.onnx")
    onnx.save(proto, path + ".tmp")  # written whole, then renamed
    os.replace(path + ".tmp", path)
    print(f"{path}: {os.path.getsize(path)} bytes, {len(proto.graph.node)} nodes")


def export_shaped(name):
    """A model of architectures/ with symbolic dims: one fixture per graph (an LLM's prefill
    and decode, Whisper's encoder and decoder), whose parameters are checked against the
    published count: each graph's, or their sum when each holds a part."""
    expected = shaped.published_parameters(name)
    parts = 0
    for f in shaped.fixtures(name):
        torch.manual_seed(SEED)
        model = f.build()
        count = sum(p.numel() for p in model.parameters())
        if f.whole and 2 * abs(count - expected) >= shaped.published_unit(name):
            raise SystemExit(f"{f.name}: {count} parameters, published {expected}")
        path = os.path.join(OUT_DIR, f"{f.name}.onnx")
        shapes = {n: p.shape for n, p in model.named_parameters()}
        proto = export_shapes_only(model, f.inputs, f.input_names, f.output_names, f.axes, path,
                                   f"memplace workload {f.name}: {f.description} (no weights)",
                                   f.placeholders, f.limits)
        # A part counts the parameters its graph reads (a module may hold more than it runs).
        used = sum(math.prod(shapes[i.name]) for i in proto.graph.initializer if i.name in shapes)
        parts += 0 if f.whole else used
        print(f"{path}: {os.path.getsize(path)} bytes, {len(proto.graph.node)} nodes, "
              f"{count if f.whole else used} parameters")
        del model, proto
    if parts and parts != expected:
        raise SystemExit(f"{name}: its graphs hold {parts} parameters, published {expected}")


def main(argv):
    os.makedirs(OUT_DIR, exist_ok=True)
    for name in argv or MODELS + shaped.SHAPED_MODELS:
        if name in shaped.SHAPED_MODELS:
            export_shaped(name)
        else:
            export(name)


if __name__ == "__main__":
    main(sys.argv[1:])
