// memplace pack: the allocation solver (docs/allocation.md) — offsets for buffers with fixed
// lifetimes and sizes in a memory of a given capacity, or a proof that none exist; --check
// re-checks a packing, --generate makes zero-slack problems to try it on.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "allocation/csv.hpp"
#include "allocation/packer.hpp"
#include "allocation/packing_check.hpp"
#include "allocation/zero_slack_generator.hpp"
#include "apps/commands.hpp"
#include "apps/shared/progress.hpp"
#include "apps/shared/validators.hpp"
#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/number_format.hpp"

namespace memplace::cli {
namespace {

using namespace allocation;

struct PackCommandOptions {
  std::string input;
  std::string out;
  std::optional<std::int64_t> capacity;
  std::int64_t alignment = 1;
  double time_limit = 60;
  std::uint64_t max_placements = 0;
  bool greedy_only = false;
  bool check = false;
  int generate = 0;
  std::uint64_t seed = 1;
  int spare = 0;
  bool with_offsets = false;
  bool json = false;
};

// An optional number as JSON: null when absent.
nlohmann::json or_null(const std::optional<std::int64_t>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json();
}

std::string percent_over(std::int64_t height, std::int64_t capacity) {
  if (capacity == 0) return "";
  return " (" + format_fixed(100.0 * (static_cast<double>(height) / capacity - 1), 1) +
         " % over the capacity)";
}

void run_generate(const PackCommandOptions& o, Streams io) {
  if (o.out.empty()) throw InputError("--generate: needs -o FILE.csv");
  const std::int64_t capacity = o.capacity.value_or(std::int64_t{1} << 20);
  const std::int64_t cut = o.generate + (std::int64_t{o.generate} * o.spare + 99) / 100;
  if (capacity < cut)
    throw InputError("--capacity: must be at least the number of buffers cut (" +
                     std::to_string(cut) + ") for --generate");
  check_writable(o.out);
  const ZeroSlackProblem made = generate_with_spare_bytes(o.generate, capacity, o.seed, o.spare);
  write_file_atomically(
      o.out, allocation_csv(made.problem.buffers, o.with_offsets
                                                      ? std::span<const std::int64_t>(made.offsets)
                                                      : std::span<const std::int64_t>()));
  // The spare share of the rectangle the buffers were cut from (capacity x steps).
  std::int64_t steps = 0;
  double area = 0;
  for (const Buffer& b : made.problem.buffers) {
    steps = std::max(steps, b.upper);
    area += static_cast<double>(b.size) * static_cast<double>(b.upper - b.lower);
  }
  const double spare_share = 1 - area / (static_cast<double>(capacity) * steps);
  const std::int64_t peak = peak_live_bytes(made.problem.buffers);
  if (o.json) {
    io.out << nlohmann::json{{"out", o.out},
                             {"buffers", o.generate},
                             {"seed", o.seed},
                             {"spare_percent", o.spare},
                             {"capacity_bytes", capacity},
                             {"peak_bytes", peak},
                             {"spare_share", spare_share},
                             {"with_offsets", o.with_offsets}}
                  .dump(2)
           << "\n";
    return;
  }
  io.out << "wrote " << o.out << ": " << o.generate << " buffers, ";
  if (o.spare == 0)
    io.out << "zero slack at capacity " << capacity;
  else
    io.out << format_fixed(100 * spare_share, 1) << " % of bytes x steps spare at capacity "
           << capacity << ", peak " << peak;
  io.out << " (pack it with --capacity " << capacity << ")\n";
}

// Returns true when the packing is valid.
bool run_check(const PackCommandOptions& o, Streams io) {
  CsvContents csv = read_allocation_csv(o.input);
  if (!csv.offsets) throw InputError(o.input + ":1: --check needs an offset column");
  Problem problem{std::move(csv.buffers), o.capacity.value_or(kMaxValue), o.alignment};
  check_problem(problem);
  const std::vector<std::string> faults = packing_faults(problem, *csv.offsets);
  const std::int64_t height = packing_height(problem.buffers, *csv.offsets);
  if (o.json) {
    io.out << nlohmann::json{{"input", o.input},
                             {"buffers", problem.buffers.size()},
                             {"height_bytes", height},
                             {"peak_bytes", peak_live_bytes(problem.buffers)},
                             {"capacity_bytes", or_null(o.capacity)},
                             {"alignment", o.alignment},
                             {"valid", faults.empty()},
                             {"faults", faults}}
                  .dump(2)
           << "\n";
    return faults.empty();
  }
  io.out << o.input << ": " << problem.buffers.size() << " buffers, height " << height
         << " bytes, peak live " << peak_live_bytes(problem.buffers) << " bytes";
  if (o.capacity) io.out << ", capacity " << *o.capacity;
  if (faults.empty()) {
    io.out << ": a valid packing\n";
    return true;
  }
  io.out << ": NOT a valid packing\n";
  for (const std::string& f : faults)
    io.out << "  " << f << "\n";
  return false;
}

// Why a solve ended without a verdict: the greedy packings unfinished, --greedy-only, the
// placement limit or the time limit.
enum class Unknown { greedy_unfinished, greedy_only, placement_limit, time_limit };

Unknown why_unknown(const PackCommandOptions& o, const PackResult& r) {
  if (!r.greedy_height) return Unknown::greedy_unfinished;
  if (o.greedy_only) return Unknown::greedy_only;
  if (o.max_placements > 0 && r.nodes == o.max_placements) return Unknown::placement_limit;
  return Unknown::time_limit;
}

void print_pack_json(const PackCommandOptions& o, const Problem& problem, std::int64_t peak,
                     const PackResult& r, Streams io) {
  static constexpr const char* kUnknownNames[] = {"greedy packings unfinished", "greedy only",
                                                  "placement limit", "time limit"};
  nlohmann::json doc = {
      {"input", o.input},
      {"buffers", problem.buffers.size()},
      {"peak_bytes", peak},
      {"capacity_bytes", problem.capacity},
      {"alignment", problem.alignment},
      {"greedy_height_bytes", or_null(r.greedy_height)},
      {"outcome", r.outcome == SearchOutcome::packed       ? "packed"
                  : r.outcome == SearchOutcome::infeasible ? "infeasible"
                                                           : "unknown"},
      {"method", r.method},
      {"seconds", r.seconds},
      {"placements", r.nodes},
      {"height_bytes", r.outcome == SearchOutcome::packed
                           ? nlohmann::json(packing_height(problem.buffers, r.offsets))
                           : nlohmann::json()},
      {"out", r.outcome == SearchOutcome::packed && !o.out.empty() ? nlohmann::json(o.out)
                                                                   : nlohmann::json()}};
  if (r.outcome == SearchOutcome::limit)
    doc["stopped_by"] = kUnknownNames[static_cast<int>(why_unknown(o, r))];
  io.out << doc.dump(2) << "\n";
}

// Returns true when a packing was found.
bool run_pack(const PackCommandOptions& o, Streams io) {
  CsvContents csv = read_allocation_csv(o.input);
  Problem problem{std::move(csv.buffers), 0, o.alignment};
  const std::int64_t peak = peak_live_bytes(problem.buffers);
  problem.capacity = o.capacity.value_or(peak);
  if (!o.out.empty()) check_writable(o.out);
  if (!o.json)
    io.out << o.input << ": " << problem.buffers.size() << " buffers, peak live " << peak
           << " bytes, capacity " << problem.capacity << (o.capacity ? "" : " (the peak)")
           << std::endl;
  // The search's progress on stderr: redrawn on a terminal, a line every 10 s otherwise.
  const bool terminal = is_terminal(2);
  PeriodicLines lines(10);
  bool drawn = false;
  const auto show = [&](const SearchProgress& p) {
    if (!terminal && !lines.due(p.seconds)) return;
    io.err << (terminal ? "\r" : "") << "exact search: " << format_fixed(p.seconds, 0) << " s of "
           << format_fixed(o.time_limit, 0) << ", " << p.nodes << " placements, "
           << (p.stage.empty() ? "at most " + std::to_string(p.deepest) + " of " +
                                     std::to_string(p.buffers) + " buffers placed"
                               : p.stage)
           << (terminal ? "\x1b[K" : "\n") << std::flush;
    drawn = terminal;
  };
  const PackResult r = pack(problem, {o.time_limit, o.max_placements}, o.greedy_only, show);
  if (drawn) io.err << "\n";
  const bool packed = r.outcome == SearchOutcome::packed;
  if (packed && !o.out.empty())
    write_file_atomically(o.out, allocation_csv(problem.buffers, r.offsets));
  if (o.json) {
    print_pack_json(o, problem, peak, r, io);
    return packed;
  }
  if (r.greedy_height)
    io.out << "greedy: best height " << *r.greedy_height
           << percent_over(*r.greedy_height, problem.capacity) << "\n";
  else
    io.out << "greedy: no packing finished within the time limit\n";
  switch (r.outcome) {
    case SearchOutcome::packed:
      io.out << "packed by " << r.method << " in " << format_fixed(r.seconds, 2) << " s";
      if (r.nodes > 0) io.out << " (" << r.nodes << " placements)";
      io.out << ", height " << packing_height(problem.buffers, r.offsets) << "\n";
      if (!o.out.empty()) io.out << "wrote " << o.out << "\n";
      return true;
    case SearchOutcome::infeasible:
      io.out << "no packing exists: "
             << (r.method == "peak live bytes"
                     ? "the peak live bytes exceed the capacity"
                     : "the exact search ended without one (" + std::to_string(r.nodes) +
                           " placements, " + format_fixed(r.seconds, 2) + " s)")
             << "\n";
      return false;
    case SearchOutcome::limit:
      io.out << "no packing found ";
      switch (why_unknown(o, r)) {
        case Unknown::greedy_unfinished:
          io.out << "within the time limit of " << format_fixed(o.time_limit, 1)
                 << " s (the greedy packings did not finish)";
          break;
        case Unknown::greedy_only:
          io.out << "by the greedy packings (--greedy-only)";
          break;
        case Unknown::placement_limit:
          io.out << "within the limit of " << o.max_placements << " placements";
          break;
        case Unknown::time_limit:
          io.out << "within the time limit of " << format_fixed(o.time_limit, 1) << " s ("
                 << r.nodes << " placements)";
          break;
      }
      io.out << "; whether one exists is unknown\n";
      return false;
  }
  return false;
}

}  // namespace

void add_pack_command(CLI::App& app, Streams io) {
  auto o = std::make_shared<PackCommandOptions>();
  auto* cmd = app.add_subcommand(
      "pack",
      "The allocation solver: offsets for buffers with fixed lifetimes and sizes (a CSV file "
      "id,lower,upper,size) in a memory of a given capacity, or a proof that none exist; exit 0 "
      "when packed or valid, 1 when not (docs/allocation.md)");
  cmd->add_option("input", o->input, "The buffers (CSV: id,lower,upper,size[,offset])");
  cmd->add_option("--capacity", o->capacity,
                  "The memory's bytes (default: the peak live bytes, the least any packing needs; "
                  "with --check: no limit; with --generate: 1048576)")
      ->transform(whole_number(0, kMaxValue));
  cmd->add_option("--alignment", o->alignment, "Every offset a multiple of this (default 1)")
      ->transform(whole_number(1, kMaxValue));
  cmd->add_option("--time-limit", o->time_limit,
                  "Seconds for the whole solve, greedy and exact search (default 60)")
      ->check(kPositiveSeconds);
  cmd->add_option("--max-placements", o->max_placements,
                  "Stop the exact search after this many placements (default: no limit); unlike "
                  "the time limit, the same on any machine")
      ->transform(whole_number(0));
  cmd->add_option("-o,--out", o->out,
                  "Write the packing here (CSV with an offset column); with --generate, the "
                  "problem")
      ->check(kNonEmptyName);
  cmd->add_flag("--greedy-only", o->greedy_only,
                "Only the greedy packings (best fit and first fit over five orders)");
  cmd->add_flag("--check", o->check,
                "Check the packing in INPUT (its offset column) against the capacity and "
                "alignment: exit 1 naming each fault");
  cmd->add_option("--generate", o->generate,
                  "Write a random zero-slack problem of this many buffers to -o (a packing "
                  "exists at exactly its capacity); at most 40,000, whose 75-97 million pairs "
                  "of buffers live together are near the most the solver lists")
      ->transform(whole_number(1, 40'000));
  cmd->add_option("--seed", o->seed, "The generator's seed (default 1)")
      ->transform(whole_number(0));
  cmd->add_option("--spare", o->spare,
                  "With --generate: cut this many percent more buffers and remove that many at "
                  "random, leaving spare bytes where they were (default 0: zero slack)")
      ->transform(whole_number(0, 100));
  cmd->add_flag("--with-offsets", o->with_offsets,
                "With --generate: also write the packing the problem was cut from");
  cmd->add_flag("--json", o->json,
                "Print the outcome as JSON on stdout (progress stays on stderr; exit codes the "
                "same)");
  cmd->callback([o, io] {
    if (o->generate > 0) {
      if (!o->input.empty()) throw InputError("--generate writes a problem: give no INPUT");
      return run_generate(*o, io);
    }
    if (o->spare > 0) throw InputError("--spare: only with --generate");
    if (o->input.empty()) throw InputError("pack: give INPUT.csv (or --generate N)");
    const bool ok = o->check ? run_check(*o, io) : run_pack(*o, io);
    if (!ok) throw std::runtime_error(o->check ? "the packing is not valid" : "not packed");
  });
}

}  // namespace memplace::cli
