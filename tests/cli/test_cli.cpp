// The command line, in-process: good paths print what they should, and every file of the
// bad-input corpus (tests/data/bad/EXPECTED.txt) gives exit code 2 and a one-line message.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "apps/cli.hpp"
#include "env/registry.hpp"
#include "model/inputs/hardware.hpp"
#include "model/inputs/suite.hpp"
#include "tests/support/agent_harness.hpp"

namespace memplace {
namespace {

const std::string kData = MEMPLACE_SOURCE_DIR "/tests/data";

struct Run {
  int code;
  std::string out;
  std::string err;
};

Run run(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  const int code = cli::run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;)
    words.push_back(w);
  return words;
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(' ');
  const auto last = s.find_last_not_of(' ');
  return first == std::string::npos ? "" : s.substr(first, last - first + 1);
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) {
    s.replace(p, from.size(), to);
  }
}

TEST_CASE("every file of the bad-input corpus exits 2 with its message") {
  std::ifstream manifest(kData + "/bad/EXPECTED.txt");
  REQUIRE(manifest.good());
  std::set<std::string> covered;
  std::string line;
  while (std::getline(manifest, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto bar1 = line.find('|');
    const auto bar2 = line.find('|', bar1 + 1);
    REQUIRE(bar2 != std::string::npos);
    const std::string file = trim(line.substr(0, bar1));
    std::string args = trim(line.substr(bar1 + 1, bar2 - bar1 - 1));
    const std::string expected = trim(line.substr(bar2 + 1));
    replace_all(args, "{file}", kData + "/bad/" + file);
    replace_all(args, "{good}", kData + "/good");
    CAPTURE(file);
    const Run r = run(split_words(args));
    CHECK(r.code == cli::kExitBadInput);
    CHECK(r.out.empty());
    CHECK(r.err.find(expected) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);  // one line
    covered.insert(file);
  }
  CHECK(covered.size() >= 15);
  for (const auto& entry : std::filesystem::directory_iterator(kData + "/bad")) {
    const std::string name = entry.path().filename().string();
    if (name != "EXPECTED.txt")
      CHECK_MESSAGE(covered.count(name) == 1, name << " is not in EXPECTED.txt");
  }
}

// One malformed copy of a shipped hardware file per rule: the value after `key:` on the
// occurrence-th line holding it is replaced, and the error must name the file, that line and
// the field.
struct HardwareFault {
  std::string key;
  int occurrence;
  std::string value;
  std::string field;
};

TEST_CASE("every shipped hardware model: a malformed copy names its file, line and field") {
  const std::vector<HardwareFault> faults = {
      {"bandwidth_bytes_per_s", 1, "fast", "memories[0].bandwidth_bytes_per_s"},
      {"capacity_bytes", 2, "-5", "memories[1].capacity_bytes"},
      {"peak_macs_per_s", 1, ".nan", "compute.peak_macs_per_s"},
      {"mac_utilisation", 1, "1.5", "compute.mac_utilisation"},
      {"memory_time", 1, "average", "memory_time"},
      {"lookahead", 1, "-1", "dma.lookahead"},
      {"staging", 1, "[NOWHERE]", "dma.staging[0]"},
      {"during_overhead", 1, "sometimes", "dma.during_overhead"},
  };
  testing::TempDir dir;
  for (const std::string& name : embedded_hardware_names()) {
    std::ifstream in(MEMPLACE_SOURCE_DIR "/workloads/hardware/" + name + ".yaml");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
      lines.push_back(line);
    REQUIRE(lines.size() > 10);
    for (const HardwareFault& fault : faults) {
      // The line: the occurrence-th that starts (after indentation and "- ") with the key.
      std::size_t at = lines.size();
      for (std::size_t i = 0, seen = 0; i < lines.size(); ++i) {
        const std::string body = trim(lines[i]);
        if ((body.starts_with(fault.key + ":") || body.starts_with("- " + fault.key + ":")) &&
            ++seen == static_cast<std::size_t>(fault.occurrence)) {
          at = i;
          break;
        }
      }
      REQUIRE_MESSAGE(at < lines.size(), name << " has no line " << fault.key);
      std::vector<std::string> broken = lines;
      const std::size_t key = broken[at].find(fault.key + ":");
      broken[at] = broken[at].substr(0, key) + fault.key + ": " + fault.value;
      const std::filesystem::path file = dir.path / (name + "-" + fault.key + ".yaml");
      std::ofstream(file) << [&] {
        std::string text;
        for (const std::string& line : broken)
          text += line + "\n";
        return text;
      }();
      CAPTURE(file);
      const Run r = run({"info", "mobilenet-v2", "--hardware", file.string()});
      CHECK(r.code == cli::kExitBadInput);
      CHECK(r.out.empty());
      const std::string where = file.filename().string() + ":" + std::to_string(at + 1) + ": ";
      CHECK_MESSAGE(r.err.find(where + fault.field + ":") != std::string::npos, r.err);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
  }
}

TEST_CASE("bad arguments exit 2") {
  CHECK(run({}).code == cli::kExitBadInput);
  CHECK(run({"frobnicate"}).code == cli::kExitBadInput);
  CHECK(run({"info", "--memory-time", "avg"}).code == cli::kExitBadInput);
  CHECK(run({"evaluate", "resnet50"}).code == cli::kExitBadInput);
  const Run missing = run({"info", "no-such-workload"});
  CHECK(missing.code == cli::kExitBadInput);
  CHECK(missing.err.find("no-such-workload: no such workload file") != std::string::npos);
  // A name too long for the system to look up is bad input too (found by fuzzing).
  const Run too_long = run({"info", std::string(300, 'a')});
  CHECK(too_long.code == cli::kExitBadInput);
  CHECK(too_long.err.find("no such workload file (File name too long)") != std::string::npos);
  // An empty file name is refused, naming the option: `table --out ""` wrote the table into the
  // current folder, `train --out ""` fell back to the default folder without a word, and
  // `train --config ""` trained on the defaults (and `--env ""`, `table --suite ""` the same).
  for (const auto& [option, args] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"--out", {"table", "--workloads", "resnet18-b1", "-q", "--out"}},
           {"--out", {"train", "--agent", "random", "--workload", "resnet18-b1", "--out"}},
           {"--resume", {"train", "--resume"}},
           {"--out", {"transfer", "--out"}},
           {"--out", {"generalize", "--out"}},
           {"--output", {"import", "model.onnx", "-o"}},
           {"--out", {"optimum", "resnet18-b1", "-o"}},
           {"--out", {"pack", "--generate", "10", "-o"}},
           {"--out", {"submission", "pack", "table", "--out"}},
           {"--allocation-csv", {"evaluate", "resnet18-b1", "map.yaml", "--allocation-csv"}},
           // and an empty input name, which meant the default config or none
           {"--config", {"train", "--config"}},
           {"config", {"table", "--workloads", "resnet18-b1", "-q"}},
           {"--options", {"check", "resnet18-b1", "--options"}},
           {"--suite", {"table", "-q", "--suite"}},
           {"--suite", {"references", "--suite"}},
           {"--env", {"train", "--budget", "5", "--env"}}}) {
    std::vector<std::string> with_empty = args;
    with_empty.emplace_back("");
    const Run empty = run(with_empty);
    CHECK_MESSAGE(empty.code == cli::kExitBadInput, args[0]);
    CHECK_MESSAGE(empty.err.find(option + ": an empty name") != std::string::npos, empty.err);
  }
  // A list with an empty element is refused too: "sa,,ea" ran sa and ea, and a list of commas
  // alone took the next argument for the list ("unknown agent '--workloads'").
  for (const auto& [option, args] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"--agents", {"table", "-q", "--agents", "sa,,ea", "--workloads", "resnet18-b1"}},
           {"--workloads", {"table", "-q", "--workloads", ",", "--agents", "sa"}},
           {"--to", {"transfer", "--to", "resnet50,"}},
           {"--to-hardware", {"transfer", "--to-hardware", ",nnpi"}},
           {"--chips", {"generalize", "--chips", ","}},
           {"--procedural", {"generalize", "--procedural", "a,,b"}}}) {
    const Run listed = run(args);
    CHECK_MESSAGE(listed.code == cli::kExitBadInput, args[0]);
    CHECK_MESSAGE(listed.err.find(option + ": '") != std::string::npos, listed.err);
    CHECK_MESSAGE(listed.err.find("': an empty name in the list") != std::string::npos, listed.err);
  }
  // A hyperparameter or env option without a name names the option that gave it.
  const Run no_name = run({"train", "--budget", "5", "-p", "=3"});
  CHECK(no_name.code == cli::kExitBadInput);
  CHECK(no_name.err.find("--param '=3': expected name=value") != std::string::npos);
  const Run no_equals = run({"train", "--budget", "5", "-o", "invalid"});
  CHECK(no_equals.code == cli::kExitBadInput);
  CHECK(no_equals.err.find("--option 'invalid': expected name=value") != std::string::npos);
  // So is an output folder the system refuses as a name, named with the reason.
  const std::string long_folder =
      (std::filesystem::temp_directory_path() / std::string(300, 'o')).string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"table", "--out", long_folder, "--workloads", "resnet18-b1",
                                 "--agents", "random", "--seeds", "1", "--budget", "10", "-q"},
        std::vector<std::string>{"train", "--agent", "random", "--workload", "resnet18-b1",
                                 "--budget", "10", "--out", long_folder, "-q"}}) {
    const Run refused = run(args);
    CHECK(refused.code == cli::kExitBadInput);
    CHECK(refused.err.find("memplace: " + long_folder) == 0);  // the path, maybe with a file in it
    CHECK(refused.err.find(": File name too long\n") != std::string::npos);
  }
  // references checks every hardware model and workload before printing anything.
  const Run partly = run({"references", "resnet50", "--hardware", "nnpi,tpu-v9"});
  CHECK(partly.code == cli::kExitBadInput);
  CHECK(partly.out.empty());
  CHECK(partly.err.find("tpu-v9: no such hardware file") != std::string::npos);
  const Run empty = run({"references", "resnet50", "--hardware", "nnpi,", "--summary"});
  CHECK(empty.code == cli::kExitBadInput);
  CHECK(empty.err.find("--hardware: 'nnpi,': an empty name in the list") != std::string::npos);
  CHECK(run({"--help"}).code == cli::kExitOk);
  CHECK(run({"info", "--help"}).out.find("--memory-time") != std::string::npos);
}

