"""Exports a module as a weight-free ONNX fixture with symbolic dims, without ever holding its
weights twice: the parameters are traced as graph inputs (export_params=False), then declared as
initializers with dims and dtype but no data. Tracing runs at tiny shapes; the dims named in
`dynamic_axes` stay symbolic, and the importer gives them values (memplace import --dim)."""

import io
import os

import onnx
import onnx.shape_inference
import torch

OPSET = 17


def declare_parameters(proto, input_names):
    """Moves every graph input but the model's own inputs (the traced parameters and buffers)
    into a data-less initializer of the same name, dims and element type."""
    graph = proto.graph
    kept = []
    for value in graph.input:
        if value.name in input_names:
            kept.append(value)
            continue
        tensor_type = value.type.tensor_type
        init = onnx.TensorProto()
        init.name = value.name
        init.data_type = tensor_type.elem_type
        init.dims.extend(d.dim_value for d in tensor_type.shape.dim)
        graph.initializer.append(init)
    del graph.input[:]
    graph.input.extend(kept)


def placeholder_parameters(model):
    """Every parameter replaced by a one-element tensor broadcast to its shape (a distinct value
    each, so the exporter merges none): tracing needs shapes only, and a 3 B-parameter model then
    traces in a few hundred MB instead of tens of GB."""
    for index, (name, parameter) in enumerate(list(model.named_parameters())):
        owner = model.get_submodule(name.rpartition(".")[0]) if "." in name else model
        value = torch.full((1,), float(index + 1)).expand(parameter.shape)
        setattr(owner, name.rpartition(".")[2], torch.nn.Parameter(value, requires_grad=False))


def distinct_parameters(model):
    """Parameters that start constant (norm scales and biases, ConvNeXt's layer scales) made
    distinct: equal initializers the exporter would merge into one, and the graph keeps one per
    parameter."""
    generator = torch.Generator().manual_seed(20210503)
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() == 1 or bool((p == p.flatten()[0]).all()):
                p.copy_(torch.randn(p.shape, generator=generator, dtype=torch.float32).to(p.dtype))


def export_shapes_only(model, inputs, input_names, output_names, dynamic_axes, path, doc,
                       placeholders=False, limits=None):
    model.eval()
    if placeholders:
        placeholder_parameters(model)
    else:
        distinct_parameters(model)
    buffer = io.BytesIO()
    # Traced with gradients on: under no_grad, torch's attention modules take a fused fast path
    # that has no ONNX form. No constant folding: it would materialise a transposed copy of every
    # weight.
    torch.onnx.export(model, inputs, buffer, opset_version=OPSET, input_names=input_names,
                      output_names=output_names, dynamic_axes=dynamic_axes, export_params=False,
                      do_constant_folding=False, keep_initializers_as_inputs=True)
    proto = onnx.load_model_from_string(buffer.getvalue())
    declare_parameters(proto, set(input_names))
    # The exporter names the outputs' dims after the ops that made them; shape inference works
    # them out from the inputs' dims instead.
    for output in proto.graph.output:
        output.type.tensor_type.ClearField("shape")
    proto.producer_name = "memplace workloads/tools/export_onnx.py"
    proto.doc_string = doc
    for dim, (most, why) in sorted((limits or {}).items()):
        entry = proto.metadata_props.add()
        entry.key = f"memplace.max_dim.{dim}"
        entry.value = f"{most}: {why}"
    onnx.save(proto, path + ".tmp")  # written whole, then renamed: never half a fixture
    os.replace(path + ".tmp", path)
    return proto
