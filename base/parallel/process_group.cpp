#include "base/parallel/process_group.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "base/errors.hpp"

namespace memplace {
namespace {

class SingleProcess final : public ProcessGroup {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::vector<std::string> all_gather(const std::string& mine) override { return {mine}; }
};

// A rank's report in run_agreed: "" when its step succeeded, else a kind letter (I: an
// InputError, E: any other failure) and the message.
std::string report_of(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const InputError& e) {
    return std::string("I") + e.what();
  } catch (const std::exception& e) {
    return std::string("E") + e.what();
  } catch (...) {
    return "Eunknown failure";
  }
}

}  // namespace

ProcessGroup& single_process() {
  static SingleProcess group;
  return group;
}

void run_agreed(ProcessGroup& group, OnRanks where, const std::function<void()>& step) {
  std::exception_ptr failure;
  if (where == OnRanks::every || group.leader()) {
    try {
      step();
    } catch (...) {
      failure = std::current_exception();
    }
  }
  if (group.size() == 1) {
    if (failure) std::rethrow_exception(failure);
    return;
  }
  const std::vector<std::string> reports =
      group.all_gather(failure ? report_of(failure) : std::string());
  if (failure) std::rethrow_exception(failure);
  for (std::size_t r = 0; r < reports.size(); ++r) {
    const std::string& report = reports[r];
    if (report.empty()) continue;
    const std::string message = "rank " + std::to_string(r) + " of " +
                                std::to_string(group.size()) + ": " + report.substr(1);
    if (report[0] == 'I') throw InputError(message);
    throw std::runtime_error(message);
  }
}

void require_same_on_every_rank(ProcessGroup& group, const std::string& text,
                                const std::string& complaint) {
  if (group.size() == 1) return;
  const std::vector<std::string> texts = group.all_gather(text);
  for (std::size_t r = 1; r < texts.size(); ++r) {
    if (texts[r] != texts[0])
      throw InputError("rank " + std::to_string(r) + " of " + std::to_string(group.size()) + " " +
                       complaint);
  }
}

Share share_of(std::size_t count, int rank, int size) {
  const auto r = static_cast<std::size_t>(rank);
  const auto k = static_cast<std::size_t>(size);
  const std::size_t base = count / k, extra = count % k;
  const std::size_t begin = r * base + std::min(r, extra);
  return Share{begin, begin + base + (r < extra ? 1 : 0)};
}

}  // namespace memplace