TEST_CASE("a count or a seed is a whole number in decimal, or exit 2 naming the option") {
  // CLI11 alone read "010" as octal 8 and "0x10" as 16, turned seed -1 into 2^64 - 1 without a
  // word, and called "1e3" and "abc" out of range.
  for (const auto& [option, args] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"--budget", {"train", "--budget"}},
           {"--seed", {"train", "--budget", "5", "--seed"}},
           {"--seeds", {"table", "-q", "--seeds"}},
           {"--jobs", {"generalize", "--jobs"}},
           {"--seed", {"pack", "--generate", "10", "--seed"}},
           {"--dynamic-dim", {"import", "model.onnx", "--dynamic-dim"}}})
    for (const std::string value :
         {"-1", "0x10", "1e3", "abc", "1.5", "", "99999999999999999999"}) {
      std::vector<std::string> with_value = args;
      with_value.push_back(value);
      const Run refused = run(with_value);
      CHECK_MESSAGE(refused.code == cli::kExitBadInput, option, " ", value);
      CHECK_MESSAGE(refused.err.find(option + ": '" + value + "' is not a whole number from ") !=
                        std::string::npos,
                    refused.err);
    }
  const Run out_of_range = run({"table", "-q", "--seeds", "1001"});
  CHECK(out_of_range.code == cli::kExitBadInput);
  CHECK(out_of_range.err.find("--seeds: '1001' is not a whole number from 1 to 1000") !=
        std::string::npos);
  // Leading zeros are decimal: ten evaluations.
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "memplace-budget-010";
  std::filesystem::remove_all(folder);
  const Run ten = run({"train", "--agent", "random", "--workload", "resnet18-b1", "--budget", "010",
                       "--out", folder.string()});
  CHECK(ten.code == cli::kExitOk);
  CHECK_MESSAGE(ten.out.find(": 10 evaluations in ") != std::string::npos, ten.out);
  std::filesystem::remove_all(folder);
}

