// Work split over the ranks item by item, whose results every rank needs (docs/scale-out.md):
// item i belongs to rank i % ranks, which alone works it out and sends what the others need of
// it as raw bytes. Every rank runs this same build, so the bytes need no format; the lengths are
// still checked. Used by the sac learner (agents/sac/sac_learner.hpp: a critic per rank).
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>

#include "base/parallel/process_group.hpp"

namespace memplace {

// Whether item `item` belongs to this rank.
bool owns(const ProcessGroup& ranks, std::size_t item);

// Appends raw bytes to a rank's message.
void append_bytes(std::string& out, const void* data, std::size_t size);
void append_bytes(std::string& out, std::span<const float> values);

// Reads another rank's message in the order it was written; throws std::logic_error if it is
// shorter or longer than the reads.
class RankMessage {
 public:
  RankMessage(const std::string& bytes, std::size_t rank) : bytes_(bytes), rank_(rank) {}
  void take(void* out, std::size_t size);
  void take(std::span<float> out) { take(out.data(), out.size_bytes()); }
  void expect_end() const;

 private:
  [[noreturn]] void fail(const char* what) const;
  const std::string& bytes_;
  std::size_t at_ = 1;  // after the status byte
  std::size_t rank_;
};

// A collective. Each rank runs `work(i, message)` for the items it owns, in order, appending
// what the others need of item i; then `take(i, message)` for every item of the other ranks, in
// item order. A rank whose work throws sends its error instead, and then every rank throws
// std::runtime_error "rank <r> of <n>: <error>" (the lowest failing rank), rather than waiting
// in the next gather.
void exchange_by_owner(ProcessGroup& ranks, std::size_t items,
                       const std::function<void(std::size_t, std::string&)>& work,
                       const std::function<void(std::size_t, RankMessage&)>& take);

}  // namespace memplace
