"""The fixtures exported with symbolic dims (batch, sequence, kv_length), which `memplace import
--dim` gives values: each model's graphs, and the parameter count its source publishes."""

import dataclasses
from typing import Callable

import torch

from . import bert, llama, llm_configs, vision, whisper


@dataclasses.dataclass
class Fixture:
    name: str  # workloads/onnx/<name>.onnx
    build: Callable[[], torch.nn.Module]  # built when exported: one model in memory at a time
    inputs: tuple
    input_names: list
    output_names: list
    axes: dict  # dynamic_axes: the symbolic dims
    description: str
    placeholders: bool = False  # traced with placeholder parameters (export.py): the LLMs
    # Whether the graph holds every parameter of the model (an LLM's phases share them), or a
    # part that the model's other graphs complete (Whisper's encode and decode graphs).
    whole: bool = True
    # The most each symbolic dim may be, with why (the model's position table): the importer
    # refuses a --dim above it (metadata memplace.max_dim.<dim>).
    limits: dict = dataclasses.field(default_factory=dict)


# name: (layers, hidden, heads, ffn), published parameter count (HF model cards:
# bert-base-uncased and bert-large-uncased with their pooler, distilbert-base-uncased).
ENCODERS = {
    "bert-base": ((12, 768, 12, 3072), 109_482_240),
    "bert-large": ((24, 1024, 16, 4096), 335_141_888),
    "distilbert": ((6, 768, 12, 3072), 66_362_880),
}


def encoder(name):
    size, _ = ENCODERS[name]
    if name == "distilbert":
        build = lambda: bert.DistilBertModel(*size)
        names = ["input_ids", "attention_mask"]
    else:
        build = lambda: bert.BertModel(*size)
        names = ["input_ids", "token_type_ids", "attention_mask"]
    inputs = tuple(torch.ones(1, 4, dtype=torch.long) for _ in names)
    axes = {n: {0: "batch", 1: "sequence"} for n in names}
    # bert-base.onnx is the static export the shipped bert-base workload (and the results that
    # name its layers) comes from; its symbolic twin is bert-base-shaped.
    fixture = "bert-base-shaped" if name == "bert-base" else name
    return [Fixture(fixture, build, inputs, names, ["hidden"], axes,
                    f"{name} encoder, symbolic batch and sequence",
                    limits={"sequence": (512, "512 learned positions")})]


def decoder_llm(name):
    config, _ = llm_configs.LLMS[name]
    fixtures = []
    context = f"a context of {config.max_positions} positions"
    limits = {"prefill": {"sequence": (config.max_positions, context)},
              "decode": {"kv_length": (config.max_positions - 1, context)}}
    for phase in ("prefill", "decode"):
        inputs, names, outputs, axes = llama.example_inputs(config, phase)
        fixtures.append(Fixture(f"{name}-{phase}", lambda phase=phase: llama.LlamaModel(config, phase),
                                inputs, names, outputs, axes, f"{name} {phase}, symbolic shapes",
                                placeholders=True, limits=limits[phase]))
    return fixtures


def speech(name):
    config, _ = whisper.WHISPER[name]
    fixtures = []
    for phase, half in (("encode", lambda: whisper.WhisperEncode(whisper.Whisper(config))),
                        ("decode", lambda: whisper.Whisper(config).decoder)):
        inputs, names, outputs, axes = whisper.example_inputs(config, phase)
        limits = {"kv_length": (config.target_positions - 1,
                                f"{config.target_positions} decoder positions")}
        fixtures.append(Fixture(f"{name}-{phase}", half, inputs, names, outputs, axes,
                                f"{name} {phase}, symbolic shapes", whole=False,
                                limits=limits if phase == "decode" else {}))
    return fixtures


def vision_model(name):
    inputs, names, outputs, axes = vision.example_inputs(name)
    return [Fixture(name, lambda: vision.build(name), inputs, names, outputs, axes,
                    f"{name}, symbolic batch")]


def published_parameters(name):
    if name in ENCODERS:
        return ENCODERS[name][1]
    if name in llm_configs.LLMS:
        return llm_configs.LLMS[name][1]
    if name in whisper.WHISPER:
        return whisper.WHISPER[name][1]
    return vision.VISION[name][2]


def published_unit(name):
    """The unit the published count is rounded to (1: exact)."""
    entry = vision.VISION.get(name, ())
    return entry[3] if len(entry) > 3 else 1


def fixtures(name):
    if name in ENCODERS:
        return encoder(name)
    if name in llm_configs.LLMS:
        return decoder_llm(name)
    if name in whisper.WHISPER:
        return speech(name)
    return vision_model(name)


SHAPED_MODELS = (list(ENCODERS) + list(llm_configs.LLMS) + list(whisper.WHISPER) +
                 list(vision.VISION))
