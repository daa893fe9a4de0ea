#include "model/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <stdexcept>

#include "base/errors.hpp"
#include "base/number_format.hpp"
#include "model/references.hpp"

namespace memplace {

namespace {

std::vector<Workload> workloads_of(const CalibrationSet& set) {
  std::vector<Workload> workloads;
  for (std::size_t i = 0; i < set.points.size(); ++i) {
    try {
      workloads.push_back(load_workload(set.points[i].workload));
    } catch (const InputError& e) {
      throw InputError("calibration set " + set.chip + ", points[" + std::to_string(i) +
                       "].workload: " + e.what());
    }
  }
  return workloads;
}

// Each point's compiler mapping under cost model v1 on `hardware`, beside its published time.
std::vector<CalibrationRow> rows_on(const CalibrationSet& set, const std::vector<Workload>& loaded,
                                    const Hardware& hardware) {
  std::vector<CalibrationRow> rows;
  ModelSpec spec;
  spec.dynamics = default_dynamics(ModelVersion::v1);
  for (std::size_t i = 0; i < set.points.size(); ++i) {
    const CalibrationPoint& point = set.points[i];
    const Simulator sim = spec.build(loaded[i], hardware);
    const Evaluation scored = sim.evaluate(compiler_mapping(sim));
    CalibrationRow row;
    row.workload = point.workload;
    row.published = point.published;
    row.fit_point = set.is_fit_point(point.workload);
    row.fits_on_chip = loaded[i].total_weight_bytes() <= sim.capacity(0);
    row.predicted_ms = scored.latency_s() * 1e3;
    row.published_ms = point.published_ms;
    row.other_column_ms = point.other_column_ms;
    rows.push_back(std::move(row));
  }
  return rows;
}

// Average ranks (1-based), ties sharing the mean of their places.
std::vector<double> ranks(std::span<const double> values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<double> rank(values.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]])
      ++j;
    const double shared = (static_cast<double>(i) + static_cast<double>(j)) / 2 + 1;
    for (std::size_t k = i; k <= j; ++k)
      rank[order[k]] = shared;
    i = j + 1;
  }
  return rank;
}

}  // namespace

double CalibrationRow::error() const {
  return std::abs(ratio() - 1);
}

double median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of no values");
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double spearman(std::span<const double> a, std::span<const double> b) {
  if (a.size() != b.size())
    throw std::invalid_argument("spearman: " + std::to_string(a.size()) + " values against " +
                                std::to_string(b.size()));
  const std::vector<double> ra = ranks(a), rb = ranks(b);
  const double n = static_cast<double>(a.size());
  const double mean = (n + 1) / 2;
  double cov = 0, va = 0, vb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    cov += (ra[i] - mean) * (rb[i] - mean);
    va += (ra[i] - mean) * (ra[i] - mean);
    vb += (rb[i] - mean) * (rb[i] - mean);
  }
  return va == 0 || vb == 0 ? 0 : cov / std::sqrt(va * vb);
}

std::vector<CalibrationRow> calibration_rows(const CalibrationSet& set,
                                             const std::string& hardware) {
  return calibration_rows(set, load_hardware(hardware.empty() ? set.chip : hardware));
}

std::vector<CalibrationRow> calibration_rows(const CalibrationSet& set, const Hardware& hardware) {
  return rows_on(set, workloads_of(set), hardware);
}

std::vector<CalibrationRow> held_out(std::span<const CalibrationRow> rows) {
  std::vector<CalibrationRow> out;
  for (const CalibrationRow& r : rows)
    if (!r.fit_point) out.push_back(r);
  return out;
}

std::vector<CalibrationRow> on_chip(std::span<const CalibrationRow> rows) {
  std::vector<CalibrationRow> out;
  for (const CalibrationRow& r : rows)
    if (r.fits_on_chip) out.push_back(r);
  return out;
}

