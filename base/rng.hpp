// A small, portable random number generator: the same seed gives the same numbers with every
// compiler and standard library (std::uniform_int_distribution does not promise that, and golden
// trajectories depend on it).
//
// xoshiro256** (Blackman & Vigna), seeded through splitmix64; bounded integers by Lemire's
// multiply-and-reject method, which is exact (no modulo bias).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "base/portable_math.hpp"

namespace memplace {

// splitmix64's output for the state `z` (before its increment): a bijective 64-bit mixer, for
// seeding and for deriving independent seeds and hashes.
constexpr std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The seed of an independent random stream named by a path of labels under a run's seed, e.g.
// {purpose, generation, slot}: splitmix64 chained over the path. A stream's seed depends only on
// its name, never on the order streams are made in (hence not on the thread count). The one way
// memplace derives seeds: a component's labels are constants beside it.
constexpr std::uint64_t derive_seed(std::uint64_t seed, std::initializer_list<std::uint64_t> path) {
  std::uint64_t h = splitmix64(seed);
  for (const std::uint64_t label : path)
    h = splitmix64(h ^ label);
  return h;
}

class Rng {
  __extension__ typedef unsigned __int128 u128;  // GCC/Clang; __extension__ keeps -Wpedantic quiet

 public:
  explicit Rng(std::uint64_t seed = 0) { reseed(seed); }

  void reseed(std::uint64_t seed) {
    for (std::uint64_t& s : state_) {
      s = splitmix64(seed);
      seed += 0x9e3779b97f4a7c15ULL;
    }
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, n), n > 0.
  std::uint64_t uniform(std::uint64_t n) {
    u128 m = static_cast<u128>(next()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<u128>(next()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Standard normal, by Box-Muller from two uniforms (one value per call, nothing cached, so
  // state() is the whole state).
  double normal() {
    double u1 = uniform01();
    while (u1 <= 0.0)
      u1 = uniform01();
    const double u2 = uniform01();
    return std::sqrt(-2.0 * portable::log(u1)) * portable::cos_2pi(u2);
  }

  // The full generator state, for checkpoints: a generator restored from it continues the same
  // sequence.
  std::array<std::uint64_t, 4> state() const {
    return {state_[0], state_[1], state_[2], state_[3]};
  }
  void set_state(const std::array<std::uint64_t, 4>& state) {
    for (int i = 0; i < 4; ++i)
      state_[i] = state[i];
  }

  friend bool operator==(const Rng&, const Rng&) = default;

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t state_[4] = {};
};

}  // namespace memplace
