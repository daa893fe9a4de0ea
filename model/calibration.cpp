#include "model/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "base/number_format.hpp"
#include "model/references.hpp"

namespace memplace {

namespace {

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
  std::vector<CalibrationRow> rows;
  for (const CalibrationPoint& point : set.points) {
    ModelSpec spec;
    spec.workload = point.workload;
    spec.hardware = hardware.empty() ? set.chip : hardware;
    spec.dynamics = default_dynamics(ModelVersion::v1);
    const Simulator sim = spec.build();
    const Evaluation scored = sim.evaluate(compiler_mapping(sim));
    rows.push_back({point.workload, point.published, scored.latency_s() * 1e3, point.published_ms,
                    point.other_column_ms});
  }
  return rows;
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
