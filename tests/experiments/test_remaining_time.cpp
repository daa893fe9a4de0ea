// The table's time-left estimate on hand-computed schedules: expected costs scaled by what the
// finished runs took (per agent once it has finished one), the runs left dealt out to the free
// workers in order.
#include <doctest/doctest.h>

#include "experiments/table/remaining_time.hpp"

namespace memplace::experiments {

TEST_CASE("remaining time: the expected schedule before any run ends") {
  // Two workers; two 10 s runs start at 0, then two 1 s runs follow them: 11 s in all.
  RemainingTime t({{"egrl", 10}, {"egrl", 10}, {"sa", 1}, {"sa", 1}}, 2);
  t.started(0, 0);
  t.started(1, 0);
  CHECK(t.seconds_left(0) == doctest::Approx(11));
  CHECK(t.seconds_left(4) == doctest::Approx(7));
  // One worker: everything one after the other.
  RemainingTime one({{"egrl", 10}, {"sa", 1}, {"sa", 2}}, 1);
  CHECK(one.seconds_left(0) == doctest::Approx(13));
}

TEST_CASE("remaining time: the finished runs set the scale, an agent's own once it has one") {
  RemainingTime t({{"egrl", 10}, {"egrl", 10}, {"sa", 1}, {"sa", 1}, {"ppo", 4}}, 2);
  t.started(0, 0);
  t.started(1, 0);
  t.finished(0, 20);  // egrl takes twice its estimate; nothing else has finished: all x2
  t.started(2, 20);
  // Run 1 is past its 20 s (a tenth more: 2 s); run 2 (sa) 2 s; then sa 2 s and ppo 8 s go to the
  // first free workers: 2 + 2 = 4 and 2 + 8 = 10.
  CHECK(t.seconds_left(20) == doctest::Approx(10));
  t.finished(2, 20.5);  // sa: half its estimate, its own scale from now on
  t.started(3, 20.5);
  // Run 1: 2 s (past its estimate); run 3 (sa, x0.5): 0.5 s; ppo (global scale (20 + 0.5) /
  // (10 + 1)) after run 3: 0.5 + 4 x 20.5 / 11.
  CHECK(t.seconds_left(20.5) == doctest::Approx(0.5 + 4 * 20.5 / 11));
  t.finished(1, 21);
  t.finished(3, 21);
  t.started(4, 21);
  // ppo has no run of its own: the scale of all four, (20 + 0.5 + 21 + 0.5) / (10 + 1 + 10 + 1).
  CHECK(t.seconds_left(22) == doctest::Approx(4 * 42 / 22.0 - 1));
  t.finished(4, 30);
  CHECK(t.seconds_left(30) == 0);
}

TEST_CASE("remaining time: a run's expected seconds grow with the graph and the budget") {
  CHECK(expected_run_seconds("egrl", 748, 20000) == doctest::Approx(0.1 + 0.118 * (748 + 66)));
  CHECK(expected_run_seconds("egrl", 748, 5000) - 0.1 ==
        doctest::Approx((expected_run_seconds("egrl", 748, 20000) - 0.1) / 4));
  // The learners cost the most, then mcts on a large graph, the searches least.
  CHECK(expected_run_seconds("egrl", 300, 1000) > expected_run_seconds("sac", 300, 1000));
  CHECK(expected_run_seconds("mcts", 748, 1000) > expected_run_seconds("ea", 748, 1000));
  CHECK(expected_run_seconds("ea", 300, 1000) > expected_run_seconds("sa", 300, 1000));
  CHECK_THROWS(RemainingTime({{"sa", 1}}, 1).finished(0, 1));
}

}  // namespace memplace::experiments
