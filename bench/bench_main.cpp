// The shared main of the benchmark programs: register, then let Google Benchmark parse its flags.
#include <benchmark/benchmark.h>

#include "bench/bench_main.hpp"

int main(int argc, char** argv) {
  memplace::register_benchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
