#include "workloads/tools/shape_folding.hpp"

#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "base/errors.hpp"

namespace memplace::onnx_import {

namespace {

// Larger tensors are never shape computations: they are left to the importer.
constexpr std::size_t kMaxElements = 1 << 16;
constexpr int kMaxRounds = 200;

// A small tensor's value: its element type (an onnx::TensorProto::DataType), dims and elements
// (every type held as double: exact for the integers of shapes and indices).
struct Value {
  int type = onnx::TensorProto::INT64;
  std::vector<std::int64_t> dims;
  std::vector<double> data;

  std::size_t size() const { return data.size(); }
  std::int64_t integer(std::size_t i) const { return static_cast<std::int64_t>(data[i]); }
};

using Values = std::unordered_map<std::string, Value>;

std::size_t element_count(const std::vector<std::int64_t>& dims) {
  std::size_t n = 1;
  for (std::int64_t d : dims) {
    if (d < 0) return kMaxElements + 1;
    n *= static_cast<std::size_t>(d);
    if (n > kMaxElements) return kMaxElements + 1;
  }
  return n;
}

bool is_integer_type(int type) {
  return type == onnx::TensorProto::INT64 || type == onnx::TensorProto::INT32 ||
         type == onnx::TensorProto::INT16 || type == onnx::TensorProto::INT8 ||
         type == onnx::TensorProto::UINT8 || type == onnx::TensorProto::BOOL;
}

// Rounds to the element type: integers truncate toward zero, as a C cast does.
double to_type(double x, int type) {
  if (type == onnx::TensorProto::BOOL) return x != 0 ? 1 : 0;
  if (is_integer_type(type)) return std::trunc(x);
  if (type == onnx::TensorProto::FLOAT) return static_cast<float>(x);
  return x;
}

// The value stored in a tensor, if it has data of a type this pass computes with.
std::optional<Value> read_tensor(const onnx::TensorProto& t) {
  Value v;
  v.type = t.data_type();
  v.dims.assign(t.dims().begin(), t.dims().end());
  const std::size_t n = element_count(v.dims);
  if (n > kMaxElements) return std::nullopt;
  const std::string& raw = t.raw_data();
  auto from_raw = [&](auto sample) -> bool {
    using T = decltype(sample);
    if (raw.size() != n * sizeof(T)) return false;
    for (std::size_t i = 0; i < n; ++i) {
      T x;
      std::memcpy(&x, raw.data() + i * sizeof(T), sizeof(T));
      v.data.push_back(static_cast<double>(x));
    }
    return true;
  };
  bool ok = false;
  switch (t.data_type()) {
    case onnx::TensorProto::INT64:
      ok = !raw.empty() ? from_raw(std::int64_t{})
                        : static_cast<std::size_t>(t.int64_data_size()) == n;
      if (raw.empty() && ok)
        for (std::int64_t x : t.int64_data())
          v.data.push_back(static_cast<double>(x));
      break;
    case onnx::TensorProto::INT32:
    case onnx::TensorProto::BOOL:
      ok = !raw.empty() ? (t.data_type() == onnx::TensorProto::BOOL ? from_raw(std::uint8_t{})
                                                                    : from_raw(std::int32_t{}))
                        : static_cast<std::size_t>(t.int32_data_size()) == n;
      if (raw.empty() && ok)
        for (std::int32_t x : t.int32_data())
          v.data.push_back(x);
      break;
    case onnx::TensorProto::FLOAT:
      ok = !raw.empty() ? from_raw(float{}) : static_cast<std::size_t>(t.float_data_size()) == n;
      if (raw.empty() && ok)
        for (float x : t.float_data())
          v.data.push_back(x);
      break;
    case onnx::TensorProto::DOUBLE:
      ok = !raw.empty() ? from_raw(double{}) : static_cast<std::size_t>(t.double_data_size()) == n;
      if (raw.empty() && ok)
        for (double x : t.double_data())
          v.data.push_back(x);
      break;
    default:
      break;
  }
  if (!ok) return std::nullopt;
  return v;
}

onnx::TensorProto write_tensor(const Value& v, const std::string& name) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(v.type);
  for (std::int64_t d : v.dims)
    t.add_dims(d);
  for (double x : v.data) {
    switch (v.type) {
      case onnx::TensorProto::INT64:
        t.add_int64_data(static_cast<std::int64_t>(x));
        break;
      case onnx::TensorProto::DOUBLE:
        t.add_double_data(x);
        break;
      case onnx::TensorProto::FLOAT:
        t.add_float_data(static_cast<float>(x));
        break;
      default:  // INT32, BOOL and the small integer types
        t.add_int32_data(static_cast<std::int32_t>(x));
        break;
    }
  }
  return t;
}

const onnx::AttributeProto* attribute(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& a : node.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

std::int64_t int_attribute(const onnx::NodeProto& node, const std::string& name,
                           std::int64_t fallback) {
  const auto* a = attribute(node, name);
  return a ? a->i() : fallback;
}

std::optional<Value> constant_value(const onnx::NodeProto& node) {
  for (const auto& a : node.attribute()) {
    Value v;
    if (a.name() == "value" && a.has_t()) return read_tensor(a.t());
    if (a.name() == "value_int") {
      v.data = {static_cast<double>(a.i())};
      return v;
    }
    if (a.name() == "value_ints") {
      v.dims = {a.ints_size()};
      for (std::int64_t x : a.ints())
        v.data.push_back(static_cast<double>(x));
      return v;
    }
    v.type = onnx::TensorProto::FLOAT;
    if (a.name() == "value_float") {
      v.data = {a.f()};
      return v;
    }
    if (a.name() == "value_floats") {
      v.dims = {a.floats_size()};
      for (float x : a.floats())
        v.data.push_back(x);
      return v;
    }
  }
  return std::nullopt;
}

// Row-major strides of `dims`.
std::vector<std::size_t> strides(const std::vector<std::int64_t>& dims) {
  std::vector<std::size_t> s(dims.size(), 1);
  for (std::size_t i = dims.size(); i-- > 1;)
    s[i - 1] = s[i] * static_cast<std::size_t>(dims[i]);
  return s;
}

// Numpy broadcasting of several shapes; nullopt if they do not broadcast.
std::optional<std::vector<std::int64_t>> broadcast_dims(const std::vector<const Value*>& in) {
  std::size_t rank = 0;
  for (const Value* v : in)
    rank = std::max(rank, v->dims.size());
  std::vector<std::int64_t> out(rank, 1);
  for (const Value* v : in) {
    const std::size_t offset = rank - v->dims.size();
    for (std::size_t i = 0; i < v->dims.size(); ++i) {
      const std::int64_t d = v->dims[i];
      std::int64_t& o = out[offset + i];
      if (d == o || d == 1) continue;
      if (o != 1) return std::nullopt;
      o = d;
    }
  }
  return out;
}

// Element `flat` of `out_dims` read from `v` under broadcasting.
double broadcast_at(const Value& v, const std::vector<std::int64_t>& out_dims, std::size_t flat) {
  const std::vector<std::size_t> out_strides = strides(out_dims);
  const std::vector<std::size_t> in_strides = strides(v.dims);
  const std::size_t offset = out_dims.size() - v.dims.size();
  std::size_t index = 0;
  for (std::size_t i = 0; i < v.dims.size(); ++i) {
    const std::size_t coordinate =
        flat / out_strides[offset + i] % static_cast<std::size_t>(out_dims[offset + i]);
    if (v.dims[i] != 1) index += coordinate * in_strides[i];
  }
  return v.data[index];
}

std::optional<Value> elementwise(const std::vector<const Value*>& in, int type,
                                 const std::function<double(const std::vector<double>&)>& f) {
  const auto dims = broadcast_dims(in);
  if (!dims || element_count(*dims) > kMaxElements) return std::nullopt;
  Value out;
  out.type = type;
  out.dims = *dims;
  const std::size_t n = element_count(*dims);
  std::vector<double> args(in.size());
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < in.size(); ++k)
      args[k] = broadcast_at(*in[k], *dims, i);
    out.data.push_back(to_type(f(args), type));
  }
  return out;
}

