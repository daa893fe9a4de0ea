// memplace's latencies held against published measurements (docs/calibration.md): for each point
// of a calibration set, the latency of memplace's compiler mapping of its workload on the set's
// chip under cost model v1 (the streaming dynamics: the compiler keeps what fits on chip and a
// DMA streams the rest, as the Edge TPU compiler's parameter caching does), beside the published
// time; per set, the median and largest error and the rank correlation.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/inputs/calibration_set.hpp"
#include "model/model_spec.hpp"

namespace memplace {

struct CalibrationRow {
  std::string workload;
  std::string published;
  bool fit_point = false;     // named by the set as a point a fit may use
  bool fits_on_chip = false;  // its weights fit in the chip's fastest memory
  double predicted_ms = 0;
  double published_ms = 0;
  std::optional<double> other_column_ms;
  // predicted / published, and its distance from 1: |predicted / published - 1|.
  double ratio() const { return predicted_ms / published_ms; }
  double error() const;
};

struct CalibrationSummary {
  std::size_t points = 0;
  double median_error = 0;
  double largest_error = 0;
  double spearman = 0;  // rank correlation of predicted and published times
  // The published figures' own spread: the median of |other column / column - 1| over the points
  // that have both (none: empty).
  std::optional<double> median_column_spread;
};

// Scores every point of `set` on `hardware` (a shipped name or file; default: the set's chip).
std::vector<CalibrationRow> calibration_rows(const CalibrationSet& set,
                                             const std::string& hardware = "");
std::vector<CalibrationRow> calibration_rows(const CalibrationSet& set, const Hardware& hardware);
CalibrationSummary summarize(std::span<const CalibrationRow> rows);
// The rows a summary is stated over: the held-out points (not fit points), and of those the ones
// whose weights fit on chip.
std::vector<CalibrationRow> held_out(std::span<const CalibrationRow> rows);
std::vector<CalibrationRow> on_chip(std::span<const CalibrationRow> rows);

// A constant of the hardware model a fit sets, before and after.
struct FittedConstant {
  std::string name;  // as the hardware file names it
  double before = 0;
  double after = 0;
};
struct CalibrationFit {
  Hardware hardware;  // the base with the fitted constants
  std::vector<FittedConstant> constants;
  double objective_before = 0;  // mean squared log(predicted / published) over the fit points
  double objective_after = 0;
};
// Fits the constants the hardware files mark as estimates — the slowest memory's bandwidth (a
// link's payload rate), the per-layer overhead and the MAC utilisation — on the set's fit points
// alone: three rounds of coordinate descent, each constant set in turn to the best value of a fixed
// grid (bandwidth 0.50 to 1.00 of the base in steps of 0.01, overhead 1 to 100 us in steps of
// 1 us, utilisation 0.05 to 1.00 in steps of 0.05; ties: the first in grid order), minimising the
// mean squared log ratio. Deterministic. The fitted model is named `name`, its description says
// what was fitted to what. InputError when the set names no fit point.
CalibrationFit fit_constants(const CalibrationSet& set, const Hardware& base,
                             const std::string& name);

// The rows as CSV (chip, workload, predicted_ms, published_ms, other_column_ms, ratio, error),
// with a header line: what `memplace calibrate --csv` writes and the golden file
// docs/results/calibration/<chip>.csv holds.
std::string calibration_csv(const std::string& chip, std::span<const CalibrationRow> rows);

// Spearman's rank correlation (ties take their average rank); 0 when either side is constant.
// std::invalid_argument for spans of different lengths.
double spearman(std::span<const double> a, std::span<const double> b);
// The median (the mean of the middle two for an even count); std::invalid_argument when empty.
double median(std::vector<double> values);

}  // namespace memplace
