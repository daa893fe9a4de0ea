#include "apps/shared/stop_signals.hpp"

#include <atomic>

namespace memplace::cli {
namespace {

std::atomic<bool> g_stop_requested{false};

extern "C" void request_stop(int) {
  g_stop_requested.store(true);
}

}  // namespace

StopOnSignals::StopOnSignals() {
  g_stop_requested.store(false);
  struct sigaction action {};
  action.sa_handler = request_stop;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &old_int_);
  sigaction(SIGTERM, &action, &old_term_);
}

StopOnSignals::~StopOnSignals() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

bool stop_requested() {
  return g_stop_requested.load();
}

}  // namespace memplace::cli
