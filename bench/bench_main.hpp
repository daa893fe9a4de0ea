// Each benchmark program defines register_benchmarks(); bench_main.cpp runs them.
#pragma once

namespace memplace {
// Registers the program's benchmarks with Google Benchmark (called once, before they run).
void register_benchmarks();
}  // namespace memplace
