//===- ProgramGenerator.h - Random .kiln programs for the fuzzers -*- C++ -*-===//
//
// Structure-aware fuzzing (docs/testing.md): byte-level mutation of .kiln text
// rarely yields a program the frontend accepts (about 3.5% did), so lowering
// saw almost no fuzzed input. This generator writes programs from the
// language's grammar in the shapes that lower today: a matmul or a dual GEMM
// with fp8, 16-bit or block-scaled operands, epilogue expressions over the
// products, bias/scale/residual inputs and constants, one or two outputs,
// symbolic, constant or interesting extents, and schedule hints (mostly
// within the rules, sometimes just outside them); attention in the forms
// convert-tile-to-cta builds (ranks, grouped-query heads, head dims, masks,
// soft-capping) and some it refuses. A few programs are of the forms that do
// not lower yet (grouped GEMM, reductions, batched matmul), so their "not
// implemented yet" paths are fuzzed too.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_FUZZ_PROGRAMGENERATOR_H
#define KILN_TEST_FUZZ_PROGRAMGENERATOR_H

#include <cstdint>
#include <random>
#include <string>

namespace kiln::fuzz {

/// The random source of the generator and the mutators: seeded by libFuzzer.
using Random = std::minstd_rand;

/// A generator seeded by `seed`, mixed first: minstd_rand's first outputs
/// from small seeds are small too, which would pick the first case of
/// every choice.
inline Random makeRandom(uint64_t seed) {
  seed += 0x9e3779b97f4a7c15ull; // splitmix64
  seed = (seed ^ (seed >> 30)) * 0xbf58476d1ce4e5b9ull;
  seed = (seed ^ (seed >> 27)) * 0x94d049bb133111ebull;
  seed ^= seed >> 31;
  return Random(static_cast<Random::result_type>(seed % 2147483646u) + 1);
}

/// A .kiln file of one kernel (rarely two), drawn from `rng`.
std::string generateProgram(Random &rng);

} // namespace kiln::fuzz

#endif // KILN_TEST_FUZZ_PROGRAMGENERATOR_H
