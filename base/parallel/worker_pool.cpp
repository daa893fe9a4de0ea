#include "base/parallel/worker_pool.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace memplace {

namespace {

// Chunks per thread: enough for a busy worker's share to be taken over in pieces, few enough that
// claiming them (one atomic operation each) stays cheap.
constexpr std::size_t kChunksPerThread = 4;
// How long a worker spins for the next call before it sleeps.
constexpr auto kSpin = std::chrono::microseconds(50);
// A stall: after running its own share of a call, the caller waited for the workers longer than
// twice that share took, plus kStallSlack — a worker descheduled while it held a chunk: the
// caller waits until the kernel runs it again, a time slice, milliseconds. (Judged against the
// caller's share of the same call, so calls of any size compare.) The calls after a stall run on
// the caller alone: kFirstSolo of them after a lone stall, kGrowth times as many as last time
// after a stall that comes within kRecurring calls on several threads of the last one, up to
// kMaxSolo. Under load, stalls recur within a time slice and the pool soon spends almost all its
// time alone; on idle cores (where a virtual machine's host or an interrupt still delays a worker
// now and then) a lone stall costs kFirstSolo calls on one thread. Every stall on the way to
// kMaxSolo costs a time slice of waiting, so the way is short: from 512 by fours, six stalls
// (from 64 by twos it took thirteen, 3-14 % of a 5 s benchmark under load; docs/performance.md).
constexpr auto kStallSlack = std::chrono::microseconds(100);
constexpr std::uint64_t kFirstSolo = 512, kGrowth = 4, kMaxSolo = std::uint64_t{1} << 18;
constexpr std::uint64_t kRecurring = 4096;

// A chunk's state in claimed_: open to the threads of call k, or taken by one of them.
constexpr std::uint64_t available(std::uint64_t call) {
  return 2 * call;
}

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

}  // namespace

WorkerPool::WorkerPool(int threads) {
  if (threads < 1) throw std::invalid_argument("a worker pool needs at least one thread");
  max_chunks_ = static_cast<std::size_t>(threads) * kChunksPerThread;
  claimed_ = std::make_unique<Claim[]>(max_chunks_);
  workers_.reserve(static_cast<std::size_t>(threads - 1));
  for (int t = 1; t < threads; ++t)
    workers_.emplace_back([this, t] { work(t); });
}

WorkerPool::~WorkerPool() {
  stop_.store(true, std::memory_order_relaxed);
  call_.fetch_add(1, std::memory_order_release);
  call_.notify_all();
  workers_.clear();  // joins
}

void WorkerPool::run_chunks(std::size_t n, ChunkFn fn, const void* body) {
  if (n == 0) return;
  if (solo_left_ > 0) {
    --solo_left_;
    fn(body, 0, n);
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  const std::size_t chunks = std::min(n, max_chunks_);
  fn_.store(fn, std::memory_order_relaxed);
  body_.store(body, std::memory_order_relaxed);
  n_.store(n, std::memory_order_relaxed);
  chunks_.store(chunks, std::memory_order_relaxed);
  pending_.store(chunks, std::memory_order_relaxed);
  const std::uint64_t call = call_.load(std::memory_order_relaxed) + 1;
  for (std::size_t c = 0; c < chunks; ++c)
    claimed_[c].state.store(available(call), std::memory_order_relaxed);
  // Sequentially consistent with the workers' `sleeping_` and wait: a worker about to sleep
  // either sees this call or is counted in `sleeping_` below.
  call_.store(call, std::memory_order_seq_cst);
  if (sleeping_.load(std::memory_order_seq_cst) > 0) call_.notify_all();
  take_chunks(0, call);
  if (pending_.load(std::memory_order_acquire) == 0) return note_call(false);
  const auto own_done = std::chrono::steady_clock::now();
  const auto stall_after = own_done + 2 * (own_done - start) + kStallSlack;
  bool stalled = false;
  for (int spins = 0; pending_.load(std::memory_order_acquire) != 0; ++spins) {
    cpu_relax();
    if (!stalled && spins % 64 == 63) stalled = std::chrono::steady_clock::now() > stall_after;
  }
  note_call(stalled);
}

void WorkerPool::note_call(bool stalled) {
  if (!stalled) {
    ++calls_since_stall_;
    return;
  }
  ++stalls_;
  solo_left_ = stalls_ > 1 && calls_since_stall_ <= kRecurring
                   ? std::min(kGrowth * solo_left_last_, kMaxSolo)
                   : kFirstSolo;
  solo_left_last_ = solo_left_;
  calls_since_stall_ = 0;
}

void WorkerPool::take_chunks(int thread, std::uint64_t call) {
  const ChunkFn fn = fn_.load(std::memory_order_relaxed);
  const void* body = body_.load(std::memory_order_relaxed);
  const std::size_t n = n_.load(std::memory_order_relaxed);
  const std::size_t chunks = chunks_.load(std::memory_order_relaxed);
  const auto members = static_cast<std::size_t>(threads());
  const auto t = static_cast<std::size_t>(thread);
  // Home chunks [first, last) of this thread, then every other chunk from the end.
  const std::size_t first = chunks * t / members;
  const std::size_t last = chunks * (t + 1) / members;
  auto try_chunk = [&](std::size_t c) {
    std::uint64_t expected = available(call);
    if (claimed_[c].state.load(std::memory_order_relaxed) != expected ||
        !claimed_[c].state.compare_exchange_strong(expected, expected + 1,
                                                   std::memory_order_acquire))
      return;
    fn(body, n * c / chunks, n * (c + 1) / chunks);
    pending_.fetch_sub(1, std::memory_order_release);
  };
  for (std::size_t c = first; c < last; ++c)
    try_chunk(c);
  for (std::size_t c = chunks; c-- > 0;)
    if (c < first || c >= last) try_chunk(c);
}

void WorkerPool::work(int thread) {
  std::uint64_t seen = 0;
  for (;;) {
    std::uint64_t call = call_.load(std::memory_order_acquire);
    const auto spin_until = std::chrono::steady_clock::now() + kSpin;
    for (int spins = 0; call == seen; ++spins) {
      cpu_relax();
      if (spins % 64 == 63 && std::chrono::steady_clock::now() > spin_until) {
        sleeping_.fetch_add(1, std::memory_order_seq_cst);
        call_.wait(seen, std::memory_order_seq_cst);
        sleeping_.fetch_sub(1, std::memory_order_relaxed);
      }
      call = call_.load(std::memory_order_acquire);
    }
    seen = call;
    if (stop_.load(std::memory_order_relaxed)) return;
    take_chunks(thread, call);
  }
}

}  // namespace memplace
