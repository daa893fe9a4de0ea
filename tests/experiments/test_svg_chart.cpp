// The log-log scatter chart (experiments/charts/svg_chart.hpp): decades that hold every point,
// points where their logarithms put them, the diagonal, bad values refused.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "experiments/charts/svg_chart.hpp"

namespace memplace::experiments {
namespace {

TEST_CASE("log scatter: decades around the points, each point at its logarithm") {
  // Points from 2 to 50: the axes run over the decades 1 to 100 (480 px square from (70, 40)),
  // so 10 sits halfway and 1 at the corner.
  const ScatterChart chart{"t", "x", "y", {{"s", {2, 10}, {50, 10}, {"a", "b"}}}, true};
  const std::string svg = render_log_scatter(chart);
  CHECK(svg.find("data-min=\"1\" data-max=\"100\"") != std::string::npos);
  CHECK(svg.find("<circle cx=\"310.00\" cy=\"280.00\" r=\"4\"/>") !=
        std::string::npos);  // (10, 10)
  CHECK(svg.find("data-x=\"2 10\" data-y=\"50 10\"") != std::string::npos);
  CHECK(svg.find(">a</text>") != std::string::npos);
  CHECK(svg.find("class=\"diagonal\" x1=\"70.00\" y1=\"520.00\" x2=\"550.00\" y2=\"40.00\"") !=
        std::string::npos);
}

TEST_CASE("log scatter: values that have no logarithm, or lengths that differ, are refused") {
  CHECK_THROWS_AS(render_log_scatter({"t", "x", "y", {{"s", {0}, {1}, {}}}, true}),
                  std::invalid_argument);
  CHECK_THROWS_AS(render_log_scatter({"t", "x", "y", {{"s", {1}, {-2}, {}}}, true}),
                  std::invalid_argument);
  CHECK_THROWS_AS(render_log_scatter({"t", "x", "y", {{"s", {1, 2}, {1}, {}}}, true}),
                  std::invalid_argument);
  CHECK_THROWS_AS(render_log_scatter({"t", "x", "y", {{"s", {1}, {1}, {"a", "b"}}}, true}),
                  std::invalid_argument);
}

}  // namespace
}  // namespace memplace::experiments
