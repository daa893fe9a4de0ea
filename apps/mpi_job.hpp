// The MPI job a `memplace` process belongs to (docs/scale-out.md). MPI is started only when a
// launcher started the process (mpirun, or srun with PMI/PMIx): a plain `memplace` never
// initialises MPI and behaves as a single process.
#pragma once

#include <memory>

#include "base/parallel/process_group.hpp"

namespace memplace::cli {

class MpiJob {
 public:
  // Joins the job when launched by mpirun or srun, else stays a single process. Throws
  // InputError for srun with several tasks but no MPI launch interface (each task would run the
  // whole command alone).
  MpiJob();
  ~MpiJob();
  MpiJob(const MpiJob&) = delete;
  MpiJob& operator=(const MpiJob&) = delete;

  ProcessGroup& ranks();
  // Ends the job with this rank's exit code: waits for every rank, then leaves MPI. A rank that
  // failed (exit codes but 0 and 130, which the ranks reach together) waits at most
  // `failed_wait_seconds` for the others: after an agreed failure they all come at once; if they
  // do not, it aborts the job (MPI_Abort) rather than leave them waiting for it in a collective.
  // Returns `exit_code`.
  int finish(int exit_code, double failed_wait_seconds = 10);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace memplace::cli
