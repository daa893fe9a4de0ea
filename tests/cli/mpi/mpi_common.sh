# Sourced by the MPI tests (tests/cli/mpi_*.sh). mpirun refuses to run as root without
# --allow-run-as-root (CI runs as root) and more ranks than cores without --oversubscribe.
mpi=(mpirun --allow-run-as-root --oversubscribe)
# Under the sanitizers, no leak check in the ranks: OpenMPI keeps what MPI_Init allocates
# (open-mpi/ompi#6242) in plugins it unloads before exit, so LeakSanitizer can neither attribute
# nor suppress those reports. Every other check stays on, and the scale-out code's own leaks are
# checked in-process (tests/base/test_process_group.cpp, ranks as threads).
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
fail() { echo "FAIL: $*"; exit 1; }
