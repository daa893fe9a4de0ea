#include "workloads/tools/shipped.hpp"

namespace memplace {

const std::vector<ShippedWorkload>& shipped_workloads() {
  static const std::vector<ShippedWorkload> kShipped = {
      {"resnet50", "ResNet-50 image classifier, batch 1, 3x224x224 (EGRL paper workload)",
       "torchvision 0.14 resnet50(weights=None)"},
      {"resnet101", "ResNet-101 image classifier, batch 1, 3x224x224 (EGRL paper workload)",
       "torchvision 0.14 resnet101(weights=None)"},
      {"bert-base",
       "BERT-base encoder with pooler (12 layers, hidden 768, 12 heads, FFN 3072), batch 1, "
       "sequence 128 (EGRL paper workload)",
       "BertModel (HF transformers architecture) re-implemented in export_onnx.py"},
      {"mobilenet-v2", "MobileNetV2 image classifier, batch 1, 3x224x224",
       "torchvision 0.14 mobilenet_v2(weights=None)"},
      {"inception-v3",
       "Inception-v3 image classifier without the auxiliary head, batch 1, 3x299x299",
       "torchvision 0.14 inception_v3(weights=None, aux_logits=False)"},
      {"gpt2-small",
       "GPT-2 small without the LM head (12 layers, hidden 768, 12 heads, causal), batch 1, "
       "sequence 128",
       "GPT2Model (HF transformers architecture, ends with ln_f) re-implemented in "
       "export_onnx.py"},
      {"transformer-decoder",
       "Transformer decoder stack (6 post-norm layers, d_model 512, 8 heads, FFN 2048, ReLU), "
       "batch 1, target and memory sequence 128",
       "torch.nn.TransformerDecoder-style stack re-implemented in export_onnx.py"},
  };
  return kShipped;
}

ImportOptions shipped_import_options(const ShippedWorkload& w) {
  ImportOptions options;
  options.name = w.name;
  options.description = w.description;
  options.source = "workloads/onnx/";
  options.source += w.name;
  options.source += ".onnx: ";
  options.source += w.model;
  options.source +=
      ", exported by workloads/tools/export_onnx.py (torch 1.13, opset 17, eval mode, weight data "
      "stripped); imported with fusion preset ";
  options.source += fusion_preset_name(options.fusion);
  options.source += ", element_bytes ";
  options.source += std::to_string(options.element_bytes);
  return options;
}

Workload import_shipped(const std::filesystem::path& root, const ShippedWorkload& w) {
  return import_onnx(root / "workloads" / "onnx" / (w.name + ".onnx"), shipped_import_options(w));
}

ImportOptions suite_import_options(const Suite& suite, const SuiteWorkload& w) {
  ImportOptions options;
  options.name = w.name;
  options.description = suite.description(w);
  options.source = suite.source(w);
  options.element_bytes = *element_type_bytes(w.element_type);  // checked by the suite's parser
  options.dims.insert(w.dims.begin(), w.dims.end());
  options.static_inputs = w.static_inputs;
  return options;
}

Workload import_suite_workload(const std::filesystem::path& root, const Suite& suite,
                               const SuiteWorkload& w) {
  return import_onnx(root / "workloads" / "onnx" / (w.fixture + ".onnx"),
                     suite_import_options(suite, w));
}

}  // namespace memplace
