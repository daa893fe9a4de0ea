#include "experiments/charts/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "base/number_format.hpp"
#include "base/portable_math.hpp"

namespace memplace::experiments {
namespace {

// A colour-blind-friendly palette (Okabe-Ito), then greys.
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
                                    "#56B4E9", "#F0E442", "#000000", "#777777", "#BBBBBB"};
constexpr std::size_t kColourCount = sizeof kColours / sizeof kColours[0];

const char* colour(std::size_t k) {
  return kColours[k % kColourCount];
}

std::string num(double value) {
  return format_significant(value, 6);
}

std::string px(double value) {
  return format_fixed(value, 2);
}

// The largest 10^k <= raw (raw > 0), from exact powers of ten rather than libm's log10 and pow,
// whose last bits vary with the CPU (base/portable_math.hpp): the figures are the same everywhere.
double power_of_ten_below(double raw) {
  double up = 1.0;
  if (raw >= 1.0) {
    while (up * 10.0 <= raw)
      up *= 10.0;
    return up;
  }
  while (1.0 / up > raw)
    up *= 10.0;
  return 1.0 / up;
}

// Tick step of about `target` ticks over `span`: 1, 2 or 5 times a power of ten.
double nice_step(double span, int target) {
  const double raw = span / target;
  const double power = power_of_ten_below(raw);
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw) return m * power;
  return 10 * power;
}

// Data attributes keep 10 significant digits (the CSVs have 9 decimals).
std::string join(const std::vector<double>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? " " : "") + format_significant(values[i], 10);
  return out;
}

void check_series(const LineSeries& s) {
  auto same = [&](const std::vector<double>& v, bool optional) {
    return (optional && v.empty()) || v.size() == s.x.size();
  };
  if (!same(s.y, false) || !same(s.low, true) || !same(s.high, true) ||
      s.low.empty() != s.high.empty())
    throw std::invalid_argument("chart series '" + s.name + "': x, y and band differ in length");
  for (const auto* v : {&s.x, &s.y, &s.low, &s.high})
    for (double d : *v)
      if (!std::isfinite(d))
        throw std::invalid_argument("chart series '" + s.name + "': a non-finite value");
}

// The opening of a grid's, heat map's or scatter's document: its size, a white page and the
// title; `attributes` go on the <svg> element.
void open_chart_document(std::ostringstream& out, double width, double height,
                         const std::string& title, std::string_view attributes) {
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << px(width) << "\" height=\""
      << px(height) << "\" viewBox=\"0 0 " << px(width) << " " << px(height)
      << "\" font-family=\"sans-serif\" font-size=\"12\"" << attributes << ">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << px(width / 2) << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">"
      << xml_escape(title) << "</text>\n";
}

