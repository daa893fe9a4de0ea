// A persistent pool of threads for short, frequent parallel loops — the vector env's steps, a few
// microseconds of work each, where starting an OpenMP parallel region costs as much as the work
// (docs/performance.md, "Vector env: 1 thread against 2").
//
//   WorkerPool pool(2);                       // the calling thread and one worker
//   pool.run(64, [&](std::size_t i) { step(i); });
//
// run() cuts [0, n) into chunks; chunk c has a home thread (contiguous blocks, the caller's
// first), and every thread runs its home chunks in order, then takes the chunks no one has started
// yet from the others' blocks, from the end. So on idle cores each index runs on the same thread
// at every call (its data stays in that core's cache), and when a worker is descheduled — the
// other core busy — the caller does its share instead of waiting for it. Which thread runs an
// index may thus depend on timing; callers keep results independent of it (the vector env's
// copies share nothing mutable).
//
// Workers spin briefly between calls (a call a few microseconds after the last one finds them
// awake), then sleep on the call counter, so an idle pool costs no CPU.
//
// When another process keeps a core busy, the kernel deschedules a worker for a time slice
// (milliseconds), sometimes while it holds a chunk, and the caller must wait for it: a stall,
// hundreds of calls' worth. After a stall the pool runs the next calls on the caller alone, more
// of them after each further stall (worker_pool.cpp), so that a loaded machine costs little more
// than one thread would.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

namespace memplace {

class WorkerPool {
 public:
  // `threads` >= 1 threads in all: the caller of run() and threads - 1 workers.
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }
  // Calls that a descheduled worker held up so far, and the calls the caller will still run
  // alone after the last of them (for tests and benchmarks).
  std::uint64_t stalls() const { return stalls_; }
  std::uint64_t calls_alone_left() const { return solo_left_; }

  // Calls body(i) for every i in [0, n), on every thread of the pool, and returns when all calls
  // have returned. `body` must not throw (catch inside it); run() is not reentrant.
  template <class Body>
  void run(std::size_t n, const Body& body) {
    run_chunks(
        n,
        [](const void* f, std::size_t begin, std::size_t end) {
          for (std::size_t i = begin; i < end; ++i)
            (*static_cast<const Body*>(f))(i);
        },
        &body);
  }

 private:
  using ChunkFn = void (*)(const void* body, std::size_t begin, std::size_t end);
  void run_chunks(std::size_t n, ChunkFn fn, const void* body);
  void work(int thread);
  // Runs the chunks thread `thread` can claim in call `call`.
  void take_chunks(int thread, std::uint64_t call);
  // After each call on several threads: whether it stalled; a stall sets the calls the caller
  // runs alone next.
  void note_call(bool stalled);

  // The current call, published by its number (stored last). Atomic because a late worker may
  // read them while the next call is being set up; it then takes no chunk.
  std::atomic<ChunkFn> fn_{nullptr};
  std::atomic<const void*> body_{nullptr};
  std::atomic<std::size_t> n_{0};
  std::atomic<std::size_t> chunks_{0};
  alignas(64) std::atomic<std::uint64_t> call_{0};
  alignas(64) std::atomic<std::size_t> pending_{0};  // chunks of the current call not yet done
  alignas(64) std::atomic<int> sleeping_{0};
  std::atomic<bool> stop_{false};
  // Per chunk, 2k while call k offers it, 2k + 1 once a thread of call k took it: a worker late
  // from an earlier call (which may read the next call's fields) finds nothing it may take.
  // One cache line each: threads claiming neighbouring chunks do not contend for one line.
  struct alignas(64) Claim {
    std::atomic<std::uint64_t> state{0};
  };
  std::unique_ptr<Claim[]> claimed_;
  std::size_t max_chunks_ = 0;
  // The caller's own: calls left to run alone, how many the last stall bought, calls on several
  // threads since it, and the stalls so far.
  std::uint64_t solo_left_ = 0;
  std::uint64_t solo_left_last_ = 0;
  std::uint64_t calls_since_stall_ = 0;
  std::uint64_t stalls_ = 0;
  std::vector<std::jthread> workers_;
};

}  // namespace memplace
