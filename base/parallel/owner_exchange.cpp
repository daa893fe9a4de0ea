#include "base/parallel/owner_exchange.hpp"

#include <cstring>
#include <exception>
#include <stdexcept>
#include <vector>

namespace memplace {

namespace {

// The first byte of a message: the items' bytes follow, or an error message.
constexpr char kItems = '\0', kError = '\1';

}  // namespace

bool owns(const ProcessGroup& ranks, std::size_t item) {
  return item % static_cast<std::size_t>(ranks.size()) == static_cast<std::size_t>(ranks.rank());
}

void append_bytes(std::string& out, const void* data, std::size_t size) {
  out.append(static_cast<const char*>(data), size);
}

void append_bytes(std::string& out, std::span<const float> values) {
  append_bytes(out, values.data(), values.size_bytes());
}

void RankMessage::take(void* out, std::size_t size) {
  if (at_ + size > bytes_.size()) fail("a shorter");
  std::memcpy(out, bytes_.data() + at_, size);
  at_ += size;
}

void RankMessage::expect_end() const {
  if (at_ != bytes_.size()) fail("a longer");
}

void RankMessage::fail(const char* what) const {
  throw std::logic_error("rank " + std::to_string(rank_) + " sent " + what +
                         " message than expected");
}

void exchange_by_owner(ProcessGroup& ranks, std::size_t items,
                       const std::function<void(std::size_t, std::string&)>& work,
                       const std::function<void(std::size_t, RankMessage&)>& take) {
  std::string mine(1, kItems);
  try {
    for (std::size_t i = 0; i < items; ++i) {
      if (owns(ranks, i)) work(i, mine);
    }
  } catch (const std::exception& e) {
    mine = std::string(1, kError) + e.what();
  }
  const std::vector<std::string> all = ranks.all_gather(mine);
  const std::size_t size = all.size();
  for (std::size_t r = 0; r < size; ++r) {
    if (all[r].empty() || all[r][0] != kItems)
      throw std::runtime_error("rank " + std::to_string(r) + " of " + std::to_string(size) + ": " +
                               (all[r].empty() ? "an empty message" : all[r].substr(1)));
  }
  for (std::size_t r = 0; r < size; ++r) {
    if (r == static_cast<std::size_t>(ranks.rank())) continue;
    RankMessage message(all[r], r);
    for (std::size_t i = r; i < items; i += size)
      take(i, message);
    message.expect_end();
  }
}

}  // namespace memplace
