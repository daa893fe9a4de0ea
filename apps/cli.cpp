#include "apps/cli.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "agents/nn/gemm.hpp"
#include "apps/commands.hpp"
#include "base/errors.hpp"
#include "base/version.hpp"

namespace memplace::cli {
namespace {

// In a job of several ranks, a scale-out command (table, train) starts with an agreement on its
// arguments (run_agreed in run_table and run_train). A rank whose command line did not
// parse, or that printed the help instead, joins that agreement with an error, so that the ranks
// running the command stop with it instead of waiting for it in their next collective.
void tell_the_other_ranks(ProcessGroup& ranks, bool scales_out, const std::string& why) {
  if (ranks.size() == 1 || !scales_out) return;
  try {
    run_agreed(ranks, OnRanks::every, [&] { throw InputError(why); });
  } catch (const InputError&) {
    // This rank reports its own error.
  }
}

// A path the system refuses as a name (too long, a file where a folder must be, a loop of links)
// is bad input wherever it is first used; other file errors (a full disk, a folder made
// read-only mid-run) are failures.
bool refused_as_a_name(const std::error_code& code) {
  return code == std::errc::filename_too_long || code == std::errc::not_a_directory ||
         code == std::errc::too_many_symbolic_link_levels;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
            ProcessGroup& ranks) {
  const bool scales_out = !args.empty() && (args[0] == "table" || args[0] == "train");
  if (ranks.size() > 1 && !scales_out && !ranks.leader()) return kExitOk;
  CLI::App app{
      "memplace: reinforcement-learning environments and agents for tensor memory placement on "
      "ML accelerators (weights and activations of every layer to SRAM / LLC / DRAM)."};
  app.set_version_flag("--version", "memplace " + std::string(memplace_version()));
  app.require_subcommand(1);
  app.fallthrough(false);
  const Streams io{out, err, ranks};
  add_list_command(app, io);
  add_info_command(app, io);
  add_evaluate_command(app, io);
  add_references_command(app, io);
  add_optimum_command(app, io);
  add_import_command(app, io);
  add_check_command(app, io);
  add_train_command(app, io);
  add_table_command(app, io);
  add_transfer_command(app, io);
  add_place_command(app, io);
  add_pretrain_command(app, io);
  add_generalize_command(app, io);
  add_submission_command(app, io);
  add_pack_command(app, io);
  add_calibrate_command(app, io);

  // CLI11 wants argv order reversed when given a vector.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  // Every rank reports its own error, saying which it is, in one write (the ranks share a
  // terminal).
  const std::string me = ranks.size() > 1 && scales_out
                             ? "memplace (rank " + std::to_string(ranks.rank()) + " of " +
                                   std::to_string(ranks.size()) + ")"
                             : "memplace";
  try {
    // A bad MEMPLACE_GEMM_KERNEL is refused before any command starts work (agents/nn/gemm.hpp).
    nn::gemm_kernel();
    app.parse(reversed);
    return kExitOk;
  } catch (const CLI::CallForHelp&) {
    tell_the_other_ranks(ranks, scales_out, "printed the help instead of running the command");
    if (ranks.leader()) out << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    tell_the_other_ranks(ranks, scales_out, "printed the help instead of running the command");
    if (ranks.leader()) out << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion& e) {
    if (ranks.leader()) out << e.what() << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    // Help for a subcommand arrives as CallForHelp from that subcommand's parse.
    if (e.get_exit_code() == 0) {
      tell_the_other_ranks(ranks, scales_out, "printed the help instead of running the command");
      if (ranks.leader()) out << app.help();
      return kExitOk;
    }
    tell_the_other_ranks(ranks, scales_out, e.what());
    err << me + ": " + e.what() + "\nRun 'memplace --help' for usage.\n";
    return kExitBadInput;
  } catch (const Interrupted& e) {
    err << me + ": " + e.what() + "\n";
    return kExitInterrupted;
  } catch (const InputError& e) {
    err << me + ": " + e.what() + "\n";
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    err << me + ": " + e.what() + "\n";
    return kExitBadInput;
  } catch (const std::filesystem::filesystem_error& e) {
    if (refused_as_a_name(e.code())) {
      err << me + ": " + e.path1().string() + ": " + e.code().message() + "\n";
      return kExitBadInput;
    }
    err << me + ": error: " + e.what() + "\n";
    return kExitFailure;
  } catch (const std::exception& e) {
    err << me + ": error: " + e.what() + "\n";
    return kExitFailure;
  }
}

}  // namespace memplace::cli
