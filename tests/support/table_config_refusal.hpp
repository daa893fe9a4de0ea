// A table config (parsed, then resolved) that must be refused with an InputError whose message
// holds `expected`: the shared check of the tests of bad table configs.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "base/errors.hpp"
#include "experiments/table/table_config.hpp"

namespace memplace::testing {

inline void check_table_config_refused(const std::string& yaml, const std::string& expected) {
  CAPTURE(yaml);
  CHECK_THROWS_WITH_AS(
      [&] {
        experiments::TableConfig c = experiments::TableConfig::parse_yaml(yaml, "table.yaml");
        c.resolve();
      }(),
      doctest::Contains(expected.c_str()), InputError);
}

}  // namespace memplace::testing
