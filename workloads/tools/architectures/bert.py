"""BERT-family encoders (HF transformers' BertModel and DistilBertModel), written from their
published configurations, in eval mode."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class BertEmbeddings(nn.Module):
    def __init__(self, vocab=30522, hidden=768, max_positions=512, type_vocab=2):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden)
        self.position_embeddings = nn.Embedding(max_positions, hidden)
        if type_vocab:
            self.token_type_embeddings = nn.Embedding(type_vocab, hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=1e-12)
        self.register_buffer("position_ids", torch.arange(max_positions).expand((1, -1)))

    def forward(self, input_ids, token_type_ids=None):
        seq_length = input_ids.size(1)
        position_ids = self.position_ids[:, :seq_length]
        embeddings = self.word_embeddings(input_ids)
        if token_type_ids is not None:
            embeddings = embeddings + self.token_type_embeddings(token_type_ids)
        embeddings = embeddings + self.position_embeddings(position_ids)
        return self.LayerNorm(embeddings)


def split_heads(x, heads):
    b, s, h = x.shape
    return x.view(b, s, heads, h // heads).permute(0, 2, 1, 3)


def merge_heads(x):
    b, heads, s, d = x.shape
    return x.permute(0, 2, 1, 3).contiguous().view(b, s, heads * d)


def extended_mask(attention_mask):
    """HF get_extended_attention_mask: [b, s] -> [b, 1, 1, s], (1 - mask) * most negative."""
    mask = attention_mask[:, None, None, :].to(torch.float32)
    return (1.0 - mask) * torch.finfo(torch.float32).min


class BertSelfAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)

    def forward(self, x, mask):
        q = split_heads(self.query(x), self.heads)
        k = split_heads(self.key(x), self.heads)
        v = split_heads(self.value(x), self.heads)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
        probs = F.softmax(scores + mask, dim=-1)
        return merge_heads(torch.matmul(probs, v))


class BertLayer(nn.Module):
    def __init__(self, hidden=768, heads=12, ffn=3072):
        super().__init__()
        self.attention = BertSelfAttention(hidden, heads)
        self.attention_output = nn.Linear(hidden, hidden)
        self.attention_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.intermediate = nn.Linear(hidden, ffn)
        self.output = nn.Linear(ffn, hidden)
        self.output_norm = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, x, mask):
        a = self.attention_norm(self.attention_output(self.attention(x, mask)) + x)
        h = F.gelu(self.intermediate(a))  # erf form, as HF's "gelu"
        return self.output_norm(self.output(h) + a)


class BertModel(nn.Module):
    """HF transformers BertModel (bert-base-uncased config by default), eval mode."""

    def __init__(self, layers=12, hidden=768, heads=12, ffn=3072):
        super().__init__()
        self.embeddings = BertEmbeddings(hidden=hidden)
        self.encoder = nn.ModuleList(BertLayer(hidden, heads, ffn) for _ in range(layers))
        self.pooler = nn.Linear(hidden, hidden)

    def forward(self, input_ids, token_type_ids, attention_mask):
        mask = extended_mask(attention_mask)
        x = self.embeddings(input_ids, token_type_ids)
        for layer in self.encoder:
            x = layer(x, mask)
        pooled = torch.tanh(self.pooler(x[:, 0]))
        return x, pooled


class DistilBertModel(nn.Module):
    """HF transformers DistilBertModel (distilbert-base-uncased), eval mode: BERT's post-norm
    layers without token types and pooler."""

    def __init__(self, layers=6, hidden=768, heads=12, ffn=3072):
        super().__init__()
        self.embeddings = BertEmbeddings(hidden=hidden, type_vocab=0)
        self.transformer = nn.ModuleList(BertLayer(hidden, heads, ffn) for _ in range(layers))

    def forward(self, input_ids, attention_mask):
        mask = extended_mask(attention_mask)
        x = self.embeddings(input_ids)
        for layer in self.transformer:
            x = layer(x, mask)
        return x