std::int64_t normalised_axis(std::int64_t axis, std::size_t rank) {
  return axis < 0 ? axis + static_cast<std::int64_t>(rank) : axis;
}

// The node's value from its inputs' values (`in`, null for an input not known) and shapes.
class Evaluator {
 public:
  Evaluator(const onnx::NodeProto& node, std::vector<const Value*> in,
            const std::vector<std::int64_t>* first_input_shape)
      : node_(node), in_(std::move(in)), shape_(first_input_shape) {}

  std::optional<Value> run() const {
    const std::string& op = node_.op_type();
    if (op == "Shape") return shape_of();
    if (op == "Size") return size_of();
    for (const Value* v : in_)
      if (v == nullptr) return std::nullopt;
    if (in_.empty()) return std::nullopt;
    if (op == "Identity") return *in_[0];
    if (op == "Cast") return cast();
    if (op == "Gather") return gather();
    if (op == "Unsqueeze") return unsqueeze();
    if (op == "Squeeze") return squeeze();
    if (op == "Concat") return concat();
    if (op == "Slice") return slice();
    if (op == "Range") return range();
    if (op == "Reshape") return reshape();
    if (op == "Transpose") return transpose();
    if (op == "ConstantOfShape") return constant_of_shape();
    if (op == "Expand") return expand();
    if (op == "Where")
      return elementwise(in_, in_[1]->type, [](auto& a) { return a[0] != 0 ? a[1] : a[2]; });
    if (op == "ReduceProd" || op == "ReduceSum" || op == "ReduceMin" || op == "ReduceMax")
      return reduce(op);
    if (auto unary = unary_op(op)) return elementwise(in_, in_[0]->type, *unary);
    return binary(op);
  }

