// The ONNX importer (workloads/tools/): fusion rules and cost formulas on tiny hand-built graphs
// with hand-computed answers, malformed files, and the shipped workloads (targets and golden).
#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include "model/inputs/workload.hpp"
#include "tests/support/sanitized.hpp"
#include "workloads/tools/onnx_graph.hpp"
#include "workloads/tools/onnx_import.hpp"
#include "workloads/tools/shipped.hpp"

namespace {

using memplace::FusionPreset;
using memplace::ImportOptions;
using memplace::InputError;
using memplace::OpKind;
using memplace::Workload;

const std::filesystem::path kRoot = MEMPLACE_SOURCE_DIR;

// A per-process temporary folder (CTest runs test cases in parallel), removed at exit.
class ScratchDir {
 public:
  ScratchDir() {
    std::string leaf = "memplace_test_onnx_import_";
    leaf += std::to_string(::getpid());
    path_ = std::filesystem::temp_directory_path() / leaf;
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

const std::filesystem::path& scratch_dir() {
  static const ScratchDir dir;
  return dir.path();
}

void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// Builds a weight-free ONNX model (opset 17) in code; shapes come from ONNX shape inference.
class ModelBuilder {
 public:
  ModelBuilder() {
    model_.set_ir_version(8);
    auto* opset = model_.add_opset_import();
    opset->set_domain("");
    opset->set_version(17);
    model_.mutable_graph()->set_name("test");
  }

  void input(const std::string& name, std::initializer_list<std::int64_t> dims,
             int type = onnx::TensorProto::FLOAT) {
    auto* value = model_.mutable_graph()->add_input();
    value->set_name(name);
    auto* tensor = value->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(type);
    for (std::int64_t d : dims)
      tensor->mutable_shape()->add_dim()->set_dim_value(d);
  }
  void symbolic_input(const std::string& name) { named_input(name, {"batch", "8"}); }
  // An input whose dims are named ("batch") or given ("8").
  void named_input(const std::string& name, std::initializer_list<std::string> dims) {
    auto* value = model_.mutable_graph()->add_input();
    value->set_name(name);
    auto* tensor = value->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(onnx::TensorProto::FLOAT);
    for (const std::string& d : dims) {
      auto* dim = tensor->mutable_shape()->add_dim();
      if (std::isdigit(static_cast<unsigned char>(d.front())))
        dim->set_dim_value(std::stoll(d));
      else
        dim->set_dim_param(d);
    }
  }
  void output(const std::string& name) {
    auto* out = model_.mutable_graph()->add_output();
    out->set_name(name);
    out->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  }
  // A float weight without data (only dims matter), as in the shipped fixtures.
  void weight(const std::string& name, std::initializer_list<std::int64_t> dims) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (std::int64_t d : dims)
      t->add_dims(d);
  }
  void ints(const std::string& name, std::initializer_list<std::int64_t> values) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(static_cast<std::int64_t>(values.size()));
    for (std::int64_t v : values)
      t->add_int64_data(v);
  }
  void scalar(const std::string& output, float value) {
    auto& n = node("Constant", {}, {output});
    auto* a = n.add_attribute();
    a->set_name("value_float");
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(value);
  }
  onnx::NodeProto& node(const std::string& op, std::initializer_list<std::string> inputs,
                        std::initializer_list<std::string> outputs, std::string name = {}) {
    auto* n = model_.mutable_graph()->add_node();
    n->set_op_type(op);
    std::string label(1, '/');  // unique, like an exporter's "/Relu_3"
    label += op;
    label += '_';
    label += std::to_string(model_.graph().node_size());
    n->set_name(name.empty() ? label : name);
    for (const auto& i : inputs)
      n->add_input(i);
    for (const auto& o : outputs)
      n->add_output(o);
    return *n;
  }
  onnx::NodeProto& last_node() {
    return *model_.mutable_graph()->mutable_node(model_.graph().node_size() - 1);
  }
  static void ints_attribute(onnx::NodeProto& n, const std::string& key,
                             std::initializer_list<std::int64_t> values) {
    auto* a = n.add_attribute();
    a->set_name(key);
    a->set_type(onnx::AttributeProto::INTS);
    for (std::int64_t v : values)
      a->add_ints(v);
  }
  static void int_attribute(onnx::NodeProto& n, const std::string& key, std::int64_t value) {
    auto* a = n.add_attribute();
    a->set_name(key);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(value);
  }

