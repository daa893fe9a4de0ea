// A calibration set (docs/calibration.md): published times per inference on one chip, each beside
// the workload memplace scores for the same model (workloads/calibration/<chip>.yaml, its
// workloads in workloads/calibration/workloads/). The published figures are inputs, never
// results: memplace's prediction for each point is model/calibration.hpp's.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memplace {

struct CalibrationPoint {
  std::string workload;   // a workload name (a calibration or shipped workload) or file
  std::string published;  // the model as the source names it ("MobileNet v1 (224x224)")
  double published_ms = 0;
  std::optional<double> other_column_ms;  // the source's other measurement of it, if any
  std::string model;  // how the workload relates to the model the source measured
};

// A row of the source that is not a point, with why (excluded, or not built yet).
struct NotAPoint {
  std::string published;
  std::optional<double> published_ms;
  std::optional<double> other_column_ms;
  std::string why;
};

struct CalibrationSet {
  std::string chip;  // a shipped hardware model's name
  std::string source;
  std::string column;        // which of the source's measurements published_ms is
  std::string other_column;  // which other_column_ms is (empty: none)
  std::vector<CalibrationPoint> points;
  std::vector<NotAPoint> not_points;
  // The points a fit may use (their workloads), named before fitting; the rest are held out.
  std::vector<std::string> fit;

  bool is_fit_point(const std::string& workload) const;
};

// InputError naming the file, line and field.
CalibrationSet parse_calibration_set(std::string_view text, std::string origin);
// A shipped set by its chip's name ("edge-tpu") or a file.
CalibrationSet load_calibration_set(std::string_view name_or_path);
std::vector<std::string> embedded_calibration_set_names();

}  // namespace memplace
