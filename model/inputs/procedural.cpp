#include "model/inputs/procedural.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

#include "base/errors.hpp"
#include "base/rng.hpp"

namespace memplace {

namespace {

constexpr std::pair<ProceduralKind, std::string_view> kKinds[] = {
    {ProceduralKind::transformer, "transformer"},
    {ProceduralKind::cnn, "cnn"},
    {ProceduralKind::random, "random"},
};
constexpr std::string_view kPrefix = "procedural-";
constexpr std::int64_t kHeadDim = 64;

template <std::size_t N>
std::int64_t pick(Rng& rng, const std::array<std::int64_t, N>& values) {
  return values[rng.uniform(N)];
}

// Appends layers, each reading earlier ones by index.
class GraphBuilder {
 public:
  std::size_t add(std::string name, OpKind op, std::int64_t macs, std::int64_t vector_ops,
                  std::int64_t weight_bytes, std::int64_t output_bytes,
                  std::vector<InputEdge> inputs, std::int64_t external_input_bytes = 0) {
    Layer l;
    l.name = std::move(name);
    l.op = op;
    l.macs = macs;
    l.vector_ops = vector_ops;
    l.weight_bytes = weight_bytes;
    l.weight_traffic_bytes = weight_bytes;
    l.output_bytes = output_bytes;
    l.external_input_bytes = external_input_bytes;
    l.inputs = std::move(inputs);
    layers_.push_back(std::move(l));
    return layers_.size() - 1;
  }
  // An edge reading the whole output of `producer`.
  InputEdge all_of(std::size_t producer) const {
    return {producer, layers_[producer].output_bytes};
  }
  Layer& last() { return layers_.back(); }
  std::vector<Layer> take() { return std::move(layers_); }