// The plot's frame and its two axis labels (x under the plot, y turned along its left side).
void frame_and_axis_labels(std::ostringstream& out, double left, double top, double plot_w,
                           double plot_h, double height, const std::string& x_label,
                           const std::string& y_label) {
  out << "<rect x=\"" << px(left) << "\" y=\"" << px(top) << "\" width=\"" << px(plot_w)
      << "\" height=\"" << px(plot_h) << "\" fill=\"none\" stroke=\"#333333\"/>\n"
      << "<text x=\"" << px(left + plot_w / 2) << "\" y=\"" << px(height - 12)
      << "\" text-anchor=\"middle\">" << xml_escape(x_label) << "</text>\n"
      << "<text transform=\"translate(16 " << px(top + plot_h / 2)
      << ") rotate(-90)\" text-anchor=\"middle\">" << xml_escape(y_label) << "</text>\n";
}
}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string render_line_chart(const LineChart& chart) {
  for (const LineSeries& s : chart.series)
    check_series(s);
  for (const ReferenceLine& r : chart.references)
    if (!std::isfinite(r.y))
      throw std::invalid_argument("line chart: reference line '" + r.name + "' is not finite");
  // Data ranges.
  double x0 = 0, x1 = 1, y0 = chart.y_min, y1 = chart.y_max;
  bool any = false;
  double ylo = 0, yhi = 1;
  for (const LineSeries& s : chart.series) {
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      const double lo = s.low.empty() ? s.y[i] : std::min(s.y[i], s.low[i]);
      const double hi = s.high.empty() ? s.y[i] : std::max(s.y[i], s.high[i]);
      if (!any) {
        x0 = x1 = s.x[i];
        ylo = lo;
        yhi = hi;
        any = true;
      }
      x0 = std::min(x0, s.x[i]);
      x1 = std::max(x1, s.x[i]);
      ylo = std::min(ylo, lo);
      yhi = std::max(yhi, hi);
    }
  }
  if (!(chart.y_min < chart.y_max)) {
    const double pad = std::max(1e-9, (yhi - ylo) * 0.05);
    y0 = ylo - pad;
    y1 = yhi + pad;
  }
  if (!(x0 < x1)) x1 = x0 + 1;

  const double width = 760, height = 440;
  const double left = 70, right = 190, top = 40, bottom = 55;
  const double plot_w = width - left - right, plot_h = height - top - bottom;
  auto sx = [&](double x) { return left + (x - x0) / (x1 - x0) * plot_w; };
  auto sy = [&](double y) { return top + (y1 - y) / (y1 - y0) * plot_h; };

  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << " " << height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << width / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">"
      << xml_escape(chart.title) << "</text>\n";
  // Axes, grid and ticks.
  out << "<g class=\"axes\" data-x-min=\"" << join({x0}) << "\" data-x-max=\"" << join({x1})
      << "\" data-y-min=\"" << join({y0}) << "\" data-y-max=\"" << join({y1}) << "\" data-left=\""
      << px(left) << "\" data-top=\"" << px(top) << "\" data-width=\"" << px(plot_w)
      << "\" data-height=\"" << px(plot_h) << "\">\n";
  const double xstep = nice_step(x1 - x0, 6), ystep = nice_step(y1 - y0, 6);
  for (double t = std::ceil(x0 / xstep) * xstep; t <= x1 + 1e-9 * xstep; t += xstep)
    out << "<line x1=\"" << px(sx(t)) << "\" y1=\"" << px(top) << "\" x2=\"" << px(sx(t))
        << "\" y2=\"" << px(top + plot_h) << "\" stroke=\"#eeeeee\"/>"
        << "<text x=\"" << px(sx(t)) << "\" y=\"" << px(top + plot_h + 16)
        << "\" text-anchor=\"middle\">" << num(t) << "</text>\n";
  for (double t = std::ceil(y0 / ystep) * ystep; t <= y1 + 1e-9 * ystep; t += ystep)
    out << "<line x1=\"" << px(left) << "\" y1=\"" << px(sy(t)) << "\" x2=\"" << px(left + plot_w)
        << "\" y2=\"" << px(sy(t)) << "\" stroke=\"#eeeeee\"/>"
        << "<text x=\"" << px(left - 6) << "\" y=\"" << px(sy(t) + 4) << "\" text-anchor=\"end\">"
        << num(t) << "</text>\n";
  frame_and_axis_labels(out, left, top, plot_w, plot_h, height, chart.x_label, chart.y_label);
  out << "</g>\n";
  // Values outside a fixed y range are clipped to the plot area.
  out << "<defs><clipPath id=\"plot-area\"><rect x=\"" << px(left) << "\" y=\"" << px(top)
      << "\" width=\"" << px(plot_w) << "\" height=\"" << px(plot_h) << "\"/></clipPath></defs>\n";
  // Series: band, line, legend entry.
  for (std::size_t k = 0; k < chart.series.size(); ++k) {
    const LineSeries& s = chart.series[k];
    const char* stroke = colour(s.colour >= 0 ? static_cast<std::size_t>(s.colour) : k);
    out << "<g class=\"series\" data-name=\"" << xml_escape(s.name) << "\" data-x=\"" << join(s.x)
        << "\" data-y=\"" << join(s.y) << "\"";
    if (!s.low.empty())
      out << " data-low=\"" << join(s.low) << "\" data-high=\"" << join(s.high) << "\"";
    out << ">\n";
    if (!s.low.empty()) {
      out << "<polygon class=\"band\" clip-path=\"url(#plot-area)\" fill=\"" << stroke
          << "\" fill-opacity=\"0.18\" points=\"";
      for (std::size_t i = 0; i < s.x.size(); ++i)
        out << px(sx(s.x[i])) << "," << px(sy(s.high[i])) << " ";
      for (std::size_t i = s.x.size(); i-- > 0;)
        out << px(sx(s.x[i])) << "," << px(sy(s.low[i])) << " ";
      out << "\"/>\n";
    }
    out << "<polyline class=\"line\" clip-path=\"url(#plot-area)\" fill=\"none\" stroke=\""
        << stroke << "\" stroke-width=\"2\"" << (s.dashed ? " stroke-dasharray=\"6 4\"" : "")
        << " points=\"";
    for (std::size_t i = 0; i < s.x.size(); ++i)
      out << (i ? " " : "") << px(sx(s.x[i])) << "," << px(sy(s.y[i]));
    out << "\"/>\n";
    const double ly = top + 10 + 20 * static_cast<double>(k);
    out << "<line x1=\"" << px(left + plot_w + 14) << "\" y1=\"" << px(ly) << "\" x2=\""
        << px(left + plot_w + 40) << "\" y2=\"" << px(ly) << "\" stroke=\"" << stroke
        << "\" stroke-width=\"3\"" << (s.dashed ? " stroke-dasharray=\"6 4\"" : "") << "/>"
        << "<text x=\"" << px(left + plot_w + 46) << "\" y=\"" << px(ly + 4) << "\">"
        << xml_escape(s.name) << "</text>\n</g>\n";
  }
  // Reference lines: over the series, dashed grey, named at the right end inside the plot.
  for (const ReferenceLine& r : chart.references) {
    out << "<g class=\"reference\" data-name=\"" << xml_escape(r.name) << "\" data-y=\""
        << join({r.y}) << "\">\n"
        << "<line clip-path=\"url(#plot-area)\" x1=\"" << px(left) << "\" y1=\"" << px(sy(r.y))
        << "\" x2=\"" << px(left + plot_w) << "\" y2=\"" << px(sy(r.y))
        << "\" stroke=\"#555555\" stroke-width=\"1.5\" stroke-dasharray=\"3 3\"/>";
    if (r.y >= y0 && r.y <= y1)
      out << "<text x=\"" << px(left + plot_w - 4) << "\" y=\"" << px(sy(r.y) - 4)
          << "\" text-anchor=\"end\" fill=\"#555555\">" << xml_escape(r.name) << " " << num(r.y)
          << "</text>";
    out << "\n</g>\n";
  }
  out << "</svg>\n";
  return out.str();
}

