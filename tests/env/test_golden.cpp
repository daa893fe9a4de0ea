// Golden trajectories: a seeded random-agent episode of each resnet50 environment, replayed and
// compared exactly with tests/golden/*.txt, so that any change to dynamics, rewards, observations
// or the Rng shows up as a diff (and calls for a version bump of the env id).
//
// With MEMPLACE_REGENERATE_GOLDEN=1 the test writes the files instead of comparing
// (tests/golden/regenerate.sh). Numbers are compared as parsed values, not as text, so that
// another C library's spelling of the same hex float still matches.
#include <doctest/doctest.h>

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "base/atomic_file.hpp"
#include "env/registry.hpp"

namespace memplace {
namespace {

constexpr std::uint64_t kSeed = 2026;

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

std::string hex64(std::uint64_t value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

std::string action_text(std::span<const std::int64_t> action) {
  std::string out;
  for (std::size_t i = 0; i < action.size(); ++i)
    out += (i ? "," : "") + std::to_string(action[i]);
  return out;
}

std::string line(std::size_t step, const std::string& action, const std::string& reward,
                 const std::string& reward_decimal, bool terminated, const EnvInfo& info,
                 std::uint64_t hash) {
  return std::to_string(step) + " " + action + " " + reward + " " + reward_decimal + " " +
         (terminated ? "1" : "0") + " " + std::to_string(info.latency_fs) + " " +
         format("%a", info.speedup) + " " + hex64(hash) + "\n";
}

// Plays the episode and writes it in the golden format (header, then one line per step).
std::string play(const std::string& id, const OptionMap& given) {
  const std::unique_ptr<Env> env = make(id, given);
  std::string options;
  for (const auto& [name, value] : env->options())
    options += " " + name + "=" + value;
  std::string out =
      "# memplace golden trajectory: written by tests/env/test_golden.cpp, do not edit by hand.\n"
      "# env: " +
      id + (given.empty() ? " (default options:" : " (options:") + options + ")\n" +
      "# seed: " + std::to_string(kSeed) +
      ". reset(seed), then each action is drawn from env.rng(): Discrete::sample(rng, "
      "action_mask),\n"
      "#   or MultiDiscrete::sample(rng).\n"
      "# One line per step (step 0 is the reset): step, action (comma-separated; - at reset),\n"
      "#   reward as a hex float (exact) and as %.17g, terminated (0/1), info.latency_fs,\n"
      "#   info.speedup as a hex float, and ObservationView::hash() of the observation (hex;\n"
      "#   FNV-1a over its bytes, so it also covers the static features' std::log2 values).\n"
      "# The test replays the episode and compares every field exactly. Regenerate only for an\n"
      "#   intended change to dynamics, rewards or observations (and bump the env version):\n"
      "#   tests/golden/regenerate.sh\n";
  ResetResult start = env->reset(kSeed);
  out += line(0, "-", "-", "-", false, start.info, start.obs.hash());
  ObservationView obs = start.obs;
  const Space space = env->action_space();
  for (std::size_t t = 1; t <= env->episode_length(); ++t) {
    std::vector<std::int64_t> action;
    if (const auto* d = std::get_if<Discrete>(&space)) {
      action = {d->sample(env->rng(), obs.action_mask)};
    } else {
      action = std::get<MultiDiscrete>(space).sample(env->rng());
    }
    const StepResult r = env->step(action);
    out += line(t, action_text(action), format("%a", r.reward), format("%.17g", r.reward),
                r.terminated, r.info, r.obs.hash());
    if (r.terminated) break;
    obs = r.obs;
  }
  return out;
}

std::vector<std::string> data_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l[0] != '#') lines.push_back(l);
  }
  return lines;
}

std::vector<std::string> fields(const std::string& l) {
  std::vector<std::string> out;
  std::istringstream in(l);
  for (std::string f; in >> f;)
    out.push_back(f);
  return out;
}

// Equal as numbers where both parse completely as one (hex or decimal), else as text.
bool same_field(const std::string& a, const std::string& b) {
  if (a == b) return true;
  char* end_a = nullptr;
  char* end_b = nullptr;
  const double x = std::strtod(a.c_str(), &end_a);
  const double y = std::strtod(b.c_str(), &end_b);
  return *end_a == '\0' && *end_b == '\0' && end_a != a.c_str() && end_b != b.c_str() &&
         std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
}

void check_golden(const std::string& id, const std::string& file, const OptionMap& given = {}) {
  const std::string path = MEMPLACE_SOURCE_DIR "/tests/golden/" + file;
  const std::string actual = play(id, given);
  const char* regenerate = std::getenv("MEMPLACE_REGENERATE_GOLDEN");
  if (regenerate != nullptr && std::string(regenerate) == "1") {
    write_file_atomically(path, actual);
    MESSAGE("regenerated " << path);
    return;
  }
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "missing golden file " << path << " (tests/golden/regenerate.sh)");
  const std::string expected((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  const std::vector<std::string> want = data_lines(expected);
  const std::vector<std::string> got = data_lines(actual);
  CHECK(got.size() == want.size());
  for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
    const std::vector<std::string> g = fields(got[i]);
    const std::vector<std::string> w = fields(want[i]);
    bool same = g.size() == w.size();
    for (std::size_t f = 0; same && f < g.size(); ++f)
      same = same_field(g[f], w[f]);
    // The first differing step is the useful one; the rest follow from it.
    REQUIRE_MESSAGE(same, path << ": step " << i << " differs\n  golden: " << want[i]
                               << "\n  now:    " << got[i]);
  }
}

TEST_CASE("golden: single-step resnet50 random-agent episode") {
  check_golden("memplace/single-step/resnet50-v0", "single-step-resnet50-v0.txt");
}

TEST_CASE("golden: sequential resnet50 random-agent episode") {
  check_golden("memplace/sequential/resnet50-v0", "sequential-resnet50-v0.txt");
}

// The streaming dynamics: every dense reward is a full streaming evaluation.
TEST_CASE("golden: sequential resnet101 -v1 random-agent episode") {
  check_golden("memplace/sequential/resnet101-v1", "sequential-resnet101-v1.txt");
}

// The addressed dynamics (cost model v2), with rectify: a random mapping demoted until its bytes
// fit and every on-chip memory's tensors have addresses, then scored with its staging buffers'.
TEST_CASE("golden: single-step resnet101 -v2 random-agent episode, rectified") {
  check_golden("memplace/single-step/resnet101-v2", "single-step-resnet101-v2-rectify.txt",
               {{"invalid", "rectify"}});
}

// The malloc env: offsets chosen step by step (the hash covers the occupancy grid), dense
// rewards from the pinned potential, the last step's score the full v2 evaluation of the layout.
TEST_CASE("golden: malloc env resnet50 -v2 random-agent episode") {
  check_golden("memplace/malloc/resnet50-v2", "malloc-resnet50-v2.txt");
}

}  // namespace
}  // namespace memplace
