// Self-contained SVG charts (no external tools or fonts needed to view them): a line chart with
// one line and a shaded band per series, and a coloured grid. Every series carries its data in
// data-* attributes, so that tests (and scripts) can check a plot against the numbers it shows.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace memplace::experiments {

struct LineSeries {
  std::string name;
  std::vector<double> x;
  std::vector<double> y;
  std::vector<double> low;   // band under the line (empty: none)
  std::vector<double> high;  // band over the line
  bool dashed = false;
  int colour = -1;  // palette index (-1: the series' own index)
};

// A horizontal line across the plot at a y value (a reference: the best known, a bound), drawn
// dashed in grey and named at its right end.
struct ReferenceLine {
  std::string name;
  double y = 0;
};

struct LineChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<LineSeries> series;
  std::vector<ReferenceLine> references;  // clipped like the series when outside a fixed range
  // y range: from the data unless fixed (y_min < y_max)
  double y_min = 0;
  double y_max = 0;
};

// The chart as a whole SVG document. Throws std::invalid_argument if a series' vectors differ in
// length or hold a non-finite value, or a reference line's value is not finite.
std::string render_line_chart(const LineChart& chart);

// A grid of coloured cells: rows (labelled), columns (numbered), each cell one of `categories`
// (coloured and named in the legend). `cells[r][c]` indexes `categories`.
struct CategoryGrid {
  std::string title;
  std::string x_label;
  std::vector<std::string> row_labels;
  std::vector<std::string> categories;
  std::vector<std::vector<std::size_t>> cells;
};
std::string render_category_grid(const CategoryGrid& grid);

// A grid of numbers, each cell shaded from white (at `low` or below) to blue (at `high` or above)
// and labelled with its value in percent; NaN cells are grey and unlabelled. Rows and columns are
// labelled (the column labels slanted under the grid).
struct HeatMap {
  std::string title;
  std::vector<std::string> row_labels;
  std::vector<std::string> column_labels;
  std::vector<std::vector<double>> values;  // [row][column]
  double low = 0;
  double high = 1;
};
// Throws std::invalid_argument if the values do not match the labels or low >= high.
std::string render_heat_map(const HeatMap& map);

// Points on log-log axes (decade ticks), each series its colour, a point's label beside it, and
// optionally the diagonal y = x (predicted against measured).
struct ScatterSeries {
  std::string name;
  std::vector<double> x;
  std::vector<double> y;
  std::vector<std::string> labels;  // one per point, or empty
};
struct ScatterChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<ScatterSeries> series;
  bool diagonal = true;
};
// Throws std::invalid_argument for a value that is not finite and positive, or lengths that
// differ.
std::string render_log_scatter(const ScatterChart& chart);

// Text with &, <, >, " and ' escaped for XML.
std::string xml_escape(std::string_view text);

}  // namespace memplace::experiments
