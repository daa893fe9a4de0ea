#include "apps/mpi_job.hpp"

#include <mpi.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "apps/cli.hpp"
#include "base/errors.hpp"

namespace memplace::cli {
namespace {

// Set by mpirun/orterun (OMPI_*), by srun --mpi=pmix and mpirun (PMIX_RANK), by PMI-1/2
// launchers (PMI_RANK: srun --mpi=pmi2, MPICH's hydra).
bool launched_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

int slurm_tasks() {
  const char* tasks = std::getenv("SLURM_STEP_NUM_TASKS");
  return tasks ? std::atoi(tasks) : 0;
}

// Waits for a request without spinning a core for long: MPI's blocking calls poll at 100 % CPU,
// which would take a core from the runs of the ranks sharing a machine. The first 10 ms it polls,
// yielding the core to any process that wants it (a training run's ranks meet every few
// milliseconds, and a sleep there costs more than the wait); then it sleeps between polls.
void wait_politely(MPI_Request& request) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    if (std::chrono::steady_clock::now() - start > std::chrono::milliseconds(10))
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    else
      std::this_thread::yield();
  }
}

class MpiRanks final : public ProcessGroup {
 public:
  MpiRanks() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    // The commands' collectives run on a communicator of their own, so that the end-of-job
    // barrier (MpiJob::finish) can never be taken for one of them.
    MPI_Comm_dup(MPI_COMM_WORLD, &work_);
    MPI_Comm_dup(MPI_COMM_WORLD, &exit_);
  }
  ~MpiRanks() override {
    MPI_Comm_free(&work_);
    MPI_Comm_free(&exit_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }

  std::vector<std::string> all_gather(const std::string& mine) override {
    if (mine.size() > static_cast<std::size_t>(INT_MAX))
      throw std::length_error("a rank's message exceeds 2 GiB");
    int length = static_cast<int>(mine.size());
    std::vector<int> lengths(static_cast<std::size_t>(size_));
    MPI_Request request;
    MPI_Iallgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, work_, &request);
    wait_politely(request);
    std::vector<int> offsets(lengths.size());
    long long total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
      if (total + lengths[r] > INT_MAX) throw std::length_error("the ranks' messages exceed 2 GiB");
      offsets[r] = static_cast<int>(total);
      total += lengths[r];
    }
    std::string joined(static_cast<std::size_t>(total), '\0');
    MPI_Iallgatherv(mine.data(), length, MPI_CHAR, joined.data(), lengths.data(), offsets.data(),
                    MPI_CHAR, work_, &request);
    wait_politely(request);
    std::vector<std::string> all;
    for (std::size_t r = 0; r < lengths.size(); ++r)
      all.push_back(joined.substr(static_cast<std::size_t>(offsets[r]),
                                  static_cast<std::size_t>(lengths[r])));
    return all;
  }

  // Waits for every rank at the end; false if `seconds` passed first.
  bool meet_at_exit(double seconds) {
    MPI_Request request;
    MPI_Ibarrier(exit_, &request);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
      int done = 0;
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
      if (done) return true;
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

 private:
  int rank_ = 0;
  int size_ = 1;
  MPI_Comm work_ = MPI_COMM_NULL;
  MPI_Comm exit_ = MPI_COMM_NULL;
};

}  // namespace

struct MpiJob::State {
  std::unique_ptr<MpiRanks> ranks;  // none: a single process, MPI not started
};

MpiJob::MpiJob() : state_(std::make_unique<State>()) {
  if (!launched_by_mpi_launcher()) {
    if (slurm_tasks() > 1)
      throw InputError("started by srun with " + std::to_string(slurm_tasks()) +
                       " tasks but without an MPI launch interface: every task would run the "
                       "whole command alone; use srun --mpi=pmix (docs/scale-out.md)");
    return;
  }
  // Only the main thread calls MPI; the runs' threads and OpenMP never do.
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  state_->ranks = std::make_unique<MpiRanks>();
}

MpiJob::~MpiJob() {
  if (state_->ranks) {
    state_->ranks.reset();
    MPI_Finalize();
  }
}

ProcessGroup& MpiJob::ranks() {
  if (state_->ranks) return *state_->ranks;
  return single_process();
}

int MpiJob::finish(int exit_code, double failed_wait_seconds) {
  MpiRanks* ranks = state_->ranks.get();
  if (!ranks || ranks->size() == 1) return exit_code;
  const bool together = exit_code == kExitOk || exit_code == kExitInterrupted;
  const double wait = together ? 1e12 : failed_wait_seconds;
  if (!ranks->meet_at_exit(wait)) {
    std::cerr << "memplace (rank " << ranks->rank() << " of " << ranks->size()
              << "): the other ranks did not stop with this one; ending the job\n";
    MPI_Abort(MPI_COMM_WORLD, exit_code);
  }
  return exit_code;
}

}  // namespace memplace::cli
