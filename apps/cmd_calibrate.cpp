// memplace calibrate [SET...]: memplace's latencies held against published measurements
// (docs/calibration.md): per point of each calibration set, the predicted and published time per
// inference and the error, then per set the median and largest error and the rank correlation.
#include <nlohmann/json.hpp>

#include "apps/commands.hpp"
#include "apps/shared/text_table.hpp"
#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/number_format.hpp"
#include "experiments/charts/svg_chart.hpp"
#include "model/calibration.hpp"

namespace memplace::cli {

namespace {

struct CalibrateOptions {
  std::vector<std::string> sets = embedded_calibration_set_names();
  std::string hardware;  // instead of each set's chip
  bool json = false;
  std::string csv;       // the table, written atomically
  std::string fit;       // fit the chip's estimated constants on the fit points; the hardware file
  std::string fit_name;  // the fitted hardware model's name (default: <chip>.fit)
  std::string svg;       // predicted against published, log-log
};

experiments::ScatterSeries scatter(std::string name, const std::vector<CalibrationRow>& rows) {
  experiments::ScatterSeries s{std::move(name), {}, {}, {}};
  for (const CalibrationRow& r : rows) {
    s.x.push_back(r.published_ms);
    s.y.push_back(r.predicted_ms);
    s.labels.push_back(r.workload);
  }
  return s;
}

// --svg: the set on its chip and, with --hardware, on that one too.
void write_plot(const CalibrateOptions& o) {
  if (o.sets.size() != 1) throw InputError("--svg takes one calibration set");
  const CalibrationSet set = load_calibration_set(o.sets.front());
  experiments::ScatterChart chart{"memplace against " + set.column + " (" + set.chip + ")",
                                  "published time per inference (ms)",
                                  "memplace's time (ms), its compiler's mapping, cost model v1",
                                  {scatter(set.chip, calibration_rows(set))},
                                  true};
  if (!o.hardware.empty())
    chart.series.push_back(scatter(o.hardware, calibration_rows(set, o.hardware)));
  write_file_atomically(o.svg, experiments::render_log_scatter(chart));
}

std::string summary_line(const std::string& what, const std::vector<CalibrationRow>& rows) {
  if (rows.empty()) return what + ": no points";
  const CalibrationSummary s = summarize(rows);
  return what + " (" + std::to_string(s.points) + "): median error " +
         format_fixed(100 * s.median_error, 1) + " %, largest " +
         format_fixed(100 * s.largest_error, 1) + " %, Spearman " + format_fixed(s.spearman, 3);
}

void print_set(const CalibrationSet& set, const std::vector<CalibrationRow>& rows,
               const CalibrationSummary& s, std::ostream& out) {
  out << "Calibration set " << set.chip << ": " << set.source << "; published: " << set.column
      << (set.other_column.empty() ? "" : "; other column: " + set.other_column) << "\n\n";
  TextTable table({"workload", "published model", "role", "memplace (ms)", "published (ms)",
                   "other column (ms)", "predicted / published", "error"});
  for (const CalibrationRow& r : rows) {
    table.add_row({r.workload, r.published, r.fit_point ? "fit" : "held out",
                   format_significant(r.predicted_ms, 4), format_significant(r.published_ms, 4),
                   r.other_column_ms ? format_significant(*r.other_column_ms, 4) : "",
                   format_fixed(r.ratio(), 2), format_fixed(100 * r.error(), 1) + " %"});
  }
  table.print(out);
  out << "\n" << summary_line("all points", rows);
  if (s.median_column_spread)
    out << "; the two published columns differ by a median "
        << format_fixed(100 * *s.median_column_spread, 1) << " %";
  out << "\n";
  if (set.fit.empty())
    out << "no fit points named: every point is held out\n"
        << summary_line("weights on chip", on_chip(rows)) << "\n";
  else
    out << summary_line("held out", held_out(rows)) << "\n"
        << summary_line("held out, weights on chip", on_chip(held_out(rows))) << "\n";
  if (!set.not_points.empty())
    out << set.not_points.size() << " rows of the source are not points:\n";
  for (const NotAPoint& n : set.not_points)
    out << "  " << n.published << ": " << n.why << "\n";
  out << "\n";
}

// --fit: the constants fitted on the fit points, and the held-out points before and after.
void run_fit(const CalibrateOptions& o, Streams io) {
  if (o.sets.size() != 1) throw InputError("--fit takes one calibration set");
  check_writable(o.fit);
  const CalibrationSet set = load_calibration_set(o.sets.front());
  const Hardware base = load_hardware(o.hardware.empty() ? set.chip : o.hardware);
  const CalibrationFit fit =
      fit_constants(set, base, o.fit_name.empty() ? base.name + ".fit" : o.fit_name);
  const Hardware& fitted = fit.hardware;
  io.out << "Fitted on " << set.fit.size() << " points of " << set.chip
         << " (mean squared log ratio " << format_significant(fit.objective_before, 4) << " -> "
         << format_significant(fit.objective_after, 4) << "):\n";
  for (const FittedConstant& c : fit.constants)
    io.out << "  " << c.name << ": " << format_significant(c.before, 6) << " -> "
           << format_significant(c.after, 6) << "\n";
  const std::vector<CalibrationRow> before = calibration_rows(set, base);
  const std::vector<CalibrationRow> after = calibration_rows(set, fitted);
  io.out << summary_line("before, held out", held_out(before)) << "\n"
         << summary_line("after, held out", held_out(after)) << "\n"
         << summary_line("before, held out, weights on chip", on_chip(held_out(before))) << "\n"
         << summary_line("after, held out, weights on chip", on_chip(held_out(after))) << "\n";
  write_file_atomically(o.fit, fitted.to_yaml());
  io.out << "wrote " << o.fit << "\n";
}

void run_calibrate(const CalibrateOptions& o, Streams io) {
  if (!o.fit.empty()) return run_fit(o, io);
  if (!o.csv.empty()) check_writable(o.csv);
  if (!o.svg.empty()) {
    check_writable(o.svg);
    write_plot(o);
  }
  nlohmann::json doc = nlohmann::json::array();
  std::string csv;
  for (const std::string& name : o.sets) {
    const CalibrationSet set = load_calibration_set(name);
    const std::vector<CalibrationRow> rows = calibration_rows(set, o.hardware);
    const CalibrationSummary s = summarize(rows);
    const std::string table = calibration_csv(set.chip, rows);
    csv += csv.empty() ? table : table.substr(table.find('\n') + 1);  // one header
    if (!o.json) {
      print_set(set, rows, s, io.out);
      continue;
    }
    nlohmann::json points = nlohmann::json::array();
    for (const CalibrationRow& r : rows) {
      points.push_back({{"workload", r.workload},
                        {"published", r.published},
                        {"predicted_ms", r.predicted_ms},
                        {"published_ms", r.published_ms},
                        {"other_column_ms", r.other_column_ms ? nlohmann::json(*r.other_column_ms)
                                                              : nlohmann::json(nullptr)},
                        {"ratio", r.ratio()},
                        {"error", r.error()}});
    }
    doc.push_back({{"chip", set.chip},
                   {"hardware", o.hardware.empty() ? set.chip : o.hardware},
                   {"source", set.source},
                   {"column", set.column},
                   {"points", points},
                   {"median_error", s.median_error},
                   {"largest_error", s.largest_error},
                   {"spearman", s.spearman}});
  }
  if (o.json) io.out << doc.dump(2) << "\n";
  if (!o.csv.empty()) write_file_atomically(o.csv, csv);
}

}  // namespace

void add_calibrate_command(CLI::App& app, Streams io) {
  auto* cmd = app.add_subcommand(
      "calibrate",
      "Hold memplace's latencies against published measurements (docs/calibration.md)");
  auto options = std::make_shared<CalibrateOptions>();
  cmd->add_option("set", options->sets,
                  "Calibration sets: a shipped chip's name or a set file (default: every shipped "
                  "set)");
  cmd->add_option("--hardware", options->hardware,
                  "Score on this hardware model (a shipped name or file) instead of each set's "
                  "chip: a calibrated revision");
  cmd->add_flag("--json", options->json, "Print JSON");
  cmd->add_option("--csv", options->csv, "Also write the table as CSV to this file (atomically)");
  cmd->add_option("--svg", options->svg,
                  "Also plot memplace's times against the published ones (log-log, one set; with "
                  "--hardware, on the set's chip and on that one) to this SVG file (atomically)");
  cmd->add_option("--fit", options->fit,
                  "Fit the chip's estimated constants (link bandwidth, per-layer overhead, MAC "
                  "utilisation) on the set's fit points and write the fitted hardware model "
                  "here (atomically)");
  cmd->add_option("--fit-name", options->fit_name,
                  "The fitted hardware model's name (default: <chip>.fit)")
      ->needs("--fit");
  cmd->callback([io, options] { run_calibrate(*options, io); });
}

}  // namespace memplace::cli
