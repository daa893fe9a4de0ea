// The processes one command runs on: a single one (the default), or the ranks of an MPI job
// (apps/mpi_job.hpp, docs/scale-out.md). The libraries see only this interface, so they
// build and test without MPI; the trainer splits each batch's evaluations over the ranks and the
// table splits its runs.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace memplace {

class ProcessGroup {
 public:
  virtual ~ProcessGroup() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every rank's `mine`, in rank order. A collective: every rank calls it, as often as the others.
  virtual std::vector<std::string> all_gather(const std::string& mine) = 0;

  // Rank 0 writes the shared files and prints the progress.
  bool leader() const { return rank() == 0; }
};

// One process: rank 0 of 1.
ProcessGroup& single_process();

// Where run_agreed runs its step.
enum class OnRanks { every, leader_only };

// Runs `step` (on every rank, or on rank 0 only), then tells every rank how it went on all of
// them: if it failed anywhere, every rank throws, its own error or the lowest failing rank's
// ("rank 1 of 2: ...", an InputError staying one). So a failure stops every rank at the same point
// instead of leaving the others waiting in the next collective. Without failures it costs one
// all_gather.
void run_agreed(ProcessGroup& group, OnRanks where, const std::function<void()>& step);

// Throws the same InputError on every rank unless every rank passes the same `text` (its
// config, say): "rank <r> of <n> <complaint>", naming the first rank that differs from rank 0.
// A collective.
void require_same_on_every_rank(ProcessGroup& group, const std::string& text,
                                const std::string& complaint);

// The items [begin, end) of `count` that rank `rank` of `size` takes: contiguous blocks in rank
// order, the first count % size ranks one item more, so the blocks joined in rank order are the
// whole.
struct Share {
  std::size_t begin = 0;
  std::size_t end = 0;
};
Share share_of(std::size_t count, int rank, int size);

}  // namespace memplace
