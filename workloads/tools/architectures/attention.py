"""Attention of one new position over a cache and itself, the softmax taken over both parts
without joining them (as flash-decoding kernels do): the cache is read in place, never copied.
Shared by the decode graphs of the LLMs (llama.py) and Whisper (whisper.py)."""

import math

import torch


def split_softmax(q, k, v, past_k, past_v, head_dim):
    scale = 1.0 / math.sqrt(head_dim)
    past_scores = torch.matmul(q, past_k.transpose(-1, -2)) * scale
    new_scores = torch.matmul(q, k.transpose(-1, -2)) * scale
    peak = torch.maximum(past_scores.amax(-1, keepdim=True), new_scores.amax(-1, keepdim=True))
    past_weights = torch.exp(past_scores - peak)
    new_weights = torch.exp(new_scores - peak)
    total = past_weights.sum(-1, keepdim=True) + new_weights.sum(-1, keepdim=True)
    return (torch.matmul(past_weights, past_v) + torch.matmul(new_weights, v)) / total
