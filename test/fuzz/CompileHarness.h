//===- CompileHarness.h - What the code-generation fuzzers share -*- C++ -*-===//
//
// kiln-fuzz-compile (.kiln source) and kiln-fuzz-pipeline (tile or cta IR)
// run an input through Kiln's pass pipeline to PTX, as `kiln compile
// --emit=ptx` does (ptxas is not run: it is NVIDIA's, and takes longer than
// everything else together). Expected diagnostics (a located error, "not
// implemented yet", a budget the schedule cannot meet) are dropped; these
// are findings and abort the run:
//
// - an op verifier's message ("'cta.mma' op ...") after the frontend or the
//   IR verifier accepted the input: a pass produced invalid IR, or a
//   program reached a verifier instead of a located error;
// - "internal error" or "failed to legalize" (a lowering pattern missing);
// - a crash, a sanitizer report, a hang or running out of memory.
//
// Each target counts its inputs and how many reached PTX, and prints the
// count at exit ("kiln-fuzz: N inputs, M accepted, P reached PTX (x%)").
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_FUZZ_COMPILEHARNESS_H
#define KILN_TEST_FUZZ_COMPILEHARNESS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace kiln::fuzz {

/// Every dialect and translation the pipeline uses, registered once.
const mlir::DialectRegistry &compileRegistry();

/// Watches a context's diagnostics for findings while alive.
class FindingWatch {
public:
  explicit FindingWatch(mlir::MLIRContext &ctx);
  ~FindingWatch();
  /// Aborts (a finding) if a diagnostic so far was one; prints it first.
  void check() const;

private:
  mlir::MLIRContext &ctx;
  uint64_t handler;
  std::string finding;
};

/// Runs the compile pipeline (from tile IR; from pipelined cta IR when the
/// module holds cta.programs; from layouts and pipelining when they are only
/// tiled) for `chip` and translates to PTX. True when PTX came out.
bool compileToPtx(mlir::ModuleOp module, llvm::StringRef chip);

/// Whether the frontend accepts `source` (.kiln text), or the parser and
/// verifiers `ir` (MLIR text): the code-generation targets' mutators keep
/// trying until a mutation is accepted (at most a few times), so that their
/// time goes to the passes behind the front door, which kiln-fuzz-frontend
/// and kiln-fuzz-ir already fuzz.
bool frontendAccepts(llvm::StringRef source);
/// `source` (.kiln text, shown as `name` in diagnostics) imported into
/// `ctx`; null when the frontend refuses it.
mlir::OwningOpRef<mlir::ModuleOp> importKilnText(mlir::MLIRContext &ctx,
                                                 llvm::StringRef source,
                                                 llvm::StringRef name);
bool verifierAccepts(llvm::StringRef ir);

/// Runs `mutate` on a copy of the input until `accepts` takes the result,
/// at most `attempts` times; returns the size of what is left in `data`
/// (the last attempt when none was accepted, which `accepted` tells).
size_t mutateUntilAccepted(uint8_t *data, size_t size, size_t maxSize,
                           unsigned seed, unsigned attempts,
                           size_t (*mutate)(uint8_t *, size_t, size_t,
                                            unsigned),
                           bool (*accepts)(llvm::StringRef),
                           bool *accepted = nullptr);

/// sm_90a or sm_100a: the one named by a first line `// chip: sm_100a`
/// (kChipLine; tile IR whose schedules were chosen for one chip compiles for
/// no other, and the IR generator and ir-seeds.sh write the line on it),
/// else chosen by the input's bytes (so an input always compiles for the
/// same chip, and both chips get half the inputs; inputs with block scales
/// go to sm_100a, where they lower, three times in four).
inline constexpr llvm::StringLiteral kChipLine = "// chip: ";
llvm::StringRef chipFor(const uint8_t *data, size_t size);

/// Counters printed at exit.
struct Reach {
  uint64_t inputs = 0;
  uint64_t accepted = 0; ///< the frontend or the IR verifier accepted it
  uint64_t ptx = 0;      ///< PTX came out
};
Reach &reach();

} // namespace kiln::fuzz

#endif // KILN_TEST_FUZZ_COMPILEHARNESS_H
