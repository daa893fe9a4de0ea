// The suite file (model/inputs/suite.hpp): parsing, the naming convention, the split by
// family, and an error naming the file, line and field for each kind of bad input.
#include <doctest/doctest.h>

#include <string>

#include "base/errors.hpp"
#include "model/inputs/suite.hpp"

namespace {

using memplace::InputError;
using memplace::parse_suite;
using memplace::Split;

const std::string kHead = R"(suite: toy
cost_model: v1
families:
  - {name: llama, split: test, about: Meta's Llama 3.2}
  - {name: smollm, split: dev, about: Hugging Face's SmolLM2}
models:
  - {name: llama-3.2-1b, family: llama, config: meta-llama/Llama-3.2-1B}
  - {name: smollm2-135m, family: smollm, config: HuggingFaceTB/SmolLM2-135M}
)";

const std::string kGood = kHead + R"(workloads:
  - {name: llama-3.2-1b-decode-b1-kv2048, model: llama-3.2-1b, phase: decode,
     dims: {kv_length: 2048, batch: 1}, static_inputs: ['past_*']}
  - {name: smollm2-135m-prefill-b4-s512-bf16, model: smollm2-135m, phase: prefill,
     fixture: smollm2-135m-prefill, dims: {batch: 4, sequence: 512}, element_type: bf16}
instances:
  - {workload: llama-3.2-1b-decode-b1-kv2048, hardware: tpu-v4i}
  - {workload: smollm2-135m-prefill-b4-s512-bf16, hardware: nnpi}
)";

std::string error_of(const std::string& text) {
  try {
    (void)parse_suite(text, "toy.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("suite: a good file parses, with the split of each instance its family's") {
  const memplace::Suite suite = parse_suite(kGood, "toy.yaml");
  CHECK(suite.name == "toy");
  CHECK(suite.cost_model == "v1");
  REQUIRE(suite.instances.size() == 2);
  CHECK(suite.instances[0].id() == "llama-3.2-1b-decode-b1-kv2048@tpu-v4i");
  CHECK(suite.split(suite.instances[0]) == Split::test);
  CHECK(suite.split(suite.instances[1]) == Split::dev);
  const memplace::SuiteWorkload& decode = suite.workload("llama-3.2-1b-decode-b1-kv2048");
  // Dims in the convention's order whatever the file's order.
  REQUIRE(decode.dims.size() == 2);
  CHECK(decode.dims[0].first == "batch");
  CHECK(decode.dims[1] == std::pair<std::string, std::int64_t>{"kv_length", 2048});
  CHECK(decode.element_type == "int8");
  CHECK(decode.fixture == "llama-3.2-1b-decode");
  CHECK(suite.description(decode) ==
        "meta-llama/Llama-3.2-1B; decode, batch 1, KV cache 2048, int8");
  CHECK(suite.source(decode) ==
        "memplace import workloads/onnx/llama-3.2-1b-decode.onnx --dim batch=1 --dim "
        "kv_length=2048 --static-input 'past_*' --element-type int8 (suite toy)");
  CHECK(suite.workload("smollm2-135m-prefill-b4-s512-bf16").element_type == "bf16");
  CHECK_THROWS_AS((void)suite.workload("nope"), std::out_of_range);
}

TEST_CASE("suite: the naming convention") {
  memplace::SuiteWorkload w;
  w.model = "vit-b16";
  w.dims = {{"batch", 32}};
  CHECK(memplace::conventional_name(w) == "vit-b16-b32");
  w.model = "whisper-small";
  w.phase = "decode";
  w.dims = {{"batch", 8}, {"kv_length", 447}};
  w.element_type = "fp16";
  CHECK(memplace::conventional_name(w) == "whisper-small-decode-b8-kv447-fp16");
}

TEST_CASE("suite: bad files name the line and the field") {
  auto replaced = [](std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  CHECK(error_of(replaced(kGood, "split: dev", "split: train")) ==
        "toy.yaml:5: families[1].split: expected dev or test, got 'train'");
  CHECK(error_of(replaced(kGood, "family: smollm,", "family: smol,")) ==
        "toy.yaml:8: models[1].family: 'smol' is not among the families");
  CHECK(error_of(replaced(kGood, "name: llama-3.2-1b-decode-b1-kv2048", "name: llama-decode")) ==
        "toy.yaml:10: workloads[0].name: 'llama-decode' should be "
        "'llama-3.2-1b-decode-b1-kv2048' (the naming convention: docs/suite.md)");
  CHECK(error_of(replaced(kGood, "batch: 4,", "batch: 0,")) ==
        "toy.yaml:13: workloads[1].dims.batch: must be at least 1");
  CHECK(error_of(replaced(kGood, "kv_length: 2048, batch: 1", "kv_length: 2048")) ==
        "toy.yaml:11: workloads[0].dims: must give the batch");
  CHECK(error_of(replaced(kGood, "sequence: 512", "sequence: 512, width: 3")) ==
        "toy.yaml:13: workloads[1].dims: unknown dim 'width' (batch, sequence or kv_length)");
  CHECK(error_of(replaced(kGood, "element_type: bf16", "element_type: int4")) ==
        "toy.yaml:13: workloads[1].element_type: unknown 'int4' (int8, fp8, fp16, bf16, fp32)");
  CHECK(error_of(replaced(kGood, "{workload: smollm2-135m-prefill-b4-s512-bf16",
                          "{workload: smollm2-135m-prefill-b4-s512")) ==
        "toy.yaml:16: instances[1].workload: 'smollm2-135m-prefill-b4-s512' is not among the "
        "workloads");
  CHECK(error_of(replaced(kGood, "{workload: smollm2-135m-prefill-b4-s512-bf16, hardware: nnpi}",
                          "{workload: llama-3.2-1b-decode-b1-kv2048, hardware: tpu-v4i}")) ==
        "toy.yaml:16: instances[1]: llama-3.2-1b-decode-b1-kv2048@tpu-v4i is listed twice");
  CHECK(error_of(replaced(kGood, "fixture: smollm2-135m-prefill", "fixture: qwen2.5-0.5b")) ==
        "toy.yaml:13: workloads[1].fixture: 'qwen2.5-0.5b' is not a fixture of smollm2-135m");
  CHECK(error_of(replaced(kGood, "cost_model: v1", "cost_modle: v1")).find("cost_modle") !=
        std::string::npos);
}