 private:
  std::optional<Value> shape_of() const {
    if (shape_ == nullptr) return std::nullopt;
    const auto rank = static_cast<std::int64_t>(shape_->size());
    std::int64_t start = normalised_axis(int_attribute(node_, "start", 0), shape_->size());
    std::int64_t end = attribute(node_, "end") ? int_attribute(node_, "end", rank) : rank;
    end = normalised_axis(end, shape_->size());
    start = std::clamp<std::int64_t>(start, 0, rank);
    end = std::clamp<std::int64_t>(end, start, rank);
    Value v;
    for (std::int64_t i = start; i < end; ++i)
      v.data.push_back(static_cast<double>((*shape_)[static_cast<std::size_t>(i)]));
    v.dims = {end - start};
    return v;
  }

  std::optional<Value> size_of() const {
    if (shape_ == nullptr) return std::nullopt;
    double n = 1;
    for (std::int64_t d : *shape_)
      n *= static_cast<double>(d);
    Value v;
    v.data = {n};
    return v;
  }

  std::optional<Value> cast() const {
    Value v = *in_[0];
    v.type = static_cast<int>(int_attribute(node_, "to", v.type));
    for (double& x : v.data)
      x = to_type(x, v.type);
    return v;
  }

  std::optional<Value> gather() const {
    const Value& data = *in_[0];
    const Value& indices = *in_[1];
    if (data.dims.empty()) return std::nullopt;
    const auto axis = static_cast<std::size_t>(
        normalised_axis(int_attribute(node_, "axis", 0), data.dims.size()));
    if (axis >= data.dims.size()) return std::nullopt;
    Value out;
    out.type = data.type;
    out.dims.assign(data.dims.begin(), data.dims.begin() + static_cast<std::ptrdiff_t>(axis));
    out.dims.insert(out.dims.end(), indices.dims.begin(), indices.dims.end());
    out.dims.insert(out.dims.end(), data.dims.begin() + static_cast<std::ptrdiff_t>(axis) + 1,
                    data.dims.end());
    if (element_count(out.dims) > kMaxElements) return std::nullopt;
    const std::size_t outer = element_count(
        std::vector<std::int64_t>(data.dims.begin(), data.dims.begin() + static_cast<long>(axis)));
    const std::size_t inner = element_count(std::vector<std::int64_t>(
        data.dims.begin() + static_cast<long>(axis) + 1, data.dims.end()));
    const std::int64_t extent = data.dims[axis];
    for (std::size_t o = 0; o < outer; ++o)
      for (std::size_t k = 0; k < indices.size(); ++k) {
        std::int64_t index = indices.integer(k);
        if (index < 0) index += extent;
        if (index < 0 || index >= extent) return std::nullopt;
        for (std::size_t i = 0; i < inner; ++i)
          out.data.push_back(
              data.data[(o * static_cast<std::size_t>(extent) + static_cast<std::size_t>(index)) *
                            inner +
                        i]);
      }
    return out;
  }

