#include "apps/shared/progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "apps/shared/stop_signals.hpp"
#include "base/number_format.hpp"

namespace memplace::cli {

bool is_terminal(int fd) {
  return ::isatty(fd) == 1;
}

bool PeriodicLines::due(double seconds) {
  if (seconds < next_) return false;
  next_ = (std::floor(seconds / period_) + 1) * period_;
  return true;
}

ProgressDisplay::ProgressDisplay(std::ostream& out, bool terminal, std::string label)
    : out_(out), terminal_(terminal), label_(std::move(label)) {}

void ProgressDisplay::update(std::uint64_t done, std::uint64_t total, double best_speedup,
                             double seconds, const std::string& status) {
  const double fraction = total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
  const double eta = rate > 0 ? static_cast<double>(total - done) / rate : 0.0;
  char numbers[160];
  std::snprintf(numbers, sizeof numbers, "%llu/%llu evals  best %.4fx  %.0f evals/s  ETA %s",
                static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                best_speedup, rate, format_duration(eta).c_str());
  if (terminal_) {
    const auto now = std::chrono::steady_clock::now();
    if (drawn_ && done < total && now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    constexpr int kWidth = 24;
    const int filled = static_cast<int>(fraction * kWidth);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(kWidth, '.');
    out_ << "\r" << label_ << " [" << bar << "] " << numbers;
    if (!status.empty()) out_ << "  " << status;
    out_ << "\x1b[K" << std::flush;  // clear what a longer previous line left
    drawn_ = true;
    return;
  }
  const int decile = static_cast<int>(fraction * 10);
  if (decile == last_decile_) return;
  last_decile_ = decile;
  out_ << label_ << " " << static_cast<int>(fraction * 100) << "%: " << numbers;
  if (!status.empty()) out_ << "  " << status;
  out_ << "\n" << std::flush;
}

void ProgressDisplay::finish() {
  if (terminal_ && drawn_) out_ << "\n" << std::flush;
}

agents::TrainResult run_with_progress(agents::Trainer& trainer, bool quiet, std::ostream& err,
                                      int ranks) {
  // With several ranks, each scores about 1/ranks of every batch.
  const std::string label =
      trainer.config().agent + (ranks > 1 ? " (" + std::to_string(ranks) + " ranks)" : "");
  ProgressDisplay display(err, is_terminal(2), label);
  const StopOnSignals signals;
  const agents::TrainResult result = trainer.run(
      [&](const agents::TrainProgress& p) {
        if (!quiet)
          display.update(p.evaluations, p.budget, p.best_speedup, p.wall_seconds, p.agent_status);
      },
      [] { return stop_requested(); });
  display.finish();
  return result;
}

}  // namespace memplace::cli
