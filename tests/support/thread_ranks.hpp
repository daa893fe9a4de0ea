// A test double of an MPI job: `size` ranks as threads of this process, gathering through shared
// memory, so the scale-out logic (base/parallel/process_group.hpp) is tested in-process, under the
// sanitizers too. tests/mpi_*.sh test the real thing through mpirun.
#pragma once

#include <barrier>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/parallel/process_group.hpp"

namespace memplace::testing {

class ThreadRanks final : public ProcessGroup {
 public:
  struct Board {
    explicit Board(int size) : slots(static_cast<std::size_t>(size)), sync(size) {}
    std::vector<std::string> slots;
    std::barrier<> sync;
  };
  ThreadRanks(std::shared_ptr<Board> board, int rank) : board_(std::move(board)), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(board_->slots.size()); }
  std::vector<std::string> all_gather(const std::string& mine) override {
    board_->slots[static_cast<std::size_t>(rank_)] = mine;
    board_->sync.arrive_and_wait();  // every rank has posted
    std::vector<std::string> all = board_->slots;
    board_->sync.arrive_and_wait();  // every rank has read, before the next gather posts
    return all;
  }

 private:
  std::shared_ptr<Board> board_;
  int rank_;
};

// Runs body(ranks) on `size` threads, one rank each, and returns each rank's exception (null
// where it succeeded).
inline std::vector<std::exception_ptr> on_thread_ranks(
    int size, const std::function<void(ProcessGroup&)>& body) {
  auto board = std::make_shared<ThreadRanks::Board>(size);
  std::vector<std::exception_ptr> failures(static_cast<std::size_t>(size));
  std::vector<std::thread> threads;
  for (int r = 0; r < size; ++r) {
    threads.emplace_back([&, r] {
      ThreadRanks ranks(board, r);
      try {
        body(ranks);
      } catch (...) {
        failures[static_cast<std::size_t>(r)] = std::current_exception();
      }
    });
  }
  for (std::thread& t : threads)
    t.join();
  return failures;
}

// The message of a rank's exception ("" if none).
inline std::string message_of(const std::exception_ptr& failure) {
  if (!failure) return "";
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace memplace::testing
