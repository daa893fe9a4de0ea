// Folds the shape computations that ONNX shape inference cannot follow. Exporters compute reshape
// targets at run time from the input's shape (Shape -> Gather -> Cast -> Mul -> Div -> Floor ->
// Concat -> Reshape), and ONNX's data propagation stops at many of those ops, so a model exported
// with a symbolic batch or sequence ends in tensors of unknown shape. Once the symbolic dims have
// values every such computation is a small integer one: this pass evaluates it, replacing each
// node by a Constant of its value, and runs shape inference again, until nothing more folds.
//
// Only computations on small tensors (shapes, indices, scalars) are evaluated; every other node is
// left as it is. The importer's own folding (folding.hpp) still decides what becomes a layer.
#pragma once

#include <onnx/onnx_pb.h>

#include <string>

namespace memplace::onnx_import {

// Runs ONNX shape inference (with data propagation) and folds until a fixed point. Throws
// InputError naming `origin` when shape inference fails.
void infer_shapes_folding(onnx::ModelProto& model, const std::string& origin);

}  // namespace memplace::onnx_import
