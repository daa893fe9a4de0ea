// The subcommands of `memplace`. Each registers itself on the app; its callback writes to `out`.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>

#include "base/parallel/process_group.hpp"

namespace memplace::cli {

struct Streams {
  std::ostream& out;
  std::ostream& err;
  // The ranks of the job (docs/scale-out.md); rank 0 prints the results and the progress.
  ProcessGroup& ranks = single_process();
};

void add_list_command(CLI::App& app, Streams io);
void add_info_command(CLI::App& app, Streams io);
void add_evaluate_command(CLI::App& app, Streams io);
void add_references_command(CLI::App& app, Streams io);
void add_optimum_command(CLI::App& app, Streams io);
void add_import_command(CLI::App& app, Streams io);
void add_check_command(CLI::App& app, Streams io);
void add_train_command(CLI::App& app, Streams io);
void add_table_command(CLI::App& app, Streams io);
void add_transfer_command(CLI::App& app, Streams io);
void add_submission_command(CLI::App& app, Streams io);
void add_generalize_command(CLI::App& app, Streams io);
void add_pack_command(CLI::App& app, Streams io);
void add_calibrate_command(CLI::App& app, Streams io);
void add_place_command(CLI::App& app, Streams io);
void add_pretrain_command(CLI::App& app, Streams io);

}  // namespace memplace::cli