TEST_CASE("references and info: the optimum hint is a command that works for the workload given") {
  const std::string chain = kData + "/good/chain.yaml";
  const std::string hint = "`memplace optimum " + chain + " --hardware edge-tpu` computes it";
  const Run refs = run({"references", chain, "--hardware", "edge-tpu"});
  REQUIRE(refs.code == cli::kExitOk);
  CHECK_MESSAGE(refs.out.find(hint) != std::string::npos, refs.out);
  const Run info = run({"info", chain, "--hardware", "edge-tpu"});
  CHECK_MESSAGE(info.out.find(hint) != std::string::npos, info.out);
  // The hint runs (a toy: solved at once), with the certificate out of the tree.
  testing::TempDir dir;
  CHECK(
      run({"optimum", chain, "--hardware", "edge-tpu", "-q", "-o", (dir.path / "c.yaml").string()})
          .code == cli::kExitOk);
}

TEST_CASE("evaluate scores a mapping and re-checks a recorded result") {
  const std::string chain = kData + "/good/chain.yaml";
  const Run r = run({"evaluate", chain, kData + "/good/chain-mapping.yaml", "--json"});
  REQUIRE(r.code == cli::kExitOk);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["valid"] == true);
  CHECK(doc["memories"].size() == 3);

  // Record the result, then tamper with it: the replay must notice (exit 1).
  const auto dir = std::filesystem::temp_directory_path() / "memplace_test_cli";
  std::filesystem::create_directories(dir);
  std::ifstream in(kData + "/good/chain-mapping.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string latency = std::to_string(doc["latency_fs"].get<std::int64_t>());
  auto write = [&](const std::string& result) {
    std::string t = text;
    replace_all(t, "hardware: nnpi\n", "hardware: nnpi\nresult: " + result + "\n");
    std::ofstream((dir / "m.yaml").string()) << t;
    return run({"evaluate", chain, (dir / "m.yaml").string()});
  };
  const Run good = write("{latency_fs: " + latency + ", valid: true}");
  CHECK(good.code == cli::kExitOk);
  CHECK(good.out.find("reproduced exactly") != std::string::npos);
  const Run bad = write("{latency_fs: 1" + latency + ", valid: true}");
  CHECK(bad.code == cli::kExitFailure);
  CHECK(bad.err.find("does not match") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("optimum solves, writes a certificate that evaluate replays, and refuses bad input") {
  testing::TempDir dir;
  const std::string chain = kData + "/good/chain.yaml";
  const std::string hw = kData + "/good/toy-hw.yaml";
  const std::string out = (dir.path / "chain.yaml").string();
  for (const std::string rule : {"max", "sum"}) {
    CAPTURE(rule);
    const Run r =
        run({"optimum", chain, "--hardware", hw, "--memory-time", rule, "-q", "--json", "-o", out});
    REQUIRE(r.code == cli::kExitOk);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["status"] == "optimal");
    CHECK(doc["memory_time"] == rule);
    CHECK(doc["latency_fs"].get<std::int64_t>() <= doc["compiler_latency_fs"].get<std::int64_t>());
    CHECK(doc["gap"].get<double>() == 0.0);
    // The certificate replays under the rule it records, with no option.
    const Run replay = run({"evaluate", chain, out, "--hardware", hw});
    CHECK(replay.code == cli::kExitOk);
    CHECK(replay.out.find("reproduced exactly") != std::string::npos);
  }
  // Under another rule the recorded result is not comparable, and says so.
  const Run other = run({"evaluate", chain, out, "--hardware", hw, "--memory-time", "max"});
  CHECK(other.code == cli::kExitOk);
  CHECK(other.out.find("not re-checked under max") != std::string::npos);

  auto refused = [&](const std::vector<std::string>& args, const std::string& message) {
    CAPTURE(message);
    const Run r = run(args);
    CHECK(r.code == cli::kExitBadInput);
    CHECK(r.err.find(message) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') <= 2);
  };
  // The shipped certificates give references and info their optimum rows.
  const Run refs = run({"references", "resnet50", "resnet101", "--json"});
  REQUIRE(refs.code == cli::kExitOk);
  const auto rows = nlohmann::json::parse(refs.out);
  CHECK(rows[0]["optimum_status"] == "optimal");
  CHECK(rows[0]["references"]["optimum"]["speedup"].get<double>() > 1.0);
  // resnet101 is not proven within the shipped certificate's time limit.
  if (rows[1]["optimum_status"] != "optimal") {
    CHECK(rows[1]["references"]["best-known"]["speedup"].get<double>() <=
          rows[1]["references"]["optimum-bound"]["speedup"].get<double>());
  }
  const Run info = run({"info", "bert-base"});
  CHECK(info.out.find("| optimum ") != std::string::npos);
  CHECK(info.out.find("optimum proven by CBC") != std::string::npos);
  // Any other workload is told how to get its optimum.
  CHECK(run({"info", chain}).out.find("`memplace optimum") != std::string::npos);

  refused({"optimum", chain, "--time-limit", "-1", "-o", out}, "--time-limit");
  refused({"optimum", chain, "--time-limit", "nan", "-o", out}, "positive number of seconds");
  refused({"optimum", chain, "--gap", "2", "-o", out}, "--gap");
  // The whole text must be the number: "0.5abc" was let through to CLI11's conversion.
  refused({"optimum", chain, "--gap", "0.5abc", "-o", out},
          "--gap: must be a fraction in [0, 1), got '0.5abc'");
  refused({"optimum", chain, "--threads", "0", "-o", out}, "--threads");
  refused({"optimum", chain, "-o", kData + "/good/chain.yaml/x.yaml"}, "cannot write");
  refused({"optimum", chain, "-o", dir.path.string()}, "it is a folder");
  refused({"optimum", chain, "-o", (dir.path / "missing" / "x.yaml").string()}, "no folder");
}

TEST_CASE("info --json reports the shape and the references of a workload") {
  const Run r = run({"info", kData + "/good/chain.yaml", "--json"});
  REQUIRE(r.code == cli::kExitOk);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["layers"] == 3);
  CHECK(doc["edges"] == 2);
  CHECK(doc["macs"] == 1100);
  CHECK(doc["weight_bytes"] == 300);
  CHECK(doc["activation_bytes"] == 450);
  CHECK(doc["peak_live_activation_bytes"] == 400);
  CHECK(doc["references"]["compiler"]["speedup"] == 1.0);
  CHECK(doc["references"]["all-DRAM"]["speedup"].get<double>() <= 1.0);
  CHECK(doc["references"]["capacity-free-bound"]["speedup"].get<double>() >= 1.0);
}

TEST_CASE("list shows the environments grouped, the options of the generic ids, and filters") {
  const Run text = run({"list"});
  REQUIRE(text.code == cli::kExitOk);
  CHECK(text.out.find("| sequential  | cm0        | memplace/sequential-cm0-v0 ") !=
        std::string::npos);
  CHECK(text.out.find("| malloc      | cm2        | —  ") != std::string::npos);  // suite v1's
  CHECK(text.out.find("memplace/sequential-bert-base-on-nnpi-cm0-v0") == std::string::npos);
  CHECK(text.out.find("Options of memplace/single-step-cm0-v0") != std::string::npos);
  CHECK(text.out.find("| invalid ") != std::string::npos);
  CHECK(text.out.find("| order ") != std::string::npos);

  // --ids: every id, one per line; the filters keep the matching ones.
  const auto lines = [](const std::string& out) {
    std::vector<std::string> v;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
      v.push_back(line);
    return v;
  };
  const std::vector<std::string> every = lines(run({"list", "--ids"}).out);
  CHECK(every.size() == registered_envs().size());
  CHECK(std::find(every.begin(), every.end(), "memplace/sequential-bert-base-on-nnpi-cm0-v0") !=
        every.end());
  CHECK(std::find(every.begin(), every.end(), "memplace/malloc-resnet18-b1-on-edge-tpu-cm2-v0") !=
        every.end());
  const std::vector<std::string> some = lines(run({"list", "--ids", "--kind", "sequential",
                                                   "--env-version", "v1", "--hardware", "edge-tpu"})
                                                  .out);
  REQUIRE(!some.empty());
  for (const std::string& id : some) {
    CAPTURE(id);
    CHECK(id.starts_with("memplace/sequential-"));
    CHECK(id.ends_with("-on-edge-tpu-cm1-v0"));
  }
  const std::vector<std::string> on_default =
      lines(run({"list", "--ids", "--hardware", "nnpi"}).out);
  CHECK(std::find(on_default.begin(), on_default.end(),
                  "memplace/malloc-resnet50-on-nnpi-cm2-v0") != on_default.end());
  CHECK(std::find(on_default.begin(), on_default.end(), "memplace/malloc-cm2-v0") !=
        on_default.end());  // the generic ids run on nnpi unless told otherwise
  CHECK(std::none_of(on_default.begin(), on_default.end(), [](const std::string& id) {
    return id.find("-on-edge-tpu-") != std::string::npos;
  }));
  // A suite's instances: their environments' ids, every kind or one.
  const std::size_t instances = load_suite("v1").instances.size();
  const std::vector<std::string> suite_ids = lines(run({"list", "--suite", "v1", "--ids"}).out);
  CHECK(suite_ids.size() == 3 * instances);
  const std::vector<std::string> games =
      lines(run({"list", "--suite", "v1", "--ids", "--kind", "malloc"}).out);
  REQUIRE(games.size() == instances);
  for (const std::string& id : games) {
    CAPTURE(id);
    CHECK(id.starts_with("memplace/malloc-"));
    CHECK(id.ends_with("-cm2-v0"));
    CHECK_FALSE(env_option_specs(id).empty());  // an id the registry makes (one made below)
  }
  CHECK_NOTHROW(make(games.front()));
  CHECK(run({"list", "--kind", "bogus"}).code == cli::kExitBadInput);
  CHECK(run({"list", "--suite", "v1", "--env-version", "v1"}).code == cli::kExitBadInput);

  const Run json = run({"list", "--json"});
  REQUIRE(json.code == cli::kExitOk);
  const auto doc = nlohmann::json::parse(json.out);
  REQUIRE(doc["environments"].is_array());
  bool found = false;
  for (const auto& env : doc["environments"]) {
    if (env["id"] != "memplace/sequential-resnet50-on-nnpi-cm0-v0") continue;
    found = true;
    CHECK(env["kind"] == "sequential");
    CHECK(env["workload"] == "resnet50");
    CHECK(env["hardware"] == "nnpi");
    CHECK(env["cost_model"] == "cm0");
    CHECK(env["revision"] == "v0");
    CHECK(env["path_id"] == "memplace/sequential/resnet50-v0");
    std::set<std::string> names;
    for (const auto& option : env["options"])
      names.insert(option["name"].get<std::string>());
    CHECK(names == std::set<std::string>{"memory_time", "order", "reward", "masked_action"});
  }
  CHECK(found);
  CHECK(doc["workloads"].size() >= 7);  // the other lists are still there
  // Which agents train under which env versions: mcts alone under v2.
  for (const auto& agent : doc["agents"]) {
    CAPTURE(agent["name"].get<std::string>());
    const auto versions = agent["env_versions"].get<std::vector<std::string>>();
    const bool v2 = std::find(versions.begin(), versions.end(), "v2") != versions.end();
    CHECK(v2 == (agent["name"] == "mcts"));
    // Its facts, as scripts read them (fuzz/corpus/regenerate.sh): a GNN policy, and whether it
    // starts from one.
    const std::set<std::string> with_policy = {"egrl", "ea", "sac", "ppo"};
    const bool policy = with_policy.contains(agent["name"].get<std::string>());
    CHECK(agent["has_policy"] == policy);
    CHECK(agent["starts_from_policy"] == (policy && agent["name"] != "ea"));
  }
  // The shipped policies, one ppo policy per chip, with what each was trained for.
  std::set<std::string> policies;
  for (const auto& policy : doc["policies"]) {
    policies.insert(policy["name"].get<std::string>());
    CHECK(policy["spec"].get<std::string>().find(" env_version=v1 hardware=") != std::string::npos);
    CHECK(policy["bytes"].get<std::size_t>() > 0);
  }
  for (const char* chip : {"nnpi", "edge-tpu", "ipu-gc200", "tpu-v4i"})
    CHECK(policies.contains(std::string("ppo-") + chip));
}

TEST_CASE("check runs the contract and random episodes with options from a file and the line") {
  const Run r = run({"check", "memplace/sequential/resnet50-v0", "--options",
                     kData + "/good/sequential-options.yaml", "-o", "memory_time=sum", "--episodes",
                     "2", "--json"});
  REQUIRE(r.code == cli::kExitOk);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["problems"].empty());
  CHECK(doc["options"]["order"] == "msa");
  CHECK(doc["options"]["reward"] == "terminal");
  CHECK(doc["options"]["memory_time"] == "sum");
  REQUIRE(doc["episodes"].size() == 2);
  for (const auto& e : doc["episodes"]) {
    CHECK(e["valid"] == true);
    CHECK(e["steps"] == 111);
  }
  CHECK(run({"check", "memplace/nothing-v0"}).code == cli::kExitBadInput);
  CHECK(run({"check", "memplace/sequential/resnet50-v0", "-o", "order"}).code ==
        cli::kExitBadInput);
}

}  // namespace
}  // namespace memplace

