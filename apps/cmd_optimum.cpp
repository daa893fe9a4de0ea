// memplace optimum WORKLOAD: the exact optimum of the cost model (optimum/, docs/optimum.md),
// with progress while CBC solves, written as a certificate that `memplace evaluate` replays.
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "apps/cli.hpp"
#include "apps/commands.hpp"
#include "apps/shared/cli_model.hpp"
#include "apps/shared/progress.hpp"
#include "apps/shared/stop_signals.hpp"
#include "apps/shared/text_table.hpp"
#include "apps/shared/validators.hpp"
#include "base/atomic_file.hpp"
#include "model/references.hpp"
#include "optimum/certificate.hpp"

namespace memplace::cli {

namespace {

struct OptimumCommandOptions {
  std::string workload;
  ModelSpec model;  // its workload: the argument
  optimum::SolverOptions solver;
  std::string out;  // default: runs/optimum/<workload>.<hardware>.<rule>.yaml
  bool json = false;
  bool quiet = false;
};

std::string microseconds(double fs) {
  return format_fixed(fs * 1e-9, 3) + " us";
}

std::string percent(double fraction) {
  return format_fixed(100 * fraction, 4) + " %";
}

std::string status_text(optimum::Status s) {
  switch (s) {
    case optimum::Status::optimal:
      return "optimal: no valid mapping is faster";
    case optimum::Status::gap_limit:
      return "within the requested gap of the bound";
    case optimum::Status::time_limit:
      return "time limit reached: the best mapping found, and a bound no mapping can beat";
    case optimum::Status::stopped:
      return "stopped: the best mapping found so far, and a bound no mapping can beat";
    case optimum::Status::infeasible:
      return "infeasible: no valid mapping exists";
  }
  return "";
}

// Progress on stderr: one redrawn line on a terminal; otherwise a line at every new incumbent and
// every 10 s (logs, CI).
class SolveDisplay {
 public:
  SolveDisplay(std::ostream& err, bool terminal, TimeFs compiler_fs)
      : err_(err), terminal_(terminal), compiler_fs_(compiler_fs) {}

  void show(const optimum::Progress& p) {
    const bool improved = p.incumbent_fs && (!incumbent_ || *p.incumbent_fs < *incumbent_);
    incumbent_ = p.incumbent_fs;
    if (!terminal_ && !improved && p.seconds - last_line_ < 10) return;
    last_line_ = p.seconds;
    char line[200];
    std::snprintf(line, sizeof line, "optimum: %6.1f s  %8lld nodes  ", p.seconds,
                  static_cast<long long>(p.nodes));
    std::string text = line;
    if (p.incumbent_fs) {
      text += "incumbent " + microseconds(*p.incumbent_fs) + " (" +
              format_fixed(static_cast<double>(compiler_fs_) / *p.incumbent_fs, 5) + "x)  ";
    }
    text += "bound " + microseconds(p.bound_fs) + "  gap " + percent(p.gap());
    if (terminal_) {
      err_ << "\r" << text << "\x1b[K" << std::flush;
      drawn_ = true;
    } else {
      err_ << text << "\n";
    }
  }

  void finish() {
    if (drawn_) err_ << "\n";
  }

