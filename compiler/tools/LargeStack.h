//===- LargeStack.h - Run a tool's work on a thread with a large stack ----===//
//
// MLIR's parser, verifier and printer recurse once per nesting level of
// their input: about 1 KiB of stack per `[` of an attribute and 2 KiB per
// nested region, so the 8 MiB main-thread stack overflows at a few thousand
// levels, which a 10 KB file reaches (found by kiln-fuzz-ir). The tools that
// read MLIR run their work on a thread whose stack is large enough for any
// input the source-size limit admits; its pages are committed only as the
// recursion reaches them.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TOOLS_LARGESTACK_H
#define KILN_COMPILER_TOOLS_LARGESTACK_H

#include "llvm/Support/thread.h"

#include <optional>

namespace kiln {

/// The stack of the thread runWithLargeStack starts.
constexpr unsigned kLargeStackBytes = 1u << 30;

/// Runs `body` (returning int) on a thread with a kLargeStackBytes stack and
/// returns its result.
template <typename Fn> int runWithLargeStack(Fn &&body) {
  int result = 1;
  llvm::thread worker(std::optional<unsigned>(kLargeStackBytes),
                      [&] { result = body(); });
  worker.join();
  return result;
}

} // namespace kiln

#endif // KILN_COMPILER_TOOLS_LARGESTACK_H
