# Sourced by the MPI tests (tests/mpi_*.sh). mpirun refuses to run as root without
# --allow-run-as-root (CI runs as root) and more ranks than cores without --oversubscribe.
# OpenMPI keeps what it allocates in MPI_Init until exit: under the sanitizers LeakSanitizer is
# told to ignore OpenMPI's own libraries (tests/lsan-openmpi.supp); ours are still checked.
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lsan-openmpi.supp:print_suppressions=0"
mpi=(mpirun --allow-run-as-root --oversubscribe)
fail() { echo "FAIL: $*"; exit 1; }
