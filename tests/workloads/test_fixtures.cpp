// The fixtures exported with symbolic dims (workloads/tools/architectures/): every model's
// parameters against the count its source publishes, read from the fixture's initializers, and
// the imported MACs at two shapes against an independent count — analytic formulas from the
// published configurations for the transformers, torchvision's published figures for the vision
// models.
#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "model/inputs/workload.hpp"
#include "workloads/tools/onnx_import.hpp"

namespace {

using memplace::ImportOptions;

const std::filesystem::path kFixtures = MEMPLACE_SOURCE_DIR "/workloads/onnx";

// The model's parameters, counted from a fixture's floating-point initializers: not the buffers
// (BatchNorm's running statistics, the rotary inverse frequencies), and each BatchNorm that the
// exporter folded into its convolution counted as it was: the fold leaves one bias per channel
// (named by the exporter, "onnx::Conv_194") where BatchNorm had a scale and a shift.
std::int64_t fixture_parameters(const std::string& fixture) {
  std::ifstream in(kFixtures / (fixture + ".onnx"), std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing fixture " << fixture);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  onnx::ModelProto model;
  REQUIRE(model.ParseFromString(bytes));
  std::int64_t count = 0;
  for (const auto& init : model.graph().initializer()) {
    if (init.data_type() != onnx::TensorProto::FLOAT) continue;
    const std::string& name = init.name();
    if (name.ends_with("running_mean") || name.ends_with("running_var") ||
        name.ends_with("inv_freq"))
      continue;
    std::int64_t elements = 1;
    for (std::int64_t d : init.dims())
      elements *= d;
    const bool folded_batch_norm = name.starts_with("onnx::Conv_") && init.dims_size() == 1;
    count += folded_batch_norm ? 2 * elements : elements;
  }
  return count;
}

std::int64_t imported_macs(const std::string& fixture,
                           std::map<std::string, std::int64_t, std::less<>> dims,
                           std::vector<std::string> static_inputs = {}) {
  ImportOptions options;
  options.dims = std::move(dims);
  options.static_inputs = std::move(static_inputs);
  return memplace::import_onnx(kFixtures / (fixture + ".onnx"), options).total_macs();
}

// A decoder LLM of the Llama family (llm_configs.py).
struct Llm {
  const char* name;
  std::int64_t hidden, layers, heads, kv_heads, ffn, vocab, published;
  std::int64_t head_dim() const { return hidden / heads; }
  // Per token of the layer's projections and MLP.
  std::int64_t per_token() const {
    return hidden * (heads + 2 * kv_heads) * head_dim() + heads * head_dim() * hidden +
           3 * hidden * ffn;
  }
  // The prompt of `s` tokens, the logits of the last one.
  std::int64_t prefill_macs(std::int64_t s) const {
    return layers * (s * per_token() + 2 * heads * s * s * head_dim()) + hidden * vocab;
  }
  // One token of `b` sequences against a cache of `t` positions.
  std::int64_t decode_macs(std::int64_t b, std::int64_t t) const {
    return b * (layers * (per_token() + 2 * heads * (t + 1) * head_dim()) + hidden * vocab);
  }
};

const Llm kLlms[] = {
    {"llama-3.2-1b", 2048, 16, 32, 8, 8192, 128256, 1'235'814'400},
    {"llama-3.2-3b", 3072, 28, 24, 8, 8192, 128256, 3'212'749'824},
    {"qwen2.5-0.5b", 896, 24, 14, 2, 4864, 151936, 494'032'768},
    {"qwen2.5-1.5b", 1536, 28, 12, 2, 8960, 151936, 1'543'714'304},
    {"smollm2-360m", 960, 32, 15, 5, 2560, 49152, 361'821'120},
    {"smollm2-135m", 576, 30, 9, 3, 1536, 49152, 134'515'008},
};

TEST_CASE("fixtures: the decoder LLMs' parameters and MACs, prefill and decode") {
  for (const Llm& m : kLlms) {
    CAPTURE(std::string(m.name));
    const std::string prefill = std::string(m.name) + "-prefill";
    const std::string decode = std::string(m.name) + "-decode";
    CHECK(fixture_parameters(prefill) == m.published);
    CHECK(fixture_parameters(decode) == m.published);
    for (const std::int64_t s : {128, 512})
      CHECK(imported_macs(prefill, {{"batch", 1}, {"sequence", s}}) == m.prefill_macs(s));
    for (const auto& [b, t] : {std::pair<std::int64_t, std::int64_t>{1, 512}, {8, 2048}})
      CHECK(imported_macs(decode, {{"batch", b}, {"kv_length", t}}, {"past_*"}) ==
            m.decode_macs(b, t));
  }
}

// BERT-family encoders (bert.py): post-norm layers, BERT's pooler.
struct Encoder {
  const char* fixture;
  std::int64_t hidden, layers, heads, ffn;
  bool pooler;
  std::int64_t published;
  std::int64_t macs(std::int64_t b, std::int64_t s) const {
    const std::int64_t layer = 4 * s * hidden * hidden + 2 * s * s * hidden + 2 * s * hidden * ffn;
    return b * (layers * layer + (pooler ? hidden * hidden : 0));
  }
};

const Encoder kEncoders[] = {
    {"bert-base-shaped", 768, 12, 12, 3072, true, 109'482'240},
    {"bert-large", 1024, 24, 16, 4096, true, 335'141'888},
    {"distilbert", 768, 6, 12, 3072, false, 66'362'880},
};

TEST_CASE("fixtures: the encoders' parameters and MACs at two shapes") {
  for (const Encoder& e : kEncoders) {
    CAPTURE(std::string(e.fixture));
    CHECK(fixture_parameters(e.fixture) == e.published);
    CHECK(imported_macs(e.fixture, {{"batch", 1}, {"sequence", 128}}) == e.macs(1, 128));
    CHECK(imported_macs(e.fixture, {{"batch", 4}, {"sequence", 512}}) == e.macs(4, 512));
  }
  // The symbolic bert-base at the shipped shape is the shipped bert-base's cost model.
  const memplace::Workload shipped = memplace::load_workload("bert-base");
  CHECK(imported_macs("bert-base-shaped", {{"batch", 1}, {"sequence", 128}}) ==
        shipped.total_macs());
}

// Whisper (whisper.py): a 30 s window is 3000 mel frames, 1500 encoder positions; the encode
// graph ends with every decoder layer's cross-attention keys and values, which decode reads.
struct Speech {
  const char* name;
  std::int64_t d, encoder_layers, decoder_layers, heads, ffn, published;
  static constexpr std::int64_t kMels = 80, kFrames = 1500, kVocab = 51865;
  std::int64_t encode_macs(std::int64_t b) const {
    const std::int64_t convs = 2 * kFrames * d * kMels * 3 + kFrames * d * d * 3;
    const std::int64_t layer =
        4 * kFrames * d * d + 2 * kFrames * kFrames * d + 2 * kFrames * d * ffn;
    const std::int64_t cross_caches = decoder_layers * 2 * kFrames * d * d;
    return b * (convs + encoder_layers * layer + cross_caches);
  }
  std::int64_t decode_macs(std::int64_t b, std::int64_t t) const {
    const std::int64_t layer = 4 * d * d + 2 * (t + 1) * d    // self-attention over the cache
                               + 2 * d * d + 2 * kFrames * d  // cross-attention: q, out, scores
                               + 2 * d * ffn;
    return b * (decoder_layers * layer + d * kVocab);
  }
};

const Speech kSpeech[] = {
    {"whisper-base", 512, 6, 6, 8, 2048, 72'593'920},
    {"whisper-small", 768, 12, 12, 12, 3072, 241'734'912},
};

TEST_CASE("fixtures: Whisper's parameters (encoder and decoder) and MACs") {
  for (const Speech& w : kSpeech) {
    CAPTURE(std::string(w.name));
    const std::string encode = std::string(w.name) + "-encode";
    const std::string decode = std::string(w.name) + "-decode";
    CHECK(fixture_parameters(encode) + fixture_parameters(decode) == w.published);
    for (const std::int64_t b : {1, 4})
      CHECK(imported_macs(encode, {{"batch", b}}) == w.encode_macs(b));
    for (const std::int64_t t : {64, 447})
      CHECK(imported_macs(decode, {{"batch", 2}, {"kv_length", t}}, {"past_*", "cross_*"}) ==
            w.decode_macs(2, t));
  }
}

// torchvision's models: parameters and MACs (its "GFLOPS", which count multiply-adds) as
// torchvision 0.14's documentation publishes them, to its two decimals.
struct Vision {
  const char* fixture;
  std::int64_t published;
  double gmacs;
};

const Vision kVision[] = {
    {"resnet18", 11'689'512, 1.81},       {"mobilenet-v3-large", 5'483'032, 0.22},
    {"efficientnet-b0", 5'288'548, 0.39}, {"convnext-tiny", 28'589'128, 4.46},
    {"swin-t", 28'288'354, 4.49},         {"vit-b16", 86'567'656, 17.56},
    {"vit-l16", 304'326'632, 61.55},
};

TEST_CASE("fixtures: the vision models' parameters and MACs, and MACs linear in the batch") {
  for (const Vision& v : kVision) {
    CAPTURE(std::string(v.fixture));
    CHECK(fixture_parameters(v.fixture) == v.published);
    const std::int64_t one = imported_macs(v.fixture, {{"batch", 1}});
    // Within half a unit of the published figure's last digit, or 1 % where the figure's two
    // decimals are coarser than that (mobilenet-v3-large's 0.22).
    CHECK(static_cast<double>(one) * 1e-9 ==
          doctest::Approx(v.gmacs).epsilon(std::max(0.005 / v.gmacs, 0.01)));
    CHECK(imported_macs(v.fixture, {{"batch", 8}}) == 8 * one);
  }
}

TEST_CASE("fixtures: a dim above the model's position table is refused, naming it and why") {
  // The exporter writes each limit into the fixture (memplace.max_dim.<dim>).
  CHECK(imported_macs("llama-3.2-1b-decode", {{"batch", 1}, {"kv_length", 131071}}, {"past_*"}) >
        0);
  CHECK_THROWS_WITH_AS(
      imported_macs("llama-3.2-1b-decode", {{"batch", 1}, {"kv_length", 131072}}, {"past_*"}),
      doctest::Contains("dim kv_length=131072 is above 131071, the most this model allows (a "
                        "context of 131072 positions)"),
      memplace::InputError);
  CHECK_THROWS_WITH_AS(imported_macs("bert-large", {{"batch", 1}, {"sequence", 513}}),
                       doctest::Contains("dim sequence=513 is above 512"), memplace::InputError);
  CHECK_THROWS_WITH_AS(imported_macs("whisper-base-decode", {{"batch", 1}, {"kv_length", 448}},
                                     {"past_*", "cross_*"}),
                       doctest::Contains("448 decoder positions"), memplace::InputError);
}

TEST_CASE("fixtures: element types by name") {
  CHECK(memplace::element_type_bytes("int8") == 1);
  CHECK(memplace::element_type_bytes("bf16") == 2);
  CHECK(memplace::element_type_bytes("fp32") == 4);
  CHECK_FALSE(memplace::element_type_bytes("int4").has_value());
  ImportOptions options;
  options.dims = {{"batch", 1}, {"sequence", 64}};
  const auto int8 = memplace::import_onnx(kFixtures / "bert-large.onnx", options);
  options.element_bytes = *memplace::element_type_bytes("bf16");
  const auto bf16 = memplace::import_onnx(kFixtures / "bert-large.onnx", options);
  CHECK(bf16.total_weight_bytes() == 2 * int8.total_weight_bytes());
}

}  // namespace
