// The `memplace` program: everything lives in run_cli (apps/cli.cpp) so tests can call it.
#include <iostream>

#include "apps/cli.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return memplace::cli::run_cli(args, std::cout, std::cerr);
}
