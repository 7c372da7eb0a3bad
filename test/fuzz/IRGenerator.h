//===- IRGenerator.h - Tile and cta IR of generated programs ----*- C++ -*-===//
//
// kiln-fuzz-pipeline's inputs are IR, and mutations of IR mostly break the
// verifiers or a pass's preconditions: with mutations alone 12% of its inputs
// reached PTX. Valid IR is best had from valid programs, so a share of its
// mutations replaces the input by a program of the generator
// (ProgramGenerator.h) taken through the frontend and the pipeline up to one
// of four points, printed as MLIR text:
//
// - tile IR as the frontend writes it (fusion and scheduling still ahead);
// - tile IR fused and scheduled (what `kiln compile --emit=tile` prints);
// - cta IR as convert-tile-to-cta writes it (tiled, before layouts and
//   pipelining: CompileHarness.h lowers it from there);
// - cta IR pipelined, with resources decided (`--emit=cta`).
//
// Tile IR starts with the line naming the chip it was generated for
// (kChipLine in CompileHarness.h); cta IR names its chip itself. The
// frontend and the passes on the way are kiln-fuzz-compile's to fuzz: a
// program that fails on the way is skipped here.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_FUZZ_IRGENERATOR_H
#define KILN_TEST_FUZZ_IRGENERATOR_H

#include "test/fuzz/ProgramGenerator.h"

#include <string>

namespace kiln::fuzz {

/// MLIR text of one generated program at a point of the pipeline drawn from
/// `rng`; empty when a few programs in a row failed on the way.
std::string generateIR(Random &rng);

} // namespace kiln::fuzz

#endif // KILN_TEST_FUZZ_IRGENERATOR_H
