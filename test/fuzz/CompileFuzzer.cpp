//===- CompileFuzzer.cpp - libFuzzer entry from .kiln source to PTX -------===//
//
// kiln-fuzz-compile: each input is a .kiln file, compiled as `kiln compile
// --emit=ptx` does (frontend, fusion, schedule, tiling, pipelining, NVVM,
// LLVM's NVPTX back end) for sm_90a or sm_100a (chosen by the input's bytes).
// Its mutator is structure-aware (Mutators.h): numbers, dtypes, functions,
// hints and whole generated programs, so most inputs pass the frontend and
// reach code generation. CompileHarness.h lists what is a finding;
// docs/testing.md says how to run it.
//
//===----------------------------------------------------------------------===//

#include "test/fuzz/CompileHarness.h"
#include "test/fuzz/LastInput.h"
#include "test/fuzz/Mutators.h"

#include "compiler/tools/LargeStack.h"

#include "mlir/IR/MLIRContext.h"

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  // (What the front door refuses is kiln-fuzz-frontend's and kiln-fuzz-ir's
  // to explore; a mutation that it accepts is kept.)
  return kiln::fuzz::mutateUntilAccepted(data, size, maxSize, seed,
                                         /*attempts=*/6, kiln::fuzz::mutateKiln,
                                         kiln::fuzz::frontendAccepts);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  kiln::fuzz::saveLastInput(data, size);
  kiln::fuzz::Reach &reach = kiln::fuzz::reach();
  ++reach.inputs;
  kiln::runWithLargeStack([&] {
    mlir::MLIRContext ctx(kiln::fuzz::compileRegistry(),
                          mlir::MLIRContext::Threading::DISABLED);
    ctx.loadAllAvailableDialects();
    kiln::fuzz::FindingWatch watch(ctx);
    mlir::OwningOpRef<mlir::ModuleOp> module = kiln::fuzz::importKilnText(
        ctx, llvm::StringRef(reinterpret_cast<const char *>(data), size),
        "fuzz.kiln");
    watch.check();
    if (!module)
      return 0;
    ++reach.accepted;
    bool ptx = kiln::fuzz::compileToPtx(*module,
                                        kiln::fuzz::chipFor(data, size));
    watch.check();
    reach.ptx += ptx;
    return 0;
  });
  return 0;
}
