// Scale-out over ranks (base/parallel/process_group.hpp, docs/scale-out.md), in-process: ranks as
// threads (tests/support/thread_ranks.hpp). The same through mpirun: tests/mpi_*.sh.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "agents/training/trainer.hpp"
#include "base/errors.hpp"
#include "base/parallel/owner_exchange.hpp"
#include "experiments/table/table_report.hpp"
#include "experiments/table/table_runner.hpp"
#include "tests/support/agent_harness.hpp"
#include "tests/support/thread_ranks.hpp"

namespace memplace {
namespace {

using testing::message_of;
using testing::on_thread_ranks;
using testing::TempDir;

TEST_CASE("share_of: contiguous blocks in rank order, the first ranks one more") {
  CHECK(share_of(10, 0, 3).begin == 0);
  CHECK(share_of(10, 0, 3).end == 4);
  CHECK(share_of(10, 1, 3).begin == 4);
  CHECK(share_of(10, 1, 3).end == 7);
  CHECK(share_of(10, 2, 3).begin == 7);
  CHECK(share_of(10, 2, 3).end == 10);
  // Fewer items than ranks: the last ranks get none.
  CHECK(share_of(2, 2, 3).begin == share_of(2, 2, 3).end);
  for (std::size_t count = 0; count < 40; ++count) {
    for (int size = 1; size <= 7; ++size) {
      std::size_t next = 0;
      for (int r = 0; r < size; ++r) {
        const Share s = share_of(count, r, size);
        CHECK(s.begin == next);
        CHECK(s.end - s.begin <= count / static_cast<std::size_t>(size) + 1);
        next = s.end;
      }
      CHECK(next == count);
    }
  }
}

TEST_CASE("run_agreed: a failure on one rank throws on every rank, naming that rank") {
  const auto failures = on_thread_ranks(3, [](ProcessGroup& ranks) {
    run_agreed(ranks, OnRanks::every, [&] {
      if (ranks.rank() == 1) throw InputError("config.yaml:3: seeds: must be positive");
    });
  });
  CHECK(message_of(failures[1]) == "config.yaml:3: seeds: must be positive");
  for (int r : {0, 2}) {
    CHECK(message_of(failures[static_cast<std::size_t>(r)]) ==
          "rank 1 of 3: config.yaml:3: seeds: must be positive");
    // An InputError stays one (exit code 2 on every rank).
    CHECK_THROWS_AS(std::rethrow_exception(failures[static_cast<std::size_t>(r)]), InputError);
  }
  // Without a failure nobody throws; a leader_only step runs on rank 0 alone.
  std::atomic<int> ran{0};
  const auto none = on_thread_ranks(3, [&](ProcessGroup& ranks) {
    run_agreed(ranks, OnRanks::leader_only, [&] { ran += ranks.rank() + 1; });
  });
  CHECK(std::all_of(none.begin(), none.end(), [](auto& f) { return !f; }));
  CHECK(ran == 1);
}

TEST_CASE("require_same_on_every_rank: the first rank that differs from rank 0, on every rank") {
  const auto failures = on_thread_ranks(3, [](ProcessGroup& ranks) {
    require_same_on_every_rank(ranks, ranks.rank() == 2 ? "seeds: 3" : "seeds: 2",
                               "was started with another config than rank 0");
  });
  for (const auto& f : failures)
    CHECK(message_of(f) == "rank 2 of 3 was started with another config than rank 0");
}

TEST_CASE("share_out: longest processing time first, within the list-scheduling bound") {
  // Hand-worked: 5 -> r0, 4 -> r1, 3 -> r1 (4 < 5), 3 -> r0 (5 < 7), 2 -> r1 (7 < 8), 1 -> r0.
  const std::vector<double> costs = {5, 4, 3, 3, 2, 1};
  CHECK(experiments::share_out(costs, 2) == std::vector<int>{0, 1, 1, 0, 1, 0});
  CHECK(experiments::share_out(costs, 1) == std::vector<int>(6, 0));
  // Random costs: every run has one rank, and no rank gets more than the mean load plus the
  // longest run (Graham's bound for list scheduling).
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int ranks = 1 + static_cast<int>(rng() % 9);
    std::vector<double> c(1 + rng() % 50);
    for (double& x : c)
      x = std::exp(std::uniform_real_distribution<double>(-3, 3)(rng));
    std::sort(c.rbegin(), c.rend());
    const std::vector<int> owners = experiments::share_out(c, ranks);
    std::vector<double> load(static_cast<std::size_t>(ranks), 0.0);
    for (std::size_t k = 0; k < c.size(); ++k) {
      REQUIRE(owners[k] >= 0);
      REQUIRE(owners[k] < ranks);
      load[static_cast<std::size_t>(owners[k])] += c[k];
    }
    const double total = std::accumulate(c.begin(), c.end(), 0.0);
    CHECK(*std::max_element(load.begin(), load.end()) <= total / ranks + c.front() + 1e-9);
  }
}

TEST_CASE("exchange_by_owner: item i worked on rank i % ranks, every item on every rank") {
  for (int size : {1, 2, 3}) {
    CAPTURE(size);
    std::vector<std::vector<float>> seen(static_cast<std::size_t>(size));
    const auto failures = on_thread_ranks(size, [&](ProcessGroup& ranks) {
      std::vector<float> values(5, -1.f);
      exchange_by_owner(
          ranks, 5,
          [&](std::size_t i, std::string& out) {
            values[i] = static_cast<float>(10 * i + static_cast<std::size_t>(ranks.rank()));
            append_bytes(out, std::span(values).subspan(i, 1));
          },
          [&](std::size_t i, RankMessage& in) { in.take(std::span(values).subspan(i, 1)); });
      seen[static_cast<std::size_t>(ranks.rank())] = values;
    });
    for (int r = 0; r < size; ++r) {
      CHECK(message_of(failures[static_cast<std::size_t>(r)]) == "");
      // Item i's value carries its owner's rank: i % size.
      CHECK(seen[static_cast<std::size_t>(r)] ==
            std::vector<float>{
                0.f, 10.f + static_cast<float>(1 % size), 20.f + static_cast<float>(2 % size),
                30.f + static_cast<float>(3 % size), 40.f + static_cast<float>(4 % size)});
    }
  }
  // A failure while working is every rank's, naming the lowest failing rank.
  const auto failures = on_thread_ranks(3, [](ProcessGroup& ranks) {
    exchange_by_owner(
        ranks, 3,
        [&](std::size_t i, std::string&) {
          if (i >= 1) throw std::runtime_error("no memory for item " + std::to_string(i));
        },
        [](std::size_t, RankMessage&) {});
  });
  for (const auto& f : failures)
    CHECK(message_of(f) == "rank 1 of 3: no memory for item 1");
  // A message of another length than its reader expects is refused.
  const auto mismatched = on_thread_ranks(2, [](ProcessGroup& ranks) {
    exchange_by_owner(
        ranks, 2, [](std::size_t, std::string& out) { out += "abc"; },
        [](std::size_t, RankMessage& in) {
          char two[2];
          in.take(two, 2);
        });
  });
  CHECK(message_of(mismatched[0]) == "rank 1 sent a longer message than expected");
  CHECK(message_of(mismatched[1]) == "rank 0 sent a longer message than expected");
}

TEST_CASE("trainer over 3 ranks: the one-process run, bit for bit, and rank 0 alone writes") {
  TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 3);
  agents::TrainConfig config = testing::toy_config(toy, "ea", 900, 4);
  config.threads = 1;
  config.checkpoint_every = 300;
  agents::Trainer(config, dir.path / "alone").run();
  std::vector<std::vector<agents::CurveRow>> curves(3);
  const auto failures = on_thread_ranks(3, [&](ProcessGroup& ranks) {
    agents::Trainer trainer(config, dir.path / "ranks", ranks);
    trainer.run();
    curves[static_cast<std::size_t>(ranks.rank())] = trainer.curve();
  });
  for (const auto& f : failures)
    REQUIRE(message_of(f) == "");
  CHECK(testing::curve_without_wall(dir.path / "alone") ==
        testing::curve_without_wall(dir.path / "ranks"));
  CHECK(testing::read_text(dir.path / "alone" / "best_mapping.yaml") ==
        testing::read_text(dir.path / "ranks" / "best_mapping.yaml"));
  // Every rank's trainer saw every outcome.
  for (const auto& curve : curves) {
    REQUIRE(curve.size() == curves[0].size());
    for (std::size_t i = 0; i < curve.size(); ++i)
      CHECK(curve[i].best_speedup == curves[0][i].best_speedup);
  }
  // Resumed over another number of ranks, the finished run has nothing left to do.
  const auto resumed = on_thread_ranks(
      2, [&](ProcessGroup& ranks) { agents::Trainer::resume(dir.path / "ranks", ranks).run(); });
  for (const auto& f : resumed)
    CHECK(message_of(f) == "");
  CHECK(testing::curve_without_wall(dir.path / "alone") ==
        testing::curve_without_wall(dir.path / "ranks"));
}

