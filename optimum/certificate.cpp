#include "optimum/certificate.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "base/fnv1a.hpp"
#include "base/yaml_input.hpp"
#include "model/inputs/embedded.hpp"
#include "model/mapping_io.hpp"

namespace memplace::optimum {

namespace {

std::string hex(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::string format(const char* spec, double value) {
  char text[64];
  std::snprintf(text, sizeof text, spec, value);
  return text;
}

std::uint64_t parse_hex(const YamlInput& in, const YAML::Node& node, const std::string& field) {
  const std::string text = in.string(node, field);
  if (text.size() != 16 || text.find_first_not_of("0123456789abcdef") != std::string::npos)
    in.fail(node, field, "expected 16 lowercase hexadecimal digits, got '" + text + "'");
  return std::stoull(text, nullptr, 16);
}

// Reads the `optimum` block; the mapping and the result come from the mapping file.
void read_optimum_block(const YamlInput& in, Certificate& c) {
  const YAML::Node block = in.require(in.root(), "optimum", "");
  in.reject_unknown_keys(block, {"status", "bound_fs", "model", "solver", "search"}, "optimum");
  const YAML::Node status = in.require(block, "status", "optimum");
  const auto s = status_from_name(in.string(status, "optimum.status"));
  if (!s || *s == Status::infeasible)
    in.fail(status, "optimum.status",
            "expected optimal, gap_limit, time_limit or stopped, got '" + status.Scalar() + "'");
  c.status = *s;
  c.bound_fs = in.count(in.require(block, "bound_fs", "optimum"), "optimum.bound_fs");
  c.model = parse_hex(in, in.require(block, "model", "optimum"), "optimum.model");

  const YAML::Node solver = in.require(block, "solver", "optimum");
  in.reject_unknown_keys(solver, {"name", "time_limit_s", "relative_gap", "threads"},
                         "optimum.solver");
  c.solver = in.string(in.require(solver, "name", "optimum.solver"), "optimum.solver.name");
  c.time_limit_s = in.positive(in.require(solver, "time_limit_s", "optimum.solver"),
                               "optimum.solver.time_limit_s");
  c.relative_gap = in.non_negative(in.require(solver, "relative_gap", "optimum.solver"),
                                   "optimum.solver.relative_gap");
  const YAML::Node threads = in.require(solver, "threads", "optimum.solver");
  c.threads = static_cast<int>(in.count(threads, "optimum.solver.threads"));
  if (c.threads < 1) in.fail(threads, "optimum.solver.threads", "must be at least 1");

  const YAML::Node search = in.require(block, "search", "optimum");
  in.reject_unknown_keys(search, {"seconds", "nodes", "solver_objective_fs"}, "optimum.search");
  c.seconds =
      in.non_negative(in.require(search, "seconds", "optimum.search"), "optimum.search.seconds");
  c.nodes = in.count(in.require(search, "nodes", "optimum.search"), "optimum.search.nodes");
  c.solver_objective_fs =
      in.non_negative(in.require(search, "solver_objective_fs", "optimum.search"),
                      "optimum.search.solver_objective_fs");
}

}  // namespace

double Certificate::gap() const {
  if (latency_fs <= 0) return 0;
  return static_cast<double>(latency_fs - bound_fs) / static_cast<double>(latency_fs);
}

std::uint64_t model_fingerprint(const Simulator& sim) {
  Fnv1a64 h;
  const std::size_t n = sim.num_layers(), m_count = sim.num_memories();
  h.add(static_cast<std::int64_t>(n));
  h.add(static_cast<std::int64_t>(m_count));
  h.add(static_cast<std::int64_t>(sim.memory_time()));
  h.add(sim.overhead_fs());
  for (std::size_t m = 0; m < m_count; ++m)
    h.add(sim.capacity(m));
  for (std::size_t t = 0; t < sim.num_tensors(); ++t) {
    h.add(sim.tensor_bytes(t));
    h.add(static_cast<std::int64_t>(sim.live_first(t)));
    h.add(static_cast<std::int64_t>(sim.live_last(t)));
  }
  for (std::size_t l = 0; l < n; ++l) {
    h.add(sim.compute_fs(l));
    h.add(sim.external_fs(l));
    for (std::size_t m = 0; m < m_count; ++m) {
      h.add(sim.weight_fs(l, m));
      h.add(sim.output_fs(l, m));
    }
    for (const Simulator::Dependency& d : sim.in_edges(l)) {
      h.add(static_cast<std::int64_t>(d.layer));
      for (std::size_t m = 0; m < m_count; ++m)
        h.add(sim.read_fs(d.index, m));
    }
  }
  return h.value();
}

Certificate make_certificate(const Simulator& sim, const Solution& solution,
                             const SolverOptions& options) {
  if (!solution.mapping)
    throw std::invalid_argument("no certificate without a mapping (status " +
                                std::string(status_name(solution.status)) + ")");
  Certificate c;
  c.status = solution.status;
  c.mapping = *solution.mapping;
  c.latency_fs = solution.latency_fs;
  c.bound_fs = solution.bound_fs;
  c.memory_time = sim.memory_time();
  c.model = model_fingerprint(sim);
  c.solver = solver_version();
  c.time_limit_s = options.time_limit_s;
  c.relative_gap = options.relative_gap;
  c.threads = options.threads;
  c.seconds = solution.seconds;
  c.nodes = solution.nodes;
  c.solver_objective_fs = solution.solver_objective_fs;
  return c;
}

std::string certificate_yaml(const Simulator& sim, const Certificate& c) {
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "optimum" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "status" << YAML::Value << std::string(status_name(c.status));
  out << YAML::Key << "bound_fs" << YAML::Value << c.bound_fs;
  out << YAML::Key << "model" << YAML::Value << YAML::DoubleQuoted << hex(c.model);
  out << YAML::Key << "solver" << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << c.solver;
  out << YAML::Key << "time_limit_s" << YAML::Value << format("%g", c.time_limit_s);
  out << YAML::Key << "relative_gap" << YAML::Value << format("%g", c.relative_gap);
  out << YAML::Key << "threads" << YAML::Value << c.threads;
  out << YAML::EndMap;
  out << YAML::Key << "search" << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "seconds" << YAML::Value << format("%.1f", c.seconds);
  out << YAML::Key << "nodes" << YAML::Value << c.nodes;
  out << YAML::Key << "solver_objective_fs" << YAML::Value << format("%.0f", c.solver_objective_fs);
  out << YAML::EndMap;
  out << YAML::EndMap << YAML::EndMap;
  return mapping_to_yaml(sim, c.mapping, RecordedResult{c.latency_fs, true},
                         std::string(out.c_str()) + "\n");
}

void save_certificate(const std::filesystem::path& path, const Simulator& sim,
                      const Certificate& c) {
  write_file_atomically(path, certificate_yaml(sim, c));
}

Certificate parse_certificate(std::string_view text, std::string_view origin,
                              const Simulator& sim) {
  const MappingFile file = parse_mapping(text, origin, sim);
  const YamlInput in(text, std::string(origin));
  const YAML::Node& root = in.root();
  Certificate c;
  c.mapping = file.mapping;
  read_optimum_block(in, c);
  if (!file.recorded || !file.recorded->valid)
    in.fail(root, "result", "a certificate records its mapping's result, valid: true");
  c.latency_fs = file.recorded->latency_fs;
  c.memory_time = file.header.model.memory_time.value_or(sim.hardware().memory_time);
  if (c.memory_time != sim.memory_time()) {
    in.fail(root["result"], "result.memory_time",
            "this certificate is for memory time " + std::string(combine_name(c.memory_time)) +
                ", not " + std::string(combine_name(sim.memory_time())));
  }
  if (const std::uint64_t model = model_fingerprint(sim); c.model != model) {
    in.fail(root["optimum"]["model"], "optimum.model",
            "solved for another version of this workload or hardware (model " + hex(c.model) +
                "; this one is " + hex(model) + "): solve it again with memplace optimum");
  }
  const Evaluation eval = sim.evaluate(c.mapping);
  if (!eval.valid || eval.latency_fs != c.latency_fs) {
    in.fail(root["result"], "result",
            "does not reproduce: the simulator gives latency_fs " +
                std::to_string(eval.latency_fs) + (eval.valid ? "" : " (invalid)"));
  }
  if (c.bound_fs > c.latency_fs)
    in.fail(root["optimum"]["bound_fs"], "optimum.bound_fs", "exceeds the mapping's latency");
  return c;
}

std::string certificate_name(const Simulator& sim) {
  return sim.workload().name() + "." + sim.hardware().name + "." +
         std::string(combine_name(sim.memory_time()));
}

std::string optimum_command(const ModelSpec& model) {
  std::string command = "memplace optimum " + model.workload;
  if (model.hardware != kDefaultHardware) command += " --hardware " + model.hardware;
  if (model.memory_time)
    command += " --memory-time " + std::string(combine_name(*model.memory_time));
  return command;
}

std::optional<Certificate> shipped_certificate(const Simulator& sim) {
  if (sim.dynamics() != Dynamics::pinned) return std::nullopt;  // certificates are v0's
  const std::string name = certificate_name(sim);
  const EmbeddedFile* file = find_embedded(embedded_certificates(), name);
  if (!file) return std::nullopt;
  // A workload or hardware edited under a shipped name is another model: no certificate.
  const YamlInput in(file->text, "workloads/optimum/" + name + ".yaml");
  const YAML::Node model = in.require(in.require(in.root(), "optimum", ""), "model", "optimum");
  if (parse_hex(in, model, "optimum.model") != model_fingerprint(sim)) return std::nullopt;
  try {
    return parse_certificate(file->text, in.origin(), sim);
  } catch (const InputError&) {
    return std::nullopt;  // the same model under other layer names (tests check the shipped ones)
  }
}

}  // namespace memplace::optimum