 private:
  std::vector<Layer> layers_;
};

Workload make(ProceduralKind kind, std::uint64_t seed, std::string description,
              std::vector<Layer> layers) {
  WorkloadInfo info;
  info.name =
      std::string(kPrefix) + std::string(procedural_kind_name(kind)) + "-s" + std::to_string(seed);
  info.description = std::move(description);
  info.source =
      "memplace's procedural generator (model/inputs/procedural.cpp), seed " + std::to_string(seed);
  info.element_bytes = 1;
  return Workload(std::move(info), std::move(layers), info.name);
}

Workload transformer(std::uint64_t seed) {
  const TransformerDraw t = draw_transformer(seed);
  const std::int64_t d = t.hidden, tokens = t.batch * t.sequence;
  const std::int64_t kv = t.kv_heads * kHeadDim, f = t.ffn;
  const std::int64_t scores = t.batch * t.heads * t.sequence * t.sequence;
  GraphBuilder g;
  std::size_t x =
      g.add("embedding", OpKind::embedding, 0, 0, t.vocab * d, tokens * d, {}, tokens * 4);
  g.last().weight_traffic_bytes = tokens * d;  // the rows the tokens look up
  auto norm = [&](const std::string& name, std::size_t in) {
    return g.add(name, OpKind::norm, 0, 5 * tokens * d, d, tokens * d, {g.all_of(in)});
  };
  auto linear = [&](const std::string& name, std::size_t in, std::int64_t from, std::int64_t to) {
    return g.add(name, OpKind::matmul, tokens * from * to, 0, from * to, tokens * to,
                 {g.all_of(in)});
  };
  for (std::int64_t b = 0; b < t.blocks; ++b) {
    const std::string p = "block" + std::to_string(b) + "/";
    const std::size_t n1 = norm(p + "attention_norm", x);
    const std::size_t q = linear(p + "q", n1, d, d);
    const std::size_t k = linear(p + "k", n1, d, kv);
    const std::size_t v = linear(p + "v", n1, d, kv);
    const std::size_t s = g.add(p + "scores", OpKind::matmul, scores * kHeadDim, 0, 0, scores,
                                {g.all_of(q), g.all_of(k)});
    const std::size_t sm =
        g.add(p + "softmax", OpKind::softmax, 0, 3 * scores, 0, scores, {g.all_of(s)});
    const std::size_t c = g.add(p + "context", OpKind::matmul, scores * kHeadDim, 0, 0, tokens * d,
                                {g.all_of(sm), g.all_of(v)});
    const std::size_t o = linear(p + "out", c, d, d);
    const std::size_t a1 = g.add(p + "attention_add", OpKind::elementwise, 0, tokens * d, 0,
                                 tokens * d, {g.all_of(x), g.all_of(o)});
    const std::size_t n2 = norm(p + "mlp_norm", a1);
    std::size_t act = 0;
    if (t.gated) {
      const std::size_t gate = linear(p + "gate", n2, d, f);
      const std::size_t up = linear(p + "up", n2, d, f);
      act = g.add(p + "swiglu", OpKind::elementwise, 0, 4 * tokens * f, 0, tokens * f,
                  {g.all_of(gate), g.all_of(up)});
    } else {
      const std::size_t up = linear(p + "up", n2, d, f);
      act =
          g.add(p + "gelu", OpKind::elementwise, 0, 8 * tokens * f, 0, tokens * f, {g.all_of(up)});
    }
    const std::size_t down = linear(p + "down", act, f, d);
    x = g.add(p + "mlp_add", OpKind::elementwise, 0, tokens * d, 0, tokens * d,
              {g.all_of(a1), g.all_of(down)});
  }
  const std::size_t n = norm("final_norm", x);
  // The logits of each sequence's last token: the head reads one row per sequence.
  g.add("lm_head", OpKind::matmul, t.batch * d * t.vocab, 0, d * t.vocab, t.batch * t.vocab,
        {{n, t.batch * d}});
  const std::string mlp = t.gated ? "gated MLP " : "MLP ";
  return make(ProceduralKind::transformer, seed,
              "procedural transformer: " + std::to_string(t.blocks) + " blocks, hidden " +
                  std::to_string(d) + ", " + std::to_string(t.heads) + " query and " +
                  std::to_string(t.kv_heads) + " key/value heads, " + mlp + std::to_string(f) +
                  ", vocabulary " + std::to_string(t.vocab) + "; batch " + std::to_string(t.batch) +
                  ", sequence " + std::to_string(t.sequence),
              g.take());
}

Workload cnn(std::uint64_t seed) {
  const CnnDraw c = draw_cnn(seed);
  const std::int64_t batch = c.batch;
  GraphBuilder g;
  std::int64_t size = 112, channels = c.stem_channels;
  // A k x k convolution (groups = channels when depthwise) at the current output size.
  auto conv = [&](const std::string& name, std::size_t in, std::int64_t k, std::int64_t from,
                  std::int64_t to, bool depthwise = false) {
    const std::int64_t per_output = depthwise ? k * k : k * k * from;
    return g.add(name, depthwise ? OpKind::depthwise_conv : OpKind::conv,
                 batch * size * size * to * per_output, batch * size * size * to,
                 per_output * to + to, batch * size * size * to, {g.all_of(in)});
  };
  std::size_t x = g.add("stem", OpKind::conv, batch * size * size * channels * 27,
                        batch * size * size * channels, 27 * channels + channels,
                        batch * size * size * channels, {}, batch * 224 * 224 * 3);
  for (std::int64_t s = 0; s < c.stages; ++s) {
    const std::int64_t width = c.stem_channels << s;
    for (std::int64_t b = 0; b < c.blocks[static_cast<std::size_t>(s)]; ++b) {
      const std::string p = "stage" + std::to_string(s) + "/block" + std::to_string(b) + "/";
      if (b == 0) size = std::max<std::int64_t>(1, size / 2);  // each stage halves the resolution
      const bool keeps_shape = b > 0 && channels == width;
      std::size_t y = 0;
      if (c.inverted) {
        const std::int64_t wide = channels * c.expansion;
        const std::size_t expand = conv(p + "expand", x, 1, channels, wide);
        const std::size_t depthwise = conv(p + "depthwise", expand, 3, wide, wide, true);
        y = conv(p + "project", depthwise, 1, wide, width);
      } else {
        y = conv(p + "conv2", conv(p + "conv1", x, 3, channels, width), 3, width, width);
      }
      if (keeps_shape) {
        y = g.add(p + "add", OpKind::elementwise, 0, batch * size * size * width, 0,
                  batch * size * size * width, {g.all_of(x), g.all_of(y)});
      } else if (!c.inverted) {
        const std::size_t shortcut = conv(p + "shortcut", x, 1, channels, width);
        y = g.add(p + "add", OpKind::elementwise, 0, batch * size * size * width, 0,
                  batch * size * size * width, {g.all_of(shortcut), g.all_of(y)});
      }
      x = y;
      channels = width;
    }
  }
  const std::size_t pool = g.add("pool", OpKind::pool, 0, batch * size * size * channels, 0,
                                 batch * channels, {g.all_of(x)});
  g.add("classifier", OpKind::gemm, batch * channels * 1000, 0, channels * 1000 + 1000,
        batch * 1000, {g.all_of(pool)});
  std::string stages;
  for (const std::int64_t n : c.blocks)
    stages += (stages.empty() ? "" : "-") + std::to_string(n);
  return make(
      ProceduralKind::cnn, seed,
      "procedural CNN: stem width " + std::to_string(c.stem_channels) + ", " +
          std::to_string(c.stages) + " stages of " + stages + " " +
          (c.inverted ? "inverted bottlenecks (expansion " + std::to_string(c.expansion) + ")"
                      : std::string("basic blocks")) +
          "; batch " + std::to_string(batch) + ", 224x224",
      g.take());
}

// Every layer of the shipped workloads, the population the random DAG draws its layers from.
const std::vector<Layer>& shipped_layers() {
  static const std::vector<Layer> kLayers = [] {
    std::vector<Layer> all;
    for (const std::string& name : embedded_workload_names()) {
      const Workload w = load_workload(name);
      all.insert(all.end(), w.layers().begin(), w.layers().end());
    }
    return all;
  }();
  return kLayers;
}

Workload random_dag(std::uint64_t seed) {
  Rng rng(derive_seed(seed, {3}));
  const std::vector<Layer>& pool = shipped_layers();
  const std::size_t count = 24 + rng.uniform(233);
  GraphBuilder g;
  for (std::size_t i = 0; i < count; ++i) {
    const Layer& drawn = pool[rng.uniform(pool.size())];
    std::vector<InputEdge> inputs;
    if (i > 0) inputs.push_back(g.all_of(i - 1));
    // A third of the layers also read an earlier layer (a skip connection) up to 17 back.
    if (i >= 2 && rng.uniform(3) == 0) {
      const std::size_t back = 2 + rng.uniform(std::min<std::size_t>(i - 1, 16));
      inputs.push_back(g.all_of(i - back));
    }
    const std::int64_t external =
        i == 0 ? std::max(drawn.external_input_bytes, drawn.output_bytes) : 0;
    g.add("layer" + std::to_string(i) + "/" + std::string(op_name(drawn.op)), drawn.op, drawn.macs,
          drawn.vector_ops, drawn.weight_bytes, drawn.output_bytes, std::move(inputs), external);
    g.last().weight_traffic_bytes = drawn.weight_traffic_bytes;
  }
  return make(ProceduralKind::random, seed,
              "procedural random DAG of " + std::to_string(count) +
                  " layers drawn from the shipped workloads' layers",
              g.take());
}

}  // namespace

std::string_view procedural_kind_name(ProceduralKind kind) {
  for (const auto& [k, name] : kKinds)
    if (k == kind) return name;
  return "unknown";
}

std::vector<std::string> procedural_kind_names() {
  std::vector<std::string> names;
  for (const auto& [k, name] : kKinds)
    names.emplace_back(name);
  return names;
}

TransformerDraw draw_transformer(std::uint64_t seed) {
  Rng rng(derive_seed(seed, {1}));
  TransformerDraw t;
  t.blocks = 2 + static_cast<std::int64_t>(rng.uniform(11));
  t.hidden = pick(rng, std::array<std::int64_t, 6>{256, 384, 512, 640, 768, 1024});
  t.heads = t.hidden / kHeadDim;
  t.kv_heads = rng.uniform(2) == 0 ? t.heads : std::max<std::int64_t>(1, t.heads / 4);
  t.gated = rng.uniform(2) == 0;
  // A gated MLP keeps the parameters of a 4x one: 8/3 of the hidden size, rounded up to 64.
  t.ffn = t.gated ? (8 * t.hidden / 3 + 63) / 64 * 64 : 4 * t.hidden;
  t.vocab = pick(rng, std::array<std::int64_t, 3>{32000, 50257, 128256});
  t.batch = pick(rng, std::array<std::int64_t, 4>{1, 2, 4, 8});
  t.sequence = pick(rng, std::array<std::int64_t, 4>{64, 128, 256, 512});
  return t;
}

CnnDraw draw_cnn(std::uint64_t seed) {
  Rng rng(derive_seed(seed, {2}));
  CnnDraw c;
  c.stem_channels = pick(rng, std::array<std::int64_t, 5>{16, 24, 32, 48, 64});
  c.stages = 3 + static_cast<std::int64_t>(rng.uniform(3));
  for (std::int64_t s = 0; s < c.stages; ++s)
    c.blocks.push_back(1 + static_cast<std::int64_t>(rng.uniform(3)));
  c.inverted = rng.uniform(2) == 0;
  c.expansion = pick(rng, std::array<std::int64_t, 3>{3, 4, 6});
  c.batch = pick(rng, std::array<std::int64_t, 6>{1, 2, 4, 8, 16, 32});
  return c;
}

Workload procedural_workload(ProceduralKind kind, std::uint64_t seed) {
  switch (kind) {
    case ProceduralKind::transformer:
      return transformer(seed);
    case ProceduralKind::cnn:
      return cnn(seed);
    case ProceduralKind::random:
      break;
  }
  return random_dag(seed);
}

std::optional<Workload> procedural_workload_named(std::string_view name) {
  if (!name.starts_with(kPrefix)) return std::nullopt;
  const std::string_view rest = name.substr(kPrefix.size());
  const std::size_t dash = rest.rfind("-s");
  auto malformed = [&](const std::string& why) {
    std::string kinds;
    for (const std::string& k : procedural_kind_names())
      kinds += (kinds.empty() ? "" : ", ") + k;
    return InputError(std::string(name) + ": " + why +
                      " (a procedural workload is procedural-<kind>-s<seed>, kind one of " + kinds +
                      ")");
  };
  if (dash == std::string_view::npos) throw malformed("no seed");
  const std::string_view kind_text = rest.substr(0, dash), seed_text = rest.substr(dash + 2);
  std::uint64_t seed = 0;
  const auto [end, error] =
      std::from_chars(seed_text.data(), seed_text.data() + seed_text.size(), seed);
  if (seed_text.empty() || error != std::errc() || end != seed_text.data() + seed_text.size())
    throw malformed("the seed '" + std::string(seed_text) + "' is not a whole number");
  for (const auto& [kind, kind_name] : kKinds)
    if (kind_name == kind_text) return procedural_workload(kind, seed);
  throw malformed("unknown kind '" + std::string(kind_text) + "'");
}

}  // namespace memplace
