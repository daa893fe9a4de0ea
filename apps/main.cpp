// The `memplace` program: everything lives in run_cli (apps/cli.cpp) so tests can call it; under
// mpirun or srun, one rank of an MPI job (apps/mpi_job.hpp).
#include <iostream>
#include <optional>

#include "apps/cli.hpp"
#include "apps/mpi_job.hpp"
#include "base/errors.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::optional<memplace::cli::MpiJob> job;
  try {
    job.emplace();
  } catch (const memplace::InputError& e) {
    std::cerr << "memplace: " << e.what() << "\n";
    return memplace::cli::kExitBadInput;
  }
  return job->finish(memplace::cli::run_cli(args, std::cout, std::cerr, job->ranks()));
}
