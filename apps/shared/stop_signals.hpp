// SIGINT and SIGTERM as a request to stop: long commands (train, table) poll stop_requested()
// between batches, checkpoint and exit with kExitInterrupted.
#pragma once

#include <csignal>

namespace memplace::cli {

// Installs the handlers for as long as it lives (and clears any earlier request).
class StopOnSignals {
 public:
  StopOnSignals();
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

// Whether a signal asked to stop; safe to call from any thread.
bool stop_requested();

}  // namespace memplace::cli
