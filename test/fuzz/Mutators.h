//===- Mutators.h - Structure-aware mutators for the fuzzers ----*- C++ -*-===//
//
// libFuzzer's custom mutators for Kiln's text inputs. Byte flips turn almost
// every program into a syntax error; these change one meaningful piece at a
// time, so most results still parse and check and the fuzzer reaches the
// passes behind the frontend:
//
// - a number becomes an interesting one (0, 1, one past a tile, 2^31 - 1,
//   a power of two, its neighbour, the value doubled or halved);
// - a word becomes another of its kind: a dtype another dtype, a function
//   another function, an operator another operator, true false, a swizzle
//   another swizzle, an MLIR element type another (tables in Mutators.cpp);
// - a .kiln input is now and then replaced by a generated program
//   (ProgramGenerator.h), and an input of either kind now and then gets
//   libFuzzer's own byte-level mutation, so nothing is out of reach.
//
// In MLIR text a change applies to every occurrence of the number or word
// half of the time (IR repeats a type at each use). kiln-fuzz-pipeline also
// replaces its inputs by IR of generated programs (IRGenerator.h), which
// needs the compiler and so is not here.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_FUZZ_MUTATORS_H
#define KILN_TEST_FUZZ_MUTATORS_H

#include <cstddef>
#include <cstdint>

namespace kiln::fuzz {

/// Mutates the .kiln text `data[0, size)` in place within `maxSize` bytes;
/// returns the new size (libFuzzer's LLVMFuzzerCustomMutator contract).
size_t mutateKiln(uint8_t *data, size_t size, size_t maxSize, unsigned seed);

/// The same for MLIR text of tile or cta IR.
size_t mutateMlir(uint8_t *data, size_t size, size_t maxSize, unsigned seed);

} // namespace kiln::fuzz

#endif // KILN_TEST_FUZZ_MUTATORS_H