namespace memplace {
namespace {

TEST_CASE("train writes a run folder whose best mapping replays, and refuses to overwrite it") {
  testing::TempDir dir;
  const std::string out = (dir.path / "run").string();
  const Run first =
      run({"train", "--agent", "sa", "--budget", "800", "--seed", "2", "--out", out, "-q"});
  REQUIRE_MESSAGE(first.code == 0, first.err);
  CHECK(first.out.find("agent sa on resnet50 (seed 2): 800 evaluations") != std::string::npos);
  CHECK(first.out.find("best speedup over the compiler:") != std::string::npos);
  for (const char* file : {"config.yaml", "curve.csv", "best_mapping.yaml", "checkpoint.bin"})
    CHECK_MESSAGE(std::filesystem::exists(dir.path / "run" / file), file);
  const Run replay = run({"evaluate", "resnet50", out + "/best_mapping.yaml"});
  CHECK(replay.code == 0);
  CHECK(replay.out.find("reproduced exactly") != std::string::npos);

  const Run again = run({"train", "--agent", "sa", "--budget", "800", "--out", out, "-q"});
  CHECK(again.code == 2);
  CHECK(again.err.find("already holds a run") != std::string::npos);
  // A finished run resumes to the same end at once.
  const Run resumed = run({"train", "--resume", out, "-q"});
  CHECK(resumed.code == 0);
  const Run mixed = run({"train", "--resume", out, "--budget", "5"});
  CHECK(mixed.code == 2);
  CHECK(mixed.err.find("--resume continues a run as configured") != std::string::npos);
  {
    std::ofstream corrupt(dir.path / "run" / "checkpoint.bin", std::ios::binary | std::ios::trunc);
    corrupt << "garbage";
  }
  const Run corrupt = run({"train", "--resume", out, "-q"});
  CHECK(corrupt.code == 2);
  CHECK(corrupt.err.find("checkpoint.bin: not a memplace state archive") != std::string::npos);
  const Run missing = run({"train", "--resume", (dir.path / "none").string()});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("config.yaml") != std::string::npos);
}

TEST_CASE("train refuses unknown agents, hyperparameters and env options by name") {
  testing::TempDir dir;
  const std::string out = (dir.path / "run").string();
  const Run agent = run({"train", "--agent", "dqn", "--out", out});
  CHECK(agent.code == 2);
  CHECK(agent.err.find("unknown agent 'dqn'") != std::string::npos);
  const Run param = run({"train", "--agent", "sa", "-p", "cooling=fast", "--out", out});
  CHECK(param.code == 2);
  CHECK(param.err.find("cooling") != std::string::npos);
  const Run option = run({"train", "--agent", "sa", "-o", "invalid=ignore", "--out", out});
  CHECK(option.code == 2);
  CHECK(option.err.find("invalid") != std::string::npos);
  const Run env = run({"train", "--agent", "sa", "--env", "sequential", "--out", out});
  CHECK(env.code == 2);
  CHECK(env.err.find("runs on single-step") != std::string::npos);
}

TEST_CASE("transfer: a policy trained on nnpi places a small workload on other hardware") {
  testing::TempDir dir;
  const std::string out = (dir.path / "transfer").string();
  // edge-tpu has 2 memories (the policy's 3 carried over by rank), tpu-v4i 3; under the
  // streaming dynamics (v1), as the table runs.
  const Run r = run({"transfer",
                     "--agent",
                     "ea",
                     "--train",
                     "mobilenet-v2",
                     "--to",
                     "mobilenet-v2",
                     "--to-hardware",
                     "edge-tpu,tpu-v4i",
                     "--env-version",
                     "v1",
                     "--budget",
                     "300",
                     "-p",
                     "hidden=16",
                     "--threads",
                     "1",
                     "--out",
                     out,
                     "-q"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  std::ifstream csv(dir.path / "transfer" / "transfer.csv");
  std::vector<std::string> rows;
  for (std::string line; std::getline(csv, line);)
    rows.push_back(line);
  REQUIRE(rows.size() == 4);
  CHECK(rows[1].starts_with("mobilenet-v2,nnpi,trained on,"));
  CHECK(rows[2].starts_with("mobilenet-v2,edge-tpu,zero-shot,"));
  CHECK(rows[3].starts_with("mobilenet-v2,tpu-v4i,zero-shot,"));
  CHECK(r.out.find("| mobilenet-v2 | edge-tpu | zero-shot |") != std::string::npos);
  CHECK(r.out.find("trained on mobilenet-v2 @ nnpi (v1)") != std::string::npos);
  // Every placement replays on its own hardware with the latency recorded in it.
  for (const char* hardware : {"nnpi", "edge-tpu", "tpu-v4i"}) {
    const std::string file = out + "/mobilenet-v2@" + hardware + "-mapping.yaml";
    const Run replay = run({"evaluate", "mobilenet-v2", file, "--dynamics", "streaming"});
    CHECK_MESSAGE(replay.code == 0, hardware << ": " << replay.err);
    CHECK(replay.out.find("reproduced exactly") != std::string::npos);
  }
  // A hardware model that does not load is refused before any training.
  const Run bad = run({"transfer", "--agent", "ea", "--to-hardware", "tpu-v9", "--budget", "300",
                       "--out", (dir.path / "bad").string(), "-q"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("tpu-v9") != std::string::npos);
  CHECK(!std::filesystem::exists(dir.path / "bad"));
}

}  // namespace
}  // namespace memplace