  // Axes from the second input (opset 13) or the attribute (earlier opsets).
  std::vector<std::int64_t> axes() const {
    std::vector<std::int64_t> a;
    if (in_.size() > 1)
      for (std::size_t i = 0; i < in_[1]->size(); ++i)
        a.push_back(in_[1]->integer(i));
    else if (const auto* attr = attribute(node_, "axes"))
      a.assign(attr->ints().begin(), attr->ints().end());
    return a;
  }

  std::optional<Value> unsqueeze() const {
    Value v = *in_[0];
    std::vector<std::int64_t> a = axes();
    const std::size_t rank = v.dims.size() + a.size();
    for (std::int64_t& x : a)
      x = normalised_axis(x, rank);
    std::sort(a.begin(), a.end());
    for (std::int64_t x : a) {
      if (x < 0 || x > static_cast<std::int64_t>(v.dims.size())) return std::nullopt;
      v.dims.insert(v.dims.begin() + x, 1);
    }
    return v;
  }

  std::optional<Value> squeeze() const {
    Value v = *in_[0];
    std::vector<std::int64_t> a = axes();
    std::vector<std::int64_t> dims;
    for (std::size_t i = 0; i < v.dims.size(); ++i) {
      const bool listed =
          a.empty() ? v.dims[i] == 1 : std::any_of(a.begin(), a.end(), [&](std::int64_t x) {
            return normalised_axis(x, v.dims.size()) == static_cast<std::int64_t>(i);
          });
      if (!listed) dims.push_back(v.dims[i]);
    }
    v.dims = dims;
    return v;
  }

  std::optional<Value> concat() const {
    const std::size_t rank = in_[0]->dims.size();
    const auto axis =
        static_cast<std::size_t>(normalised_axis(int_attribute(node_, "axis", 0), rank));
    if (axis >= rank) return std::nullopt;
    Value out;
    out.type = in_[0]->type;
    out.dims = in_[0]->dims;
    out.dims[axis] = 0;
    for (const Value* v : in_) {
      if (v->dims.size() != rank) return std::nullopt;
      out.dims[axis] += v->dims[axis];
    }
    if (element_count(out.dims) > kMaxElements) return std::nullopt;
    const std::size_t outer = element_count(
        std::vector<std::int64_t>(out.dims.begin(), out.dims.begin() + static_cast<long>(axis)));
    for (std::size_t o = 0; o < outer; ++o)
      for (const Value* v : in_) {
        const std::size_t chunk = v->size() / std::max<std::size_t>(outer, 1);
        for (std::size_t i = 0; i < chunk; ++i)
          out.data.push_back(v->data[o * chunk + i]);
      }
    return out;
  }

  std::optional<Value> slice() const {
    const Value& data = *in_[0];
    const std::size_t rank = data.dims.size();
    if (in_.size() < 3) return std::nullopt;
    std::vector<std::int64_t> begin(rank, 0), step(rank, 1), end(data.dims);
    for (std::size_t k = 0; k < in_[1]->size(); ++k) {
      const auto axis =
          static_cast<std::size_t>(in_.size() > 3 ? normalised_axis(in_[3]->integer(k), rank)
                                                  : static_cast<std::int64_t>(k));
      if (axis >= rank) return std::nullopt;
      const std::int64_t extent = data.dims[axis];
      const std::int64_t s = in_.size() > 4 ? in_[4]->integer(k) : 1;
      if (s == 0) return std::nullopt;
      // Negative bounds count from the end; bounds past it (INT64_MAX: "to the end") clamp.
      auto bound = [&](double raw) {
        auto x = static_cast<std::int64_t>(std::clamp(raw, -4.0e15, 4.0e15));
        if (x < 0) x += extent;
        return s > 0 ? std::clamp<std::int64_t>(x, 0, extent)
                     : std::clamp<std::int64_t>(x, -1, extent - 1);
      };
      begin[axis] = bound(in_[1]->data[k]);
      end[axis] = bound(in_[2]->data[k]);
      step[axis] = s;
    }
    Value out;
    out.type = data.type;
    std::vector<std::vector<std::int64_t>> picks(rank);
    for (std::size_t a = 0; a < rank; ++a) {
      for (std::int64_t x = begin[a]; step[a] > 0 ? x < end[a] : x > end[a]; x += step[a])
        picks[a].push_back(x);
      out.dims.push_back(static_cast<std::int64_t>(picks[a].size()));
    }
    if (element_count(out.dims) > kMaxElements) return std::nullopt;
    const std::vector<std::size_t> in_strides = strides(data.dims);
    const std::size_t n = element_count(out.dims);
    const std::vector<std::size_t> out_strides = strides(out.dims);
    for (std::size_t flat = 0; flat < n; ++flat) {
      std::size_t index = 0;
      for (std::size_t a = 0; a < rank; ++a)
        index += static_cast<std::size_t>(
                     picks[a][flat / out_strides[a] % static_cast<std::size_t>(out.dims[a])]) *
                 in_strides[a];
      out.data.push_back(data.data[index]);
    }
    return out;
  }

