#include "model/inputs/calibration_set.hpp"

#include <algorithm>
#include <set>

#include "base/yaml_input.hpp"
#include "model/inputs/embedded.hpp"

namespace memplace {

namespace {

std::optional<double> optional_ms(const YamlInput& in, const YAML::Node& node,
                                  const std::string& key, const std::string& field) {
  const YAML::Node n = in.optional(node, key, field);
  if (!n.IsDefined()) return std::nullopt;
  return in.positive(n, field + "." + key);
}

CalibrationPoint parse_point(const YamlInput& in, const YAML::Node& node,
                             const std::string& field) {
  in.require_map(node, field);
  in.reject_unknown_keys(
      node, {"workload", "published", "published_ms", "other_column_ms", "model"}, field);
  CalibrationPoint p;
  p.workload = in.string(in.require(node, "workload", field), field + ".workload");
  p.published = in.string(in.require(node, "published", field), field + ".published");
  p.published_ms = in.positive(in.require(node, "published_ms", field), field + ".published_ms");
  p.other_column_ms = optional_ms(in, node, "other_column_ms", field);
  p.model = in.string(in.require(node, "model", field), field + ".model");
  return p;
}

NotAPoint parse_not_point(const YamlInput& in, const YAML::Node& node, const std::string& field) {
  in.require_map(node, field);
  in.reject_unknown_keys(node, {"published", "published_ms", "other_column_ms", "why"}, field);
  NotAPoint p;
  p.published = in.string(in.require(node, "published", field), field + ".published");
  p.published_ms = optional_ms(in, node, "published_ms", field);
  p.other_column_ms = optional_ms(in, node, "other_column_ms", field);
  p.why = in.string(in.require(node, "why", field), field + ".why");
  return p;
}

}  // namespace

CalibrationSet parse_calibration_set(std::string_view text, std::string origin) {
  const YamlInput in(text, std::move(origin));
  const YAML::Node& root = in.root();
  in.require_map(root, "document");
  in.reject_unknown_keys(
      root, {"chip", "source", "column", "other_column", "points", "not_points", "fit"}, "");
  CalibrationSet set;
  set.chip = in.string(in.require(root, "chip", ""), "chip");
  set.source = in.string(in.require(root, "source", ""), "source");
  set.column = in.string(in.require(root, "column", ""), "column");
  if (const YAML::Node n = in.optional(root, "other_column", ""); n.IsDefined())
    set.other_column = in.string(n, "other_column");
  const YAML::Node points = in.require(root, "points", "");
  in.require_sequence(points, "points");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::string field = "points[" + std::to_string(i) + "]";
    set.points.push_back(parse_point(in, points[i], field));
    if (!seen.insert(set.points.back().workload).second)
      in.fail(points[i], field + ".workload", "'" + set.points.back().workload + "' twice");
  }
  if (const YAML::Node fit = in.optional(root, "fit", ""); fit.IsDefined()) {
    in.require_sequence(fit, "fit");
    for (std::size_t i = 0; i < fit.size(); ++i) {
      const std::string field = "fit[" + std::to_string(i) + "]";
      set.fit.push_back(in.string(fit[i], field));
      if (!seen.count(set.fit.back()))
        in.fail(fit[i], field, "'" + set.fit.back() + "' is not a point's workload");
    }
  }
  if (const YAML::Node rest = in.optional(root, "not_points", ""); rest.IsDefined()) {
    in.require_sequence(rest, "not_points");
    for (std::size_t i = 0; i < rest.size(); ++i)
      set.not_points.push_back(
          parse_not_point(in, rest[i], "not_points[" + std::to_string(i) + "]"));
  }
  return set;
}

bool CalibrationSet::is_fit_point(const std::string& workload) const {
  return std::find(fit.begin(), fit.end(), workload) != fit.end();
}

CalibrationSet load_calibration_set(std::string_view name_or_path) {
  const ShippedOrFile in =
      locate_shipped_or_file(embedded_calibration_sets(), "workloads/calibration",
                             "calibration set", "calibration set", name_or_path);
  return in.shipped ? parse_calibration_set(in.shipped->text, in.origin)
                    : parse_calibration_set(YamlInput::read_file(in.path), in.path.string());
}

std::vector<std::string> embedded_calibration_set_names() {
  return embedded_names(embedded_calibration_sets());
}

}  // namespace memplace