 private:
  std::ostream& err_;
  bool terminal_;
  TimeFs compiler_fs_;
  std::optional<double> incumbent_;
  double last_line_ = -1e9;
  bool drawn_ = false;
};

nlohmann::json solution_json(const Simulator& sim, const optimum::Solution& s,
                             const optimum::SolverOptions& options, TimeFs compiler_fs,
                             const std::string& out) {
  nlohmann::json doc = {{"workload", sim.workload().name()},
                        {"hardware", sim.hardware().name},
                        {"memory_time", std::string(combine_name(sim.memory_time()))},
                        {"status", std::string(optimum::status_name(s.status))},
                        {"compiler_latency_fs", compiler_fs},
                        {"seconds", s.seconds},
                        {"nodes", s.nodes},
                        {"solver", optimum::solver_version()},
                        {"time_limit_s", options.time_limit_s},
                        {"relative_gap", options.relative_gap},
                        {"threads", options.threads}};
  if (s.mapping) {
    doc["latency_fs"] = s.latency_fs;
    doc["latency_us"] = to_microseconds(s.latency_fs);
    doc["speedup"] = speedup(compiler_fs, s.latency_fs);
    doc["bound_fs"] = s.bound_fs;
    doc["bound_speedup"] = speedup(compiler_fs, s.bound_fs);
    doc["gap"] = s.gap();
    doc["solver_objective_fs"] = s.solver_objective_fs;
    doc["mapping_file"] = out;
  }
  return doc;
}

void print_solution(const Simulator& sim, const optimum::Solution& s,
                    const optimum::SolverOptions& options, TimeFs compiler_fs,
                    const std::string& out, std::ostream& os) {
  os << sim.workload().name() << " on " << sim.hardware().name
     << " (memory time: " << combine_name(sim.memory_time()) << "): " << status_text(s.status)
     << "\n";
  if (!s.mapping) return;
  os << "\n";
  TextTable table({"mapping", "latency (us)", "speedup over compiler"});
  auto row = [&](const std::string& name, TimeFs fs) {
    table.add_row(
        {name, format_fixed(to_microseconds(fs), 3), format_fixed(speedup(compiler_fs, fs), 5)});
  };
  row("compiler", compiler_fs);
  row(s.status == optimum::Status::optimal ? "optimum" : "best found", s.latency_fs);
  row("bound", s.bound_fs);
  table.print(os);
  const double agreement = static_cast<double>(s.latency_fs) - s.solver_objective_fs;
  os << "\ngap to the bound " << percent(s.gap()) << "; " << optimum::solver_version() << ", "
     << options.threads << (options.threads == 1 ? " thread, " : " threads, ")
     << format_fixed(s.seconds, 1) << " s, " << s.nodes << " nodes\n"
     << "latency re-scored by the simulator; the solver's objective differs from it by "
     << format_fixed(agreement, 0) << " fs\n"
     << "mapping: " << out << " (replay: memplace evaluate " << sim.workload().name() << " " << out
     << ")\n";
}

void run_optimum(const OptimumCommandOptions& o, Streams io) {
  ModelSpec model = o.model;
  model.workload = o.workload;
  const Simulator sim = model.build();
  const std::string out =
      o.out.empty() ? "runs/optimum/" + optimum::certificate_name(sim) + ".yaml" : o.out;
  check_writable(out, o.out.empty());
  const TimeFs compiler_fs = sim.evaluate(compiler_mapping(sim)).latency_fs;

  SolveDisplay display(io.err, is_terminal(2), compiler_fs);
  const StopOnSignals signals;
  const optimum::Solution s = optimum::solve(sim, o.solver, [&](const optimum::Progress& p) {
    if (!o.quiet) display.show(p);
    return !stop_requested();
  });
  display.finish();
  if (s.mapping) optimum::save_certificate(out, sim, optimum::make_certificate(sim, s, o.solver));

  if (o.json)
    io.out << solution_json(sim, s, o.solver, compiler_fs, out).dump(2) << "\n";
  else
    print_solution(sim, s, o.solver, compiler_fs, out, io.out);
  if (s.status == optimum::Status::stopped)
    throw Interrupted("stopped after " + format_fixed(s.seconds, 1) + " s" +
                      (s.mapping ? "; the best mapping so far is in " + out : ""));
  if (!s.mapping) throw std::runtime_error("no valid mapping: " + status_text(s.status));
}

}  // namespace

void add_optimum_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand(
      "optimum",
      "The exact optimum of a workload's placement (a MIP solved with COIN-OR CBC), written as a "
      "certificate that `memplace evaluate` replays");
  auto o = std::make_shared<OptimumCommandOptions>();
  cmd->add_option("workload", o->workload, "A shipped workload name or a workload YAML file")
      ->required();
  add_model_options(*cmd, o->model, /*with_dynamics=*/false);  // the MIP is of cost model v0
  cmd->add_option("--time-limit", o->solver.time_limit_s,
                  "Wall-clock seconds; then the best mapping found and a certified bound")
      ->check(kPositiveSeconds)
      ->capture_default_str();
  cmd->add_option("--gap", o->solver.relative_gap,
                  "Stop once (best − bound) / best is at most this; 0 proves optimality")
      ->check(kFraction)
      ->capture_default_str();
  cmd->add_option("--threads", o->solver.threads,
                  "CBC threads (deterministic mode); a proven optimum does not depend on them")
      ->transform(whole_number(1, 64))
      ->capture_default_str();
  cmd->add_option("-o,--out", o->out,
                  "The certificate (default runs/optimum/<workload>.<hardware>.<rule>.yaml)")
      ->check(kNonEmptyName);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress lines");
  cmd->callback([io, o] { run_optimum(*o, io); });
}

}  // namespace memplace::cli