  std::optional<Value> range() const {
    const double start = in_[0]->data.at(0), limit = in_[1]->data.at(0), delta = in_[2]->data.at(0);
    if (delta == 0) return std::nullopt;
    const double count = std::max(0.0, std::ceil((limit - start) / delta));
    if (count > static_cast<double>(kMaxElements)) return std::nullopt;
    Value out;
    out.type = in_[0]->type;
    out.dims = {static_cast<std::int64_t>(count)};
    for (std::int64_t i = 0; i < out.dims[0]; ++i)
      out.data.push_back(to_type(start + static_cast<double>(i) * delta, out.type));
    return out;
  }

  std::optional<Value> reshape() const {
    Value out = *in_[0];
    std::vector<std::int64_t> dims;
    std::int64_t known = 1, infer = -1;
    for (std::size_t i = 0; i < in_[1]->size(); ++i) {
      std::int64_t d = in_[1]->integer(i);
      if (d == 0 && int_attribute(node_, "allowzero", 0) == 0)
        d = i < out.dims.size() ? out.dims[i] : 0;
      if (d == -1)
        infer = static_cast<std::int64_t>(i);
      else
        known *= d;
      dims.push_back(d);
    }
    if (infer >= 0) {
      if (known == 0) return std::nullopt;
      dims[static_cast<std::size_t>(infer)] = static_cast<std::int64_t>(out.size()) / known;
    }
    if (element_count(dims) != out.size()) return std::nullopt;
    out.dims = dims;
    return out;
  }

  std::optional<Value> transpose() const {
    const Value& v = *in_[0];
    const std::size_t rank = v.dims.size();
    std::vector<std::int64_t> perm;
    if (const auto* a = attribute(node_, "perm"))
      perm.assign(a->ints().begin(), a->ints().end());
    else
      for (std::size_t i = rank; i-- > 0;)
        perm.push_back(static_cast<std::int64_t>(i));
    if (perm.size() != rank) return std::nullopt;
    Value out;
    out.type = v.type;
    for (std::int64_t p : perm) {
      if (p < 0 || p >= static_cast<std::int64_t>(rank)) return std::nullopt;
      out.dims.push_back(v.dims[static_cast<std::size_t>(p)]);
    }
    const std::vector<std::size_t> in_strides = strides(v.dims);
    const std::vector<std::size_t> out_strides = strides(out.dims);
    for (std::size_t flat = 0; flat < v.size(); ++flat) {
      std::size_t index = 0;
      for (std::size_t a = 0; a < rank; ++a)
        index += flat / out_strides[a] % static_cast<std::size_t>(out.dims[a]) *
                 in_strides[static_cast<std::size_t>(perm[a])];
      out.data.push_back(v.data[index]);
    }
    return out;
  }

