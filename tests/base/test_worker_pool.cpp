// base/parallel/worker_pool.hpp: every index runs exactly once per call, whatever the sizes, the
// number of threads and the pauses between calls (which put the workers to sleep), and a pool whose
// workers sleep is destroyed cleanly.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <thread>
#include <vector>

#include "base/parallel/worker_pool.hpp"
#include "base/rng.hpp"

namespace memplace {
namespace {

// Runs `calls` calls of random sizes up to `max_n` and checks that each index ran once per call.
void check_each_index_once(int threads, int calls, std::size_t max_n, bool pause) {
  WorkerPool pool(threads);
  REQUIRE(pool.threads() == threads);
  Rng rng(static_cast<std::uint64_t>(threads) * 1000 + max_n);
  std::vector<std::atomic<int>> runs(max_n);
  for (int call = 0; call < calls; ++call) {
    const std::size_t n = rng.uniform(max_n + 1);
    for (auto& r : runs)
      r.store(0, std::memory_order_relaxed);
    pool.run(n, [&](std::size_t i) { runs[i].fetch_add(1, std::memory_order_relaxed); });
    for (std::size_t i = 0; i < max_n; ++i) {
      // Exactly once inside [0, n), never outside.
      if (runs[i].load(std::memory_order_relaxed) != (i < n ? 1 : 0)) {
        FAIL("call " << call << " (n = " << n << "): index " << i << " ran " << runs[i].load()
                     << " times");
      }
    }
    if (pause && call % 50 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

TEST_CASE("worker pool: every index runs exactly once per call") {
  for (const int threads : {1, 2, 3, 5}) {
    CAPTURE(threads);
    check_each_index_once(threads, 2000, 40, /*pause=*/false);
    check_each_index_once(threads, 300, 1000, /*pause=*/true);  // workers sleep between some calls
  }
}

TEST_CASE("worker pool: the calls' writes are visible to the caller, and sleeping workers stop") {
  std::vector<std::size_t> out(257, 0);
  {
    WorkerPool pool(2);
    for (std::size_t round = 1; round <= 100; ++round) {
      pool.run(out.size(), [&](std::size_t i) { out[i] = i * round; });
      for (std::size_t i = 0; i < out.size(); ++i)
        REQUIRE(out[i] == i * round);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // past the spin: workers sleep
    pool.run(out.size(), [&](std::size_t i) { out[i] = 7; });   // and wake up
    for (const std::size_t v : out)
      REQUIRE(v == 7);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }  // destroyed while its worker sleeps: must not hang
  CHECK_THROWS_AS(WorkerPool(0), std::invalid_argument);
}

TEST_CASE(
    "worker pool: after a stalled call the caller runs the next ones alone, more after a recurring "
    "stall") {
  // A worker that holds a chunk far longer than the caller's share took — here one that sleeps
  // 20 ms, as a descheduled worker would — stalls the call. The caller may take every chunk
  // itself (then nothing stalls), so the stall is tried until it happens; stalls of a busy
  // machine only lengthen the solo runs, so the checks are lower bounds.
  WorkerPool pool(2);
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> elsewhere{false};
  auto quick = [&](std::size_t) {
    if (std::this_thread::get_id() != caller) elsewhere.store(true, std::memory_order_relaxed);
  };
  auto stall = [&] {
    const std::uint64_t before = pool.stalls();
    for (int attempt = 0; attempt < 200 && pool.stalls() == before; ++attempt) {
      for (int i = 0; i < 1'000'000 && pool.calls_alone_left() > 0; ++i)
        pool.run(8, quick);
      // The caller's items take 0.5 ms, so that a worker woken by the call has time to take
      // its own; a worker's item takes 20 ms.
      pool.run(8, [&](std::size_t) {
        std::this_thread::sleep_for(std::this_thread::get_id() == caller
                                        ? std::chrono::microseconds(500)
                                        : std::chrono::microseconds(20'000));
      });
    }
    REQUIRE(pool.stalls() > before);
  };
  stall();
  const std::uint64_t alone = pool.calls_alone_left();
  CHECK(alone >= 512);
  elsewhere = false;
  for (std::uint64_t i = 0; i < alone; ++i)
    pool.run(8, quick);
  CHECK_FALSE(elsewhere.load());
  // A stall soon after the last one makes the solo run four times as long.
  stall();
  CHECK(pool.calls_alone_left() >= 4 * alone);
}

}  // namespace
}  // namespace memplace
