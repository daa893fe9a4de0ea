// memplace import MODEL.onnx -o W.yaml: placeholder registration until the importer lands.
#include "apps/commands.hpp"

namespace memplace::cli {

void add_import_command(CLI::App&, Streams) {}

}  // namespace memplace::cli
