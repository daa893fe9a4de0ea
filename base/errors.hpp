// The error every loader throws for bad input, so a caller can tell it from a failure of its own:
// the CLI turns it into one line and exit code 2.
#pragma once

#include <stdexcept>

namespace memplace {

// Thrown for any invalid workload, hardware, mapping, config or option input. `what()` is one line
// that names the file, the line and the field, e.g.
// "resnet50.yaml:12: layers[3].macs: must be non-negative".
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace memplace