CalibrationFit fit_constants(const CalibrationSet& set, const Hardware& base,
                             const std::string& name) {
  if (set.fit.empty())
    throw InputError("calibration set " + set.chip + " names no fit points (its `fit` list)");
  CalibrationSet fit_set = set;
  std::erase_if(fit_set.points,
                [&](const CalibrationPoint& p) { return !set.is_fit_point(p.workload); });
  const std::vector<Workload> workloads = workloads_of(fit_set);
  auto objective = [&](const Hardware& hw) {
    double sum = 0;
    const std::vector<CalibrationRow> rows = rows_on(fit_set, workloads, hw);
    for (const CalibrationRow& r : rows)
      sum += std::log(r.ratio()) * std::log(r.ratio());
    return sum / static_cast<double>(rows.size());
  };
  // Each constant: its name, where it sits in a hardware model, and the values it may take.
  struct Knob {
    std::string name;
    std::function<double&(Hardware&)> value;
    std::vector<double> grid;
  };
  auto grid = [](int from, int to, const std::function<double(int)>& value) {
    std::vector<double> values;
    for (int i = from; i <= to; ++i)
      values.push_back(value(i));
    return values;
  };
  const double link = base.memories.back().bandwidth_bytes_per_s;
  std::vector<Knob> knobs = {
      {base.memories.back().name + ".bandwidth_bytes_per_s",
       [](Hardware& h) -> double& { return h.memories.back().bandwidth_bytes_per_s; },
       grid(50, 100, [&](int i) { return link * i / 100.0; })},
      {"layer_overhead_s", [](Hardware& h) -> double& { return h.layer_overhead_s; },
       grid(1, 100, [](int us) { return us * 1e-6; })},
      {"mac_utilisation", [](Hardware& h) -> double& { return h.mac_utilisation; },
       grid(1, 20, [](int i) { return i / 20.0; })}};

  CalibrationFit fit;
  fit.hardware = base;
  for (Knob& knob : knobs)
    fit.constants.push_back({knob.name, knob.value(fit.hardware), 0});
  fit.objective_before = objective(base);
  double best = fit.objective_before;
  for (int round = 0; round < 3; ++round) {
    for (Knob& knob : knobs) {
      Hardware trial = fit.hardware;
      double chosen = knob.value(fit.hardware);
      for (const double v : knob.grid) {
        knob.value(trial) = v;
        const double o = objective(trial);
        if (o < best) best = o, chosen = v;
      }
      knob.value(fit.hardware) = chosen;
    }
  }
  fit.objective_after = best;
  for (std::size_t k = 0; k < knobs.size(); ++k)
    fit.constants[k].after = knobs[k].value(fit.hardware);
  fit.hardware.name = name;
  fit.hardware.description = base.description + "; " + std::to_string(knobs.size()) +
                             " constants fitted on " + std::to_string(set.fit.size()) +
                             " points of " + set.source + " (memplace calibrate --fit)";
  return fit;
}

std::string calibration_csv(const std::string& chip, std::span<const CalibrationRow> rows) {
  std::string out = "chip,workload,predicted_ms,published_ms,other_column_ms,ratio,error\n";
  for (const CalibrationRow& r : rows) {
    out += chip + "," + r.workload + "," + format_significant(r.predicted_ms, 6) + "," +
           format_significant(r.published_ms, 6) + "," +
           (r.other_column_ms ? format_significant(*r.other_column_ms, 6) : std::string()) + "," +
           format_fixed(r.ratio(), 4) + "," + format_fixed(r.error(), 4) + "\n";
  }
  return out;
}

CalibrationSummary summarize(std::span<const CalibrationRow> rows) {
  CalibrationSummary s;
  s.points = rows.size();
  if (rows.empty()) return s;
  std::vector<double> errors, predicted, published, spread;
  for (const CalibrationRow& row : rows) {
    errors.push_back(row.error());
    predicted.push_back(row.predicted_ms);
    published.push_back(row.published_ms);
    if (row.other_column_ms)
      spread.push_back(std::abs(*row.other_column_ms / row.published_ms - 1));
  }
  s.median_error = median(errors);
  s.largest_error = *std::max_element(errors.begin(), errors.end());
  s.spearman = spearman(predicted, published);
  if (!spread.empty()) s.median_column_spread = median(spread);
  return s;
}

}  // namespace memplace