std::string render_category_grid(const CategoryGrid& grid) {
  const std::size_t rows = grid.row_labels.size();
  if (grid.cells.size() != rows)
    throw std::invalid_argument("category grid: " + std::to_string(grid.cells.size()) +
                                " rows of cells for " + std::to_string(rows) + " labels");
  const std::size_t columns = rows == 0 ? 0 : grid.cells.front().size();
  for (const auto& row : grid.cells) {
    if (row.size() != columns) throw std::invalid_argument("category grid: ragged rows");
    for (std::size_t c : row)
      if (c >= grid.categories.size())
        throw std::invalid_argument("category grid: a cell outside the categories");
  }
  const double left = 190, top = 40, cell_h = 26, legend_h = 40;
  const double plot_w = std::max(400.0, std::min(1400.0, 4.0 * static_cast<double>(columns)));
  const double cell_w = columns == 0 ? 0 : plot_w / static_cast<double>(columns);
  const double width = left + plot_w + 20;
  const double height = top + cell_h * static_cast<double>(rows) + 30 + legend_h;
  std::ostringstream out;
  open_chart_document(out, width, height, grid.title, " shape-rendering=\"crispEdges\"");
  for (std::size_t r = 0; r < rows; ++r) {
    const double y = top + cell_h * static_cast<double>(r);
    out << "<g class=\"row\" data-label=\"" << xml_escape(grid.row_labels[r]) << "\" data-cells=\"";
    for (std::size_t c = 0; c < columns; ++c)
      out << (c ? " " : "") << grid.cells[r][c];
    out << "\">\n<text x=\"" << px(left - 8) << "\" y=\"" << px(y + cell_h / 2 + 4)
        << "\" text-anchor=\"end\">" << xml_escape(grid.row_labels[r]) << "</text>\n";
    for (std::size_t c = 0; c < columns; ++c)
      out << "<rect x=\"" << px(left + cell_w * static_cast<double>(c)) << "\" y=\"" << px(y + 2)
          << "\" width=\"" << px(cell_w) << "\" height=\"" << px(cell_h - 4) << "\" fill=\""
          << colour(grid.cells[r][c]) << "\"/>";
    out << "\n</g>\n";
  }
  const double axis_y = top + cell_h * static_cast<double>(rows) + 16;
  out << "<text x=\"" << px(left + plot_w / 2) << "\" y=\"" << px(axis_y)
      << "\" text-anchor=\"middle\">" << xml_escape(grid.x_label) << "</text>\n";
  for (std::size_t k = 0; k < grid.categories.size(); ++k) {
    const double x = left + 120 * static_cast<double>(k);
    out << "<rect x=\"" << px(x) << "\" y=\"" << px(axis_y + 14) << "\" width=\"14\" height=\"14\" "
        << "fill=\"" << colour(k) << "\"/><text x=\"" << px(x + 20) << "\" y=\"" << px(axis_y + 25)
        << "\">" << xml_escape(grid.categories[k]) << "</text>\n";
  }
  out << "</svg>\n";
  return out.str();
}