TEST_CASE("trainer over ranks: a rank asked to stop stops every rank at the same batch") {
  TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 3);
  agents::TrainConfig config = testing::toy_config(toy, "sa", 2000, 1);
  config.threads = 1;
  std::vector<std::uint64_t> evaluations(2);
  const auto failures = on_thread_ranks(2, [&](ProcessGroup& ranks) {
    agents::Trainer trainer(config, dir.path / "run", ranks);
    int batches = 0;
    // Only rank 1 is asked, after its 5th batch.
    const agents::TrainResult r =
        trainer.run({}, [&] { return ranks.rank() == 1 && ++batches > 5; });
    CHECK(r.interrupted);
    evaluations[static_cast<std::size_t>(ranks.rank())] = r.evaluations;
  });
  for (const auto& f : failures)
    REQUIRE(message_of(f) == "");
  CHECK(evaluations[0] == evaluations[1]);
  CHECK(evaluations[0] < 2000);
  // The checkpoint rank 0 wrote resumes to the uninterrupted run's end.
  agents::Trainer::resume(dir.path / "run").run();
  agents::Trainer(config, dir.path / "whole").run();
  CHECK(testing::curve_without_wall(dir.path / "run") ==
        testing::curve_without_wall(dir.path / "whole"));
}

TEST_CASE("trainer over 2 ranks: sac and egrl, stopped midway, resume from rank 0's checkpoint") {
  // Each critic is trained on one rank between checkpoints; the checkpoint must hold both.
  TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 3);
  for (const std::string agent : {"sac", "egrl"}) {
    CAPTURE(agent);
    agents::TrainConfig config = testing::toy_config(toy, agent, 600, 2);
    config.threads = 1;
    config.checkpoint_every = 100;  // checkpoints while running, and at the stop
    const std::filesystem::path run = dir.path / (agent + "-ranks");
    const std::filesystem::path whole = dir.path / (agent + "-whole");
    const auto failures = on_thread_ranks(2, [&](ProcessGroup& ranks) {
      agents::Trainer trainer(config, run, ranks);
      int batches = 0;
      const agents::TrainResult r = trainer.run({}, [&] { return ++batches > 12; });
      CHECK(r.interrupted);
    });
    for (const auto& f : failures)
      REQUIRE(message_of(f) == "");
    agents::Trainer::resume(run).run();
    agents::Trainer(config, whole).run();
    CHECK(testing::curve_without_wall(run) == testing::curve_without_wall(whole));
    CHECK(testing::read_text(run / "best_mapping.yaml") ==
          testing::read_text(whole / "best_mapping.yaml"));
  }
}