  std::optional<Value> constant_of_shape() const {
    Value out;
    out.type = onnx::TensorProto::FLOAT;
    double fill = 0;
    if (const auto* a = attribute(node_, "value"); a && a->has_t()) {
      const auto v = read_tensor(a->t());
      if (!v || v->size() != 1) return std::nullopt;
      out.type = v->type;
      fill = v->data[0];
    }
    for (std::size_t i = 0; i < in_[0]->size(); ++i)
      out.dims.push_back(in_[0]->integer(i));
    const std::size_t n = element_count(out.dims);
    if (n > kMaxElements) return std::nullopt;
    out.data.assign(n, fill);
    return out;
  }

  std::optional<Value> expand() const {
    Value like;  // only its dims take part in the broadcast
    for (std::size_t i = 0; i < in_[1]->size(); ++i)
      like.dims.push_back(in_[1]->integer(i));
    const auto dims = broadcast_dims({in_[0], &like});
    if (!dims || element_count(*dims) > kMaxElements) return std::nullopt;
    Value out;
    out.type = in_[0]->type;
    out.dims = *dims;
    for (std::size_t i = 0; i < element_count(*dims); ++i)
      out.data.push_back(broadcast_at(*in_[0], *dims, i));
    return out;
  }

  std::optional<Value> reduce(const std::string& op) const {
    const Value& v = *in_[0];
    std::vector<std::int64_t> a = axes();
    for (std::int64_t& x : a)
      x = normalised_axis(x, v.dims.size());
    const bool all = a.empty() && int_attribute(node_, "noop_with_empty_axes", 0) == 0;
    if (!all && !a.empty()) {
      // Only whole reductions are shape computations here (a product of dims, say).
      if (a.size() != v.dims.size()) return std::nullopt;
    }
    if (a.empty() && !all) return v;
    double r = op == "ReduceProd" ? 1 : op == "ReduceSum" ? 0 : v.data.at(0);
    for (double x : v.data)
      r = op == "ReduceProd"  ? r * x
          : op == "ReduceSum" ? r + x
          : op == "ReduceMin" ? std::min(r, x)
                              : std::max(r, x);
    Value out;
    out.type = v.type;
    if (int_attribute(node_, "keepdims", 1) != 0) out.dims.assign(v.dims.size(), 1);
    out.data = {to_type(r, v.type)};
    return out;
  }

  static std::optional<std::function<double(const std::vector<double>&)>> unary_op(
      const std::string& op) {
    if (op == "Neg") return [](auto& a) { return -a[0]; };
    if (op == "Abs") return [](auto& a) { return std::fabs(a[0]); };
    if (op == "Floor") return [](auto& a) { return std::floor(a[0]); };
    if (op == "Ceil") return [](auto& a) { return std::ceil(a[0]); };
    if (op == "Sqrt") return [](auto& a) { return std::sqrt(a[0]); };
    if (op == "Not") return [](auto& a) { return a[0] == 0 ? 1.0 : 0.0; };
    return std::nullopt;
  }

  std::optional<Value> binary(const std::string& op) const {
    if (in_.size() != 2) return std::nullopt;
    const int type = in_[0]->type;
    const bool integer = is_integer_type(type);
    auto compare = [&](auto f) {
      return elementwise(in_, onnx::TensorProto::BOOL,
                         [f](auto& a) { return f(a[0], a[1]) ? 1.0 : 0.0; });
    };
    if (op == "Add") return elementwise(in_, type, [](auto& a) { return a[0] + a[1]; });
    if (op == "Sub") return elementwise(in_, type, [](auto& a) { return a[0] - a[1]; });
    if (op == "Mul") return elementwise(in_, type, [](auto& a) { return a[0] * a[1]; });
    if (op == "Div") {
      for (double x : in_[1]->data)
        if (x == 0) return std::nullopt;
      return elementwise(in_, type, [integer](auto& a) {
        return integer ? std::trunc(a[0] / a[1]) : a[0] / a[1];
      });
    }
    if (op == "Mod") {
      for (double x : in_[1]->data)
        if (x == 0) return std::nullopt;
      return elementwise(in_, type, [](auto& a) { return std::fmod(a[0], a[1]); });
    }
    if (op == "Pow") return elementwise(in_, type, [](auto& a) { return std::pow(a[0], a[1]); });
    if (op == "Max") return elementwise(in_, type, [](auto& a) { return std::max(a[0], a[1]); });
    if (op == "Min") return elementwise(in_, type, [](auto& a) { return std::min(a[0], a[1]); });
    if (op == "Equal") return compare([](double x, double y) { return x == y; });
    if (op == "Less") return compare([](double x, double y) { return x < y; });
    if (op == "Greater") return compare([](double x, double y) { return x > y; });
    if (op == "LessOrEqual") return compare([](double x, double y) { return x <= y; });
    if (op == "GreaterOrEqual") return compare([](double x, double y) { return x >= y; });
    if (op == "And") return compare([](double x, double y) { return x != 0 && y != 0; });
    if (op == "Or") return compare([](double x, double y) { return x != 0 || y != 0; });
    return std::nullopt;
  }