namespace {

// White at 0 to the palette's blue (#0072B2) at 1, linearly in RGB.
std::string shade(double t) {
  const double c = std::clamp(t, 0.0, 1.0);
  auto channel = [&](int full) {
    return static_cast<int>(std::lround(255.0 + (full - 255.0) * c));
  };
  char text[8];
  std::snprintf(text, sizeof text, "#%02X%02X%02X", channel(0x00), channel(0x72), channel(0xB2));
  return text;
}

}  // namespace

std::string render_heat_map(const HeatMap& map) {
  const std::size_t rows = map.row_labels.size(), columns = map.column_labels.size();
  if (map.values.size() != rows) throw std::invalid_argument("heat map: rows differ from labels");
  for (const auto& row : map.values)
    if (row.size() != columns) throw std::invalid_argument("heat map: columns differ from labels");
  if (!(map.low < map.high)) throw std::invalid_argument("heat map: low must be below high");
  std::size_t longest = 0;
  for (const std::string& label : map.column_labels)
    longest = std::max(longest, label.size());
  const double left = 130, top = 40, cell_w = 46, cell_h = 24;
  const double labels_h = 20 + 5.2 * static_cast<double>(longest);  // slanted at 45 degrees
  const double width =
      std::max(400.0, left + cell_w * static_cast<double>(columns) + labels_h * 0.75 + 20);
  const double height = top + cell_h * static_cast<double>(rows) + labels_h;
  std::ostringstream out;
  open_chart_document(out, width, height, map.title, "");
  for (std::size_t r = 0; r < rows; ++r) {
    const double y = top + cell_h * static_cast<double>(r);
    out << "<g class=\"row\" data-label=\"" << xml_escape(map.row_labels[r]) << "\" data-values=\""
        << join(map.values[r]) << "\">\n<text x=\"" << px(left - 8) << "\" y=\""
        << px(y + cell_h / 2 + 4) << "\" text-anchor=\"end\">" << xml_escape(map.row_labels[r])
        << "</text>\n";
    for (std::size_t c = 0; c < columns; ++c) {
      const double v = map.values[r][c], x = left + cell_w * static_cast<double>(c);
      const bool known = std::isfinite(v);
      const double t = known ? (v - map.low) / (map.high - map.low) : 0;
      out << "<rect x=\"" << px(x) << "\" y=\"" << px(y) << "\" width=\"" << px(cell_w)
          << "\" height=\"" << px(cell_h) << "\" fill=\"" << (known ? shade(t) : "#DDDDDD")
          << "\" stroke=\"white\"/>";
      if (known)
        out << "<text x=\"" << px(x + cell_w / 2) << "\" y=\"" << px(y + cell_h / 2 + 4)
            << "\" text-anchor=\"middle\" fill=\"" << (t > 0.6 ? "white" : "black") << "\">"
            << format_fixed(100 * v, 0) << "</text>";
    }
    out << "\n</g>\n";
  }
  const double bottom = top + cell_h * static_cast<double>(rows) + 10;
  for (std::size_t c = 0; c < columns; ++c) {
    const double x = left + cell_w * (static_cast<double>(c) + 0.5);
    out << "<text transform=\"translate(" << px(x) << "," << px(bottom) << ") rotate(45)\">"
        << xml_escape(map.column_labels[c]) << "</text>\n";
  }
  out << "</svg>\n";
  return out.str();
}

