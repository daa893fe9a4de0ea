// Progress of a long run on stderr: a redrawn bar on a terminal (evaluations, best speedup, rate,
// ETA), plain lines at every 10 % otherwise (logs, CI).
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

#include "agents/training/trainer.hpp"

namespace memplace::cli {

class ProgressDisplay {
 public:
  // `terminal`: redraw one line in place; otherwise print a line at every 10 %.
  ProgressDisplay(std::ostream& out, bool terminal, std::string label);
  void update(std::uint64_t done, std::uint64_t total, double best_speedup, double seconds,
              const std::string& status);
  void finish();

 private:
  std::ostream& out_;
  bool terminal_;
  std::string label_;
  int last_decile_ = -1;
  std::chrono::steady_clock::time_point last_draw_{};
  bool drawn_ = false;
};

// When a progress line is due where the output is not a terminal (logs, CI): the first report
// in each period of `period_seconds` — reports come at most once a second, so a period can start
// with none of them on its first whole second.
class PeriodicLines {
 public:
  explicit PeriodicLines(double period_seconds) : period_(period_seconds) {}
  // Whether a report at `seconds` since the start gets a line.
  bool due(double seconds);

 private:
  double period_;
  double next_ = 0;  // the start of the next period without a line
};

// Runs `trainer` to its end, showing its progress on `err` (unless `quiet`) and stopping it, with a
// checkpoint, on SIGINT/SIGTERM (the result says `interrupted`). For train and transfer. `ranks`:
// how many ranks share the run's evaluations (shown in the label).
agents::TrainResult run_with_progress(agents::Trainer& trainer, bool quiet, std::ostream& err,
                                      int ranks = 1);

// Whether file descriptor `fd` is a terminal.
bool is_terminal(int fd);

}  // namespace memplace::cli
