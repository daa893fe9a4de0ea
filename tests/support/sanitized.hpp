// Whether this is the sanitizer build (tests/CMakeLists.txt defines MEMPLACE_SANITIZED there), and
// what a test may then leave out: the sanitizers look for memory and undefined-behaviour errors, so
// a check of what a search finds, or of every shipped file, runs the same code on less data there;
// its full claim is the optimised build's (docs/testing.md, "Suite time").
#pragma once

#include <cstddef>

namespace memplace::testing {

#ifdef MEMPLACE_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// Under the sanitizers, a check over every shipped file looks at one in kSampleStride of them
// (the first, the fifth, ...); elsewhere at all of them.
inline constexpr std::size_t kSampleStride = 4;
inline constexpr bool in_sample(std::size_t index) {
  return !kSanitized || index % kSampleStride == 0;
}

}  // namespace memplace::testing