  std::filesystem::path save(const std::string& file) const {
    const auto path = scratch_dir() / file;
    write_bytes(path, model_.SerializeAsString());
    return path;
  }
  Workload import(const std::string& file, ImportOptions options = {}) const {
    return memplace::import_onnx(save(file), options);
  }

 private:
  onnx::ModelProto model_;
};

// 3x3 conv, pad 1: 1x3x8x8 -> 1x4x8x8.
void conv3x3(ModelBuilder& m, const std::string& x, const std::string& w, const std::string& y,
             int cin, int cout, std::string name = {}) {
  m.weight(w, {cout, cin, 3, 3});
  auto& conv = m.node("Conv", {x, w}, {y}, std::move(name));
  ModelBuilder::ints_attribute(conv, "pads", {1, 1, 1, 1});
  ModelBuilder::ints_attribute(conv, "kernel_shape", {3, 3});
}

std::string error_of(const std::filesystem::path& path) {
  try {
    memplace::import_onnx(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// "none", or the first layer that differs (a short message instead of two whole YAML files).
std::string first_difference(const Workload& a, const Workload& b) {
  std::string text;
  if (a.size() != b.size()) {
    text = "layer counts ";
    text += std::to_string(a.size());
    text += " vs ";
    text += std::to_string(b.size());
    return text;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a.layer(i) == b.layer(i)) continue;
    text = "layers[";
    text += std::to_string(i);
    text += "] '";
    text += a.layer(i).name;
    text += "' vs '";
    text += b.layer(i).name;
    text += "'";
    return text;
  }
  return "none";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("onnx import: conv + batchnorm + relu is one conv layer") {
  ModelBuilder m;
  m.input("x", {1, 3, 8, 8});
  conv3x3(m, "x", "w", "c", 3, 4, "/stem/conv/Conv");
  for (const char* p : {"scale", "shift", "mean", "var"})
    m.weight(p, {4});
  m.node("BatchNormalization", {"c", "scale", "shift", "mean", "var"}, {"b"});
  m.node("Relu", {"b"}, {"y"});
  m.output("y");

  const Workload w = m.import("conv_bn_relu.onnx");
  REQUIRE(w.size() == 1);
  const auto& l = w.layer(0);
  CHECK(l.name == "stem/conv/Conv");
  CHECK(l.op == OpKind::conv);
  CHECK(l.macs == 4 * 8 * 8 * (3 * 3 * 3));    // output elements x Cin x kH x kW = 6912
  CHECK(l.vector_ops == 256 + 256);            // the folded BN bias, then the ReLU
  CHECK(l.weight_bytes == 4 * 3 * 3 * 3 + 4);  // conv weights + BN folded as the bias
  CHECK(l.weight_traffic_bytes == l.weight_bytes);
  CHECK(l.output_bytes == 256);
  CHECK(l.external_input_bytes == 3 * 8 * 8);
  CHECK(l.inputs.empty());

  ImportOptions fp16;
  fp16.element_bytes = 2;
  const Workload w2 = m.import("conv_bn_relu.onnx", fp16);
  CHECK(w2.layer(0).weight_bytes == 2 * 112);
  CHECK(w2.layer(0).output_bytes == 2 * 256);
  CHECK(w2.layer(0).macs == 6912);
  CHECK(w2.info().element_bytes == 2);

  ImportOptions op_level;
  op_level.fusion = FusionPreset::none;
  const Workload w3 = m.import("conv_bn_relu.onnx", op_level);
  REQUIRE(w3.size() == 3);
  CHECK(w3.layer(1).op == OpKind::norm);
  CHECK(w3.layer(1).weight_bytes == 2 * 4);  // standalone BN: folded scale and shift
  CHECK(w3.total_macs() == 6912);
}

TEST_CASE("onnx import: the Add and ReLU of a residual block fuse into the last conv") {
  ModelBuilder m;
  m.input("x", {1, 4, 8, 8});
  conv3x3(m, "x", "w0", "r", 4, 4, "/stem/Conv");
  m.weight("b1", {4});
  m.weight("w1", {4, 4, 1, 1});
  m.node("Conv", {"r", "w1", "b1"}, {"c1"}, "/block/conv1/Conv");
  m.node("Relu", {"c1"}, {"a1"});
  conv3x3(m, "a1", "w2", "c2", 4, 4, "/block/conv2/Conv");
  m.node("Add", {"c2", "r"}, {"s"});
  m.node("Relu", {"s"}, {"y"});
  m.output("y");

  const Workload w = m.import("residual.onnx");
  REQUIRE(w.size() == 3);
  CHECK(w.layer(0).name == "stem/Conv");
  CHECK(w.layer(0).vector_ops == 0);  // read twice: nothing fuses into the stem
  const auto& conv1 = w.layer(1);
  CHECK(conv1.macs == 256 * 4);
  CHECK(conv1.vector_ops == 256 + 256);  // bias + ReLU
  CHECK(conv1.weight_bytes == 16 + 4);
  const auto& conv2 = w.layer(2);
  CHECK(conv2.name == "block/conv2/Conv");
  CHECK(conv2.macs == 256 * 36);
  CHECK(conv2.vector_ops == 256 + 256);  // residual Add + ReLU
  CHECK(conv2.weight_bytes == 144);
  CHECK(conv2.output_bytes == 256);
  using memplace::InputEdge;
  CHECK(conv2.inputs == std::vector<InputEdge>{{1, 256}, {0, 256}});
  CHECK(w.num_edges() == 3);
  CHECK(w.last_use(0) == 2);  // the skip connection keeps the stem's output live
}

TEST_CASE("onnx import: the residual Add goes to the conv that finishes last (downsample)") {
  ModelBuilder m;
  m.input("x", {1, 4, 8, 8});
  conv3x3(m, "x", "w_main", "main", 4, 4, "/main/Conv");
  m.weight("w_down", {4, 4, 1, 1});
  m.node("Conv", {"x", "w_down"}, {"down"}, "/downsample/Conv");
  m.node("Add", {"main", "down"}, {"s"});
  m.node("Relu", {"s"}, {"y"});
  m.output("y");
  const Workload w = m.import("downsample.onnx");
  REQUIRE(w.size() == 2);
  CHECK(w.layer(0).vector_ops == 0);
  CHECK(w.layer(1).name == "downsample/Conv");
  CHECK(w.layer(1).vector_ops == 512);
  CHECK(w.layer(1).inputs == std::vector<memplace::InputEdge>{{0, 256}});
  CHECK(w.layer(1).external_input_bytes == 256);
}

TEST_CASE("onnx import: the erf GELU chain is one elementwise layer") {
  ModelBuilder m;
  m.input("x", {1, 4, 16});
  m.weight("w1", {16, 32});
  m.weight("b1", {32});
  m.weight("w2", {32, 16});
  m.node("MatMul", {"x", "w1"}, {"h"}, "/ffn/up/MatMul");
  m.node("Add", {"b1", "h"}, {"hb"}, "/ffn/up/Add");
  m.scalar("sqrt2", 1.4142135f);
  m.scalar("one", 1.0f);
  m.scalar("half", 0.5f);
  m.node("Div", {"hb", "sqrt2"}, {"d"}, "/ffn/Div");
  m.node("Erf", {"d"}, {"e"}, "/ffn/Erf");
  m.node("Add", {"e", "one"}, {"e1"}, "/ffn/Add_1");
  m.node("Mul", {"hb", "e1"}, {"p"}, "/ffn/Mul");
  m.node("Mul", {"p", "half"}, {"g"}, "/ffn/Mul_1");
  m.node("MatMul", {"g", "w2"}, {"y"}, "/ffn/down/MatMul");
  m.output("y");

  const Workload w = m.import("gelu.onnx");
  REQUIRE(w.size() == 4);
  CHECK(w.layer(0).op == OpKind::matmul);
  CHECK(w.layer(0).macs == 4 * 32 * 16);
  CHECK(w.layer(0).weight_bytes == 512);
  CHECK(w.layer(1).op == OpKind::elementwise);  // the bias Add stays a layer
  CHECK(w.layer(1).weight_bytes == 32);
  const auto& gelu = w.layer(2);
  CHECK(gelu.name == "ffn/Gelu");
  CHECK(gelu.op == OpKind::elementwise);
  CHECK(gelu.vector_ops == 5 * 128);  // five ops per element; the scalars are immediates
  CHECK(gelu.weight_bytes == 0);
  CHECK(gelu.inputs == std::vector<memplace::InputEdge>{{1, 128}});
  CHECK(w.layer(3).inputs == std::vector<memplace::InputEdge>{{2, 128}});

  ImportOptions coarse;
  coarse.fusion = FusionPreset::coarse;
  const Workload c = m.import("gelu.onnx", coarse);
  CHECK(c.size() == 2);  // bias Add and GELU fold into the first MatMul
  CHECK(c.layer(0).vector_ops == 128 + 5 * 128);
  CHECK(c.total_macs() == w.total_macs());
}

TEST_CASE("onnx import: a decomposed LayerNorm is one norm layer") {
  ModelBuilder m;
  m.input("x", {1, 4, 8});
  m.scalar("two", 2.0f);
  m.scalar("eps", 1e-5f);
  m.weight("gamma", {8});
  m.weight("beta", {8});
  m.weight("w", {8, 8});
  auto& mean = m.node("ReduceMean", {"x"}, {"mu"}, "/ln/ReduceMean");
  ModelBuilder::ints_attribute(mean, "axes", {-1});
  m.node("Sub", {"x", "mu"}, {"d"});
  m.node("Pow", {"d", "two"}, {"d2"});
  auto& var = m.node("ReduceMean", {"d2"}, {"v"});
  ModelBuilder::ints_attribute(var, "axes", {-1});
  m.node("Add", {"v", "eps"}, {"ve"});
  m.node("Sqrt", {"ve"}, {"s"});
  m.node("Div", {"d", "s"}, {"n"});
  m.node("Mul", {"n", "gamma"}, {"ng"});
  m.node("Add", {"ng", "beta"}, {"ln"});
  m.node("MatMul", {"ln", "w"}, {"y"});
  m.output("y");

  const Workload w = m.import("layernorm.onnx");
  REQUIRE(w.size() == 2);
  CHECK(w.layer(0).name == "ln/LayerNorm");
  CHECK(w.layer(0).op == OpKind::norm);
  CHECK(w.layer(0).weight_bytes == 16);
  // ReduceMean 32 + Sub 32 + Pow 32 + ReduceMean 32 + Add 4 + Sqrt 4 + Div 32 + Mul 32 + Add 32.
  CHECK(w.layer(0).vector_ops == 232);
  CHECK(w.layer(1).macs == 4 * 8 * 8);
}

TEST_CASE("onnx import: an embedding Gather reads only the gathered rows") {
  ModelBuilder m;
  m.input("ids", {1, 5}, onnx::TensorProto::INT64);
  m.weight("table", {1000, 8});
  m.node("Gather", {"table", "ids"}, {"e"}, "/embeddings/word/Gather");
  m.output("e");
  const Workload w = m.import("embedding.onnx");
  REQUIRE(w.size() == 1);
  const auto& l = w.layer(0);
  CHECK(l.op == OpKind::embedding);
  CHECK(l.weight_bytes == 8000);        // the whole table is resident
  CHECK(l.weight_traffic_bytes == 40);  // 5 rows of 8 are read
  CHECK(l.output_bytes == 40);
  CHECK(l.external_input_bytes == 5);
}

TEST_CASE("onnx import: shape arithmetic and constants and identities disappear") {
  ModelBuilder m;
  m.input("x", {2, 3, 4});
  m.ints("zero", {0});
  m.ints("minus_one", {-1});
  m.node("Shape", {"x"}, {"shape"});
  auto& first = m.node("Gather", {"shape", "zero"}, {"batch"});
  ModelBuilder::int_attribute(first, "axis", 0);
  auto& cat = m.node("Concat", {"batch", "minus_one"}, {"target"});
  ModelBuilder::int_attribute(cat, "axis", 0);
  ModelBuilder::int_attribute(m.node("Cast", {"target"}, {"target64"}), "to", 7);
  m.node("Identity", {"x"}, {"xi"});
  m.node("Reshape", {"xi", "target64"}, {"r"}, "/flatten/Reshape");
  m.node("Relu", {"r"}, {"y"}, "/act/Relu");
  m.output("y");

  const Workload w = m.import("shape_arithmetic.onnx");
  REQUIRE(w.size() == 2);
  CHECK(w.layer(0).name == "flatten/Reshape");
  CHECK(w.layer(0).op == OpKind::other);
  CHECK(w.layer(0).weight_bytes == 0);  // the shape operand is a parameter, not a weight
  CHECK(w.layer(0).external_input_bytes == 24);
  CHECK(w.layer(0).output_bytes == 24);
  CHECK(w.layer(1).vector_ops == 24);
  CHECK(w.layer(1).inputs == std::vector<memplace::InputEdge>{{0, 24}});
}

TEST_CASE("onnx import: a group == channels conv is depthwise and a Pad joins its pool") {
  ModelBuilder m;
  m.input("x", {1, 8, 6, 6});
  m.weight("w", {8, 1, 3, 3});
  auto& conv = m.node("Conv", {"x", "w"}, {"c"}, "/dw/Conv");
  ModelBuilder::int_attribute(conv, "group", 8);
  ModelBuilder::ints_attribute(conv, "pads", {1, 1, 1, 1});
  m.ints("pads", {0, 0, 1, 1, 0, 0, 1, 1});
  m.node("Pad", {"c", "pads"}, {"p"});
  auto& pool = m.node("AveragePool", {"p"}, {"y"}, "/pool/AveragePool");
  ModelBuilder::ints_attribute(pool, "kernel_shape", {3, 3});
  m.output("y");
  const Workload w = m.import("depthwise.onnx");
  REQUIRE(w.size() == 2);
  CHECK(w.layer(0).op == OpKind::depthwise_conv);
  CHECK(w.layer(0).macs == 288 * 9);
  CHECK(w.layer(1).name == "pool/AveragePool");
  CHECK(w.layer(1).vector_ops == 288 * 9);
  CHECK(w.layer(1).inputs == std::vector<memplace::InputEdge>{{0, 288}});
}

TEST_CASE("onnx import: malformed files throw InputError naming the file") {
  const auto dir = scratch_dir();
  const auto empty = dir / "empty.onnx";
  write_bytes(empty, "");
  CHECK(contains(error_of(empty), empty.string()));
  CHECK(contains(error_of(empty), "empty"));

  std::ifstream in(kRoot / "workloads/onnx/resnet50.onnx", std::ios::binary);
  const std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(whole.size() > 1000);
  for (std::size_t cut : {whole.size() / 2, whole.size() - 7, std::size_t{100}, std::size_t{3}}) {
    const auto truncated = dir / "truncated.onnx";
    write_bytes(truncated, whole.substr(0, cut));
    CAPTURE(cut);
    CHECK(contains(error_of(truncated), truncated.string()));
  }

  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    std::string garbage(1 + rng() % 4096, '\0');
    for (char& c : garbage)
      c = static_cast<char>(rng());
    const auto path = dir / "garbage.onnx";
    write_bytes(path, garbage);
    CAPTURE(trial);
    CHECK(contains(error_of(path), path.string()));
  }

  const auto text = dir / "model.yaml.onnx";
  write_bytes(text, "name: resnet50\nlayers: []\n");
  CHECK(contains(error_of(text), text.string()));

  CHECK(contains(error_of(dir / "does-not-exist.onnx"), "does-not-exist.onnx"));
}

TEST_CASE("onnx import: unsupported ops and unknown shapes name the node") {
  ModelBuilder custom;
  custom.input("x", {1, 8});
  custom.node("FancyOp", {"x"}, {"y"}, "/head/FancyOp");
  custom.output("y");
  const auto path = custom.save("unsupported.onnx");
  const std::string message = error_of(path);
  CHECK(contains(message, path.string()));
  CHECK(contains(message, "/head/FancyOp"));
  CHECK(contains(message, "unsupported op"));

  ModelBuilder dynamic;
  dynamic.symbolic_input("x");
  dynamic.node("Relu", {"x"}, {"y"}, "/act/Relu");
  dynamic.output("y");
  const std::string shape_message = error_of(dynamic.save("symbolic.onnx"));
  CHECK(contains(shape_message, "/act/Relu"));
  CHECK(contains(shape_message, "static shape"));
  // The dimension is named first: the tensors are only where it surfaced.
  CHECK(contains(shape_message, "the symbolic dim 'batch' (input 'x') has no value"));
  CHECK(contains(shape_message, "--dim NAME=VALUE"));
  ImportOptions batch_one;
  batch_one.dynamic_dim = 1;
  const Workload fixed = dynamic.import("symbolic.onnx", batch_one);
  CHECK(fixed.layer(0).output_bytes == 8);  // "batch" x 8 with batch = 1

  ModelBuilder dangling;
  dangling.input("x", {1, 8});
  dangling.node("Add", {"x", "nowhere"}, {"y"}, "/add");
  dangling.output("y");
  CHECK(contains(error_of(dangling.save("dangling.onnx")), "nowhere"));
}

TEST_CASE("onnx import: a zero stride, group or block size is refused, naming the node") {
  // libonnx's shape inference divides by these: a zero stride crashed the importer with SIGFPE
  // (found by fuzzing; fuzz/regressions/onnx_model).
  struct Case {
    std::string op, key;
    bool list;
  };
  for (const Case& c : {Case{"Conv", "strides", true}, Case{"Conv", "dilations", true},
                        Case{"Conv", "group", false}, Case{"SpaceToDepth", "blocksize", false}}) {
    CAPTURE(c.key);
    ModelBuilder m;
    m.input("x", {1, 4, 8, 8});
    if (c.op == "Conv") {
      conv3x3(m, "x", "w", "y", 4, 4, "/bad/Conv");
    } else {
      m.node(c.op, {"x"}, {"y"}, "/bad/" + c.op);
    }
    m.output("y");
    if (c.list) {
      ModelBuilder::ints_attribute(m.last_node(), c.key, {1, 0});
    } else {
      ModelBuilder::int_attribute(m.last_node(), c.key, 0);
    }
    const std::string message = error_of(m.save("zero.onnx"));
    CHECK(contains(message, "/bad/" + c.op));
    CHECK(contains(message, "attribute " + c.key + ": every value must be at least 1"));
  }
}

TEST_CASE("onnx import: a node without an output is refused, naming the node") {
  // A Conv whose only output name was empty reached the fusion passes, which read a node's first
  // output (found by fuzzing; fuzz/regressions/onnx_model/conv-without-output.onnx).
  ModelBuilder m;
  m.input("x", {1, 4, 8, 8});
  m.node("Relu", {"x"}, {"y"}, "/act/Relu");
  conv3x3(m, "x", "w", "", 4, 4, "/lost/Conv");
  m.output("y");
  const std::string message = error_of(m.save("no-output.onnx"));
  CHECK(contains(message, "/lost/Conv"));
  CHECK(contains(message, "no output"));
}

TEST_CASE("onnx import: named dims give the shapes, static inputs are read as weights") {
  // A decode step in miniature: x [batch, 1, 4] attends over a cache [batch, kv_length, 4].
  ModelBuilder m;
  m.named_input("x", {"batch", "1", "4"});
  m.named_input("past_key", {"batch", "kv_length", "4"});
  m.named_input("past_value", {"batch", "kv_length", "4"});
  auto& t = m.node("Transpose", {"past_key"}, {"kT"}, "/attn/Transpose");
  ModelBuilder::ints_attribute(t, "perm", {0, 2, 1});
  m.node("MatMul", {"x", "kT"}, {"scores"}, "/attn/scores");
  m.node("Softmax", {"scores"}, {"probs"}, "/attn/Softmax");
  m.node("MatMul", {"probs", "past_value"}, {"y"}, "/attn/values");
  m.output("y");
  const auto path = m.save("decode.onnx");

  ImportOptions options;
  options.dims = {{"batch", 2}, {"kv_length", 16}};
  options.static_inputs = {"past_*"};
  options.fusion = FusionPreset::none;
  const Workload w = memplace::import_onnx(path, options);
  // The cache is the weight of the layer that reads it: 2 x 16 x 4 elements each.
  std::int64_t cache = 0;
  for (const auto& layer : w.layers())
    cache += layer.weight_bytes;
  CHECK(cache == 2 * (2 * 16 * 4));
  CHECK(w.total_macs() == 2 * (2 * 1 * 4 * 16));  // scores and values, at batch 2
  // The inputs that stay inputs are read from outside the graph: x alone.
  std::int64_t external = 0;
  for (const auto& layer : w.layers())
    external += layer.external_input_bytes;
  CHECK(external == 2 * 1 * 4);

  // Without the cache as data, it is an input like x.
  options.static_inputs.clear();
  const Workload inputs = memplace::import_onnx(path, options);
  std::int64_t weights = 0;
  for (const auto& layer : inputs.layers())
    weights += layer.weight_bytes;
  CHECK(weights == 0);

  // Bad dims and patterns name themselves.
  auto message = [&](ImportOptions o) {
    try {
      memplace::import_onnx(path, o);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  ImportOptions bad = options;
  bad.dims["sequence"] = 4;
  CHECK(contains(message(bad), "no graph input has a dim named 'sequence'"));
  CHECK(contains(message(bad), "named dims: batch, kv_length"));
  bad = options;
  bad.dims["batch"] = 0;
  CHECK(contains(message(bad), "dim batch: must be at least 1"));
  bad = options;
  bad.static_inputs = {"cache_*"};
  CHECK(contains(message(bad), "no graph input matches the static input 'cache_*'"));
  bad = options;
  bad.dims.erase("kv_length");
  bad.static_inputs = {"past_key"};
  CHECK(contains(message(bad), "static input 'past_key': dim 'kv_length' has no value"));
  CHECK(memplace::onnx_import::matches_pattern("past_*_3", "past_key_3"));
  CHECK_FALSE(memplace::onnx_import::matches_pattern("past_*_3", "past_key_13x"));
  CHECK(memplace::onnx_import::matches_pattern("*", "anything"));
}

TEST_CASE("onnx import: shape computations shape inference cannot follow are folded") {
  // y = Reshape(x, [2 * batch, 8 / 2]) with the target computed as torchvision's exports do it,
  // through Cast, a float Mul and Div; then a Pad whose amounts go through Transpose and Slice.
  ModelBuilder m;
  m.named_input("x", {"batch", "8"});
  m.node("Shape", {"x"}, {"shape"});
  m.ints("zero", {0});
  m.ints("one", {1});
  m.node("Gather", {"shape", "zero"}, {"b"});
  auto& to_float = m.node("Cast", {"b"}, {"bf"});
  ModelBuilder::int_attribute(to_float, "to", onnx::TensorProto::FLOAT);
  m.scalar("two_f", 2.0f);
  m.node("Mul", {"bf", "two_f"}, {"b2f"});
  auto& to_int = m.node("Cast", {"b2f"}, {"b2"});
  ModelBuilder::int_attribute(to_int, "to", onnx::TensorProto::INT64);
  m.node("Gather", {"shape", "one"}, {"width"});
  m.ints("two", {2});
  m.node("Div", {"width", "two"}, {"half"});
  auto& join = m.node("Concat", {"b2", "half"}, {"target"});
  ModelBuilder::int_attribute(join, "axis", 0);
  m.node("Reshape", {"x", "target"}, {"y"});
  // pads = Slice(Transpose([[0, 0], [1, 3]]), ...) flattened: [0, 1, 0, 3].
  m.ints("pad_pairs", {0, 0, 1, 3});
  m.ints("pair_shape", {2, 2});
  m.node("Reshape", {"pad_pairs", "pair_shape"}, {"pairs"});
  auto& t = m.node("Transpose", {"pairs"}, {"columns"});
  ModelBuilder::ints_attribute(t, "perm", {1, 0});
  m.ints("flat", {4});
  m.node("Reshape", {"columns", "flat"}, {"pads"});
  m.node("Pad", {"y", "pads"}, {"padded"}, "/pad/Pad");
  m.node("Relu", {"padded"}, {"out"}, "/act/Relu");
  m.output("out");
  ImportOptions options;
  options.dims = {{"batch", 3}};
  options.fusion = FusionPreset::none;
  const Workload w = m.import("folding.onnx", options);
  // Pad: [6, 4] -> [6 + 0 + 0, 4 + 1 + 3] = [6, 8], read by the Relu.
  CHECK(w.layer(w.size() - 1).output_bytes == 6 * 8);
}

TEST_CASE("onnx import: shipped workloads hit the paper node counts and MACs") {
  struct Target {
    const char* name;
    std::size_t layers;
    std::size_t tolerance;
    double gmacs;  // published figure; 0 = not checked
  };
  const Target targets[] = {
      {"resnet50", 57, 2, 4.09},
      {"resnet101", 108, 2, 7.80},
      {"bert-base", 376, 10, 11.2},
      {"mobilenet-v2", 55, 0, 0.300},
      {"inception-v3", 121, 0, 5.71},
      {"gpt2-small", 328, 0, 0.0},
      {"transformer-decoder", 312, 0, 0.0},
  };
  for (const Target& t : targets) {
    CAPTURE(t.name);
    const Workload w = Workload::load(kRoot / "workloads" / (std::string(t.name) + ".yaml"));
    CHECK(w.name() == t.name);
    CHECK(w.size() + t.tolerance >= t.layers);
    CHECK(w.size() <= t.layers + t.tolerance);
    if (t.gmacs > 0) {
      const double gmacs = static_cast<double>(w.total_macs()) / 1e9;
      CHECK(gmacs == doctest::Approx(t.gmacs).epsilon(0.02));
    }
  }
}

TEST_CASE("onnx import: re-importing the fixtures reproduces the committed YAML (golden)") {
  const auto& shipped = memplace::shipped_workloads();
  for (std::size_t i = 0; i < shipped.size(); ++i) {
    if (!memplace::testing::in_sample(i)) continue;
    const memplace::ShippedWorkload& s = shipped[i];
    CAPTURE(s.name);
    const Workload committed = Workload::load(kRoot / "workloads" / (s.name + ".yaml"));
    const Workload imported = memplace::import_shipped(kRoot, s);
    CHECK(imported.info() == committed.info());
    CHECK(first_difference(imported, committed) == "none");
    CHECK(imported == committed);
  }
}

TEST_CASE("onnx import: re-importing a suite's fixtures reproduces its committed workloads") {
  for (const std::string& name : memplace::embedded_suite_names()) {
    const memplace::Suite suite = memplace::load_suite(name);
    for (std::size_t i = 0; i < suite.workloads.size(); ++i) {
      if (!memplace::testing::in_sample(i)) continue;
      const memplace::SuiteWorkload& w = suite.workloads[i];
      CAPTURE(w.name);
      const Workload committed =
          Workload::load(kRoot / "workloads" / "suite" / "workloads" / (w.name + ".yaml"));
      const Workload imported = memplace::import_suite_workload(kRoot, suite, w);
      CHECK(imported.info() == committed.info());
      CHECK(first_difference(imported, committed) == "none");
      // And the embedded copy is that file (the library was built from the committed one).
      CHECK(memplace::load_workload(w.name) == committed);
    }
  }
}

TEST_CASE("onnx import: presets change the granularity but never the totals") {
  const auto path = kRoot / "workloads/onnx/bert-base.onnx";
  std::vector<Workload> by_preset;
  for (FusionPreset p : {FusionPreset::none, FusionPreset::standard, FusionPreset::coarse}) {
    ImportOptions options;
    options.fusion = p;
    by_preset.push_back(memplace::import_onnx(path, options));
  }
  CHECK(by_preset[0].size() > by_preset[1].size());
  CHECK(by_preset[1].size() > by_preset[2].size());
  CHECK(by_preset[0].size() == 422);  // op level: every node that computes on run-time data
  for (const Workload& w : by_preset) {
    CHECK(w.total_macs() == by_preset[1].total_macs());
    CHECK(w.total_weight_bytes() == by_preset[1].total_weight_bytes());
  }
  CHECK(memplace::fusion_preset_from_name("coarse") == FusionPreset::coarse);
  CHECK(memplace::fusion_preset_name(FusionPreset::none) == "none");
  CHECK_FALSE(memplace::fusion_preset_from_name("fine").has_value());
}
