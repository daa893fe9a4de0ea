// The fuzz targets without libFuzzer: runs the one MEMPLACE_FUZZ_TARGET names over every file
// given, or every file in every folder given (a seed corpus, the regression inputs of
// fuzz/regressions/). The test suite replays each target this way under both presets, so the
// targets keep building and every input that once failed stays fixed; `make fuzz` links the same
// targets with libFuzzer. With --all-accepted first, an input refused as bad input is a failure
// (exit 1): for the seeds memplace writes itself (fuzz/corpus/regenerate.sh), which go stale when
// a format changes.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" std::size_t memplace_fuzz_refused;

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  LLVMFuzzerInitialize(&argc, &argv);
  const bool all_accepted = argc > 1 && std::string(argv[1]) == "--all-accepted";
  std::vector<fs::path> files;
  for (int i = all_accepted ? 2 : 1; i < argc; ++i) {
    const fs::path given(argv[i]);
    if (fs::is_directory(given)) {
      for (const auto& entry : fs::recursive_directory_iterator(given))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else if (fs::is_regular_file(given)) {
      files.push_back(given);
    } else {
      std::fprintf(stderr, "replay: no file or folder %s\n", argv[i]);
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t refused = memplace_fuzz_refused;
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    if (all_accepted && memplace_fuzz_refused != refused) {
      std::fprintf(stderr,
                   "replay: %s was refused as bad input, so the fuzzer would get no further "
                   "than its error (the seeds memplace writes: fuzz/corpus/regenerate.sh)\n",
                   file.c_str());
      return 1;
    }
  }
  std::printf("replayed %zu inputs, %zu refused as bad input\n", files.size(),
              memplace_fuzz_refused);
  return 0;
}
