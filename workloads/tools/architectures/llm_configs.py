"""The published configurations of the decoder LLMs (each model card's config.json) and their
published parameter counts (the model card's, or the safetensors index's total_size / 2 for a
bf16 checkpoint), which tests check the graphs against."""

from .llama import LlamaConfig

LLMS = {
    # meta-llama/Llama-3.2-1B: 1.24 B parameters (1,235,814,400).
    "llama-3.2-1b": (LlamaConfig(hidden=2048, layers=16, heads=32, kv_heads=8, ffn=8192,
                                 vocab=128256, rope_theta=500000.0, max_positions=131072,
                                 norm_eps=1e-5), 1_235_814_400),
    # meta-llama/Llama-3.2-3B: 3.21 B parameters (3,212,749,824).
    "llama-3.2-3b": (LlamaConfig(hidden=3072, layers=28, heads=24, kv_heads=8, ffn=8192,
                                 vocab=128256, rope_theta=500000.0, max_positions=131072,
                                 norm_eps=1e-5), 3_212_749_824),
    # Qwen/Qwen2.5-0.5B: 0.49 B parameters (494,032,768).
    "qwen2.5-0.5b": (LlamaConfig(hidden=896, layers=24, heads=14, kv_heads=2, ffn=4864,
                                 vocab=151936, rope_theta=1000000.0, max_positions=32768,
                                 norm_eps=1e-6, qkv_bias=True), 494_032_768),
    # Qwen/Qwen2.5-1.5B: 1.54 B parameters (1,543,714,304).
    "qwen2.5-1.5b": (LlamaConfig(hidden=1536, layers=28, heads=12, kv_heads=2, ffn=8960,
                                 vocab=151936, rope_theta=1000000.0, max_positions=131072,
                                 norm_eps=1e-6, qkv_bias=True), 1_543_714_304),
    # HuggingFaceTB/SmolLM2-360M: 362 M parameters (361,821,120).
    "smollm2-360m": (LlamaConfig(hidden=960, layers=32, heads=15, kv_heads=5, ffn=2560,
                                 vocab=49152, rope_theta=100000.0, max_positions=8192,
                                 norm_eps=1e-5), 361_821_120),
    # HuggingFaceTB/SmolLM2-135M: 135 M parameters (134,515,008).
    "smollm2-135m": (LlamaConfig(hidden=576, layers=30, heads=9, kv_heads=3, ffn=1536,
                                 vocab=49152, rope_theta=100000.0, max_positions=8192,
                                 norm_eps=1e-5), 134_515_008),
}