TEST_CASE("table over 2 ranks: the one-process table, and a rank with another config is refused") {
  TempDir dir;
  const testing::ToyProblem toy = testing::make_toy_problem(dir.path, 2);
  experiments::TableConfig config;
  config.agents = {"ea", "sa"};
  config.workloads = {toy.workload.string()};
  config.model.hardware = toy.hardware.string();
  config.seeds = 3;
  config.budget = 300;
  config.jobs = 1;
  experiments::TableRunner alone(config, dir.path / "alone");
  const experiments::TableOutcome expected = alone.run();
  std::vector<std::string> csvs(2);
  std::vector<std::size_t> run(2);
  const auto failures = on_thread_ranks(2, [&](ProcessGroup& ranks) {
    experiments::TableRunner runner(config, dir.path / "ranks", ranks);
    const experiments::TableOutcome outcome = runner.run();
    csvs[static_cast<std::size_t>(ranks.rank())] =
        experiments::table_csv(experiments::summarize(runner.config(), outcome.cells));
    run[static_cast<std::size_t>(ranks.rank())] = outcome.cells_run;
  });
  for (const auto& f : failures)
    REQUIRE(message_of(f) == "");
  const std::string want = experiments::table_csv(experiments::summarize(config, expected.cells));
  CHECK(csvs[0] == want);
  CHECK(csvs[1] == want);  // every rank ends with every result
  CHECK(run[0] == 6);      // the runs of both ranks

  experiments::TableConfig other = config;
  other.seeds = 4;
  const auto refused = on_thread_ranks(2, [&](ProcessGroup& ranks) {
    experiments::TableRunner(ranks.rank() == 1 ? other : config, dir.path / "mixed", ranks);
  });
  for (const auto& f : refused)
    CHECK(message_of(f) ==
          "rank 1 of 2 was started with another table config or --out than rank 0; every rank of "
          "a job must be given the same command");
}

}  // namespace
}  // namespace memplace