std::string render_log_scatter(const ScatterChart& chart) {
  // Decades that hold every point, on both axes alike (so y = x is the diagonal).
  double lo = 0, hi = 0;
  bool any = false;
  for (const ScatterSeries& s : chart.series) {
    if (s.y.size() != s.x.size() || (!s.labels.empty() && s.labels.size() != s.x.size()))
      throw std::invalid_argument("scatter series '" + s.name + "': lengths differ");
    for (const auto* v : {&s.x, &s.y}) {
      for (const double d : *v) {
        if (!std::isfinite(d) || d <= 0)
          throw std::invalid_argument("scatter series '" + s.name +
                                      "': a value that is not finite and positive");
        lo = any ? std::min(lo, d) : d;
        hi = any ? std::max(hi, d) : d;
        any = true;
      }
    }
  }
  const double d0 = any ? power_of_ten_below(lo) : 1;
  double d1 = any ? power_of_ten_below(hi) * 10 : 10;
  if (!(d0 < d1)) d1 = d0 * 10;
  const double span = portable::log(d1 / d0);
  const double size = 480, left = 70, top = 40, right = 200, bottom = 55;
  const double width = left + size + right, height = top + size + bottom;
  auto sx = [&](double x) { return left + portable::log(x / d0) / span * size; };
  auto sy = [&](double y) { return top + size - portable::log(y / d0) / span * size; };

  std::ostringstream out;
  open_chart_document(out, width, height, chart.title, "");
  out << "<g class=\"axes\" data-min=\"" << join({d0}) << "\" data-max=\"" << join({d1})
      << "\" data-scale=\"log\">\n";
  for (double t = d0; t <= d1 * (1 + 1e-9); t *= 10) {
    out << "<line x1=\"" << px(sx(t)) << "\" y1=\"" << px(top) << "\" x2=\"" << px(sx(t))
        << "\" y2=\"" << px(top + size) << "\" stroke=\"#eeeeee\"/>"
        << "<text x=\"" << px(sx(t)) << "\" y=\"" << px(top + size + 16)
        << "\" text-anchor=\"middle\">" << num(t) << "</text>"
        << "<line x1=\"" << px(left) << "\" y1=\"" << px(sy(t)) << "\" x2=\"" << px(left + size)
        << "\" y2=\"" << px(sy(t)) << "\" stroke=\"#eeeeee\"/>"
        << "<text x=\"" << px(left - 6) << "\" y=\"" << px(sy(t) + 4) << "\" text-anchor=\"end\">"
        << num(t) << "</text>\n";
  }
  frame_and_axis_labels(out, left, top, size, size, height, chart.x_label, chart.y_label);
  out << "</g>\n";
  if (chart.diagonal)
    out << "<line class=\"diagonal\" x1=\"" << px(left) << "\" y1=\"" << px(top + size)
        << "\" x2=\"" << px(left + size) << "\" y2=\"" << px(top)
        << "\" stroke=\"#555555\" stroke-dasharray=\"3 3\"/>\n";
  for (std::size_t k = 0; k < chart.series.size(); ++k) {
    const ScatterSeries& s = chart.series[k];
    out << "<g class=\"series\" data-name=\"" << xml_escape(s.name) << "\" data-x=\"" << join(s.x)
        << "\" data-y=\"" << join(s.y) << "\" fill=\"" << colour(k) << "\">\n";
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      out << "<circle cx=\"" << px(sx(s.x[i])) << "\" cy=\"" << px(sy(s.y[i])) << "\" r=\"4\"/>";
      if (!s.labels.empty())
        out << "<text x=\"" << px(sx(s.x[i]) + 6) << "\" y=\"" << px(sy(s.y[i]) - 4)
            << "\" font-size=\"9\">" << xml_escape(s.labels[i]) << "</text>";
      out << "\n";
    }
    const double ly = top + 10 + 20 * static_cast<double>(k);
    out << "<circle cx=\"" << px(left + size + 24) << "\" cy=\"" << px(ly) << "\" r=\"4\"/>"
        << "<text x=\"" << px(left + size + 34) << "\" y=\"" << px(ly + 4) << "\">"
        << xml_escape(s.name) << "</text>\n</g>\n";
  }
  out << "</svg>\n";
  return out.str();
}

}  // namespace memplace::experiments