  const onnx::NodeProto& node_;
  std::vector<const Value*> in_;
  const std::vector<std::int64_t>* shape_;
};

// Static shapes known after inference: inputs, value_info, outputs, initializers.
std::unordered_map<std::string, std::vector<std::int64_t>> known_shapes(const onnx::GraphProto& g) {
  std::unordered_map<std::string, std::vector<std::int64_t>> shapes;
  auto add = [&](const onnx::ValueInfoProto& v) {
    if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) return;
    std::vector<std::int64_t> dims;
    for (const auto& d : v.type().tensor_type().shape().dim()) {
      if (!d.has_dim_value()) return;
      dims.push_back(d.dim_value());
    }
    shapes[v.name()] = dims;
  };
  for (const auto& v : g.input())
    add(v);
  for (const auto& v : g.value_info())
    add(v);
  for (const auto& v : g.output())
    add(v);
  for (const auto& t : g.initializer())
    shapes[t.name()] = std::vector<std::int64_t>(t.dims().begin(), t.dims().end());
  return shapes;
}

void infer(onnx::ModelProto& model, const std::string& origin) {
  try {
    // Data propagation resolves the shape computations it can follow (Shape -> Gather ->
    // Concat -> Reshape); this pass folds the rest.
    const onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/0,
                                              /*enable_data_propagation=*/true);
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception& e) {
    std::string message = origin;
    message += ": ONNX shape inference failed: ";
    message += e.what();
    std::replace(message.begin(), message.end(), '\n', ' ');
    throw InputError(message);
  }
}

// One sweep in graph order: folds every node it can; returns how many it folded.
int fold_sweep(onnx::GraphProto& g, Values& values) {
  const auto shapes = known_shapes(g);
  int folded = 0;
  for (auto& node : *g.mutable_node()) {
    if (node.op_type() == "Constant") {
      if (node.output_size() == 1 && !values.contains(node.output(0)))
        if (auto v = constant_value(node)) values.emplace(node.output(0), std::move(*v));
      continue;
    }
    if (node.output_size() != 1 || !node.domain().empty()) continue;
    if (values.contains(node.output(0))) continue;
    std::vector<const Value*> in;
    for (const std::string& name : node.input()) {
      const auto it = values.find(name);
      in.push_back(it == values.end() ? nullptr : &it->second);
    }
    const auto shape = node.input_size() > 0 ? shapes.find(node.input(0)) : shapes.end();
    const Evaluator evaluator(node, in, shape == shapes.end() ? nullptr : &shape->second);
    std::optional<Value> value = evaluator.run();
    if (!value) continue;
    const std::string output = node.output(0);
    const std::string name = node.name();
    node.Clear();
    node.set_op_type("Constant");
    node.set_name(name);
    node.add_output(output);
    auto* a = node.add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    *a->mutable_t() = write_tensor(*value, output);
    values.emplace(output, std::move(*value));
    ++folded;
  }
  return folded;
}

}  // namespace

void infer_shapes_folding(onnx::ModelProto& model, const std::string& origin) {
  Values values;
  for (const auto& t : model.graph().initializer())
    if (auto v = read_tensor(t)) values.emplace(t.name(), std::move(*v));
  for (int round = 0; round < kMaxRounds; ++round) {
    infer(model, origin);
    if (fold_sweep(*model.mutable_graph(), values) == 0) return;
    // Shape inference keeps what it inferred before; the folded constants may settle more.
    model.mutable_graph()->clear_value_info();
  }
  infer(model, origin);
}

}  // namespace memplace::onnx_import
