//===- ForeignOptions.h - Keep --help to the options a user needs -*- C++ -*-===//
//
// The tools link libLLVM and libMLIR, whose static constructors register
// several hundred command-line options of other targets and projects
// (AMDGPU, Polly, SPIR-V, profiling...): `kiln compile --help` printed 424
// lines, Kiln's own starting at line 412. Each tool calls this first, before
// it registers MLIR's options: every option registered so far, except the
// tool's own categories, moves behind --help-hidden (it still works), and
// what the tool registers afterwards (MLIR's --mlir-* debugging options, the
// pass list) stays in --help.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TOOLS_FOREIGNOPTIONS_H
#define KILN_COMPILER_TOOLS_FOREIGNOPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"

namespace kiln {

inline void
hideForeignOptions(llvm::ArrayRef<const llvm::cl::OptionCategory *> own = {}) {
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    llvm::cl::Option *option = entry.second;
    bool ours = llvm::any_of(option->Categories, [&](auto *category) {
      return llvm::is_contained(own, category);
    });
    // --help, --version and their siblings are LLVM's generic options.
    llvm::StringRef name = entry.first;
    if (ours || name.starts_with("help") || name == "version" ||
        name.starts_with("print-options") || name.starts_with("print-all-options"))
      continue;
    if (option->getOptionHiddenFlag() == llvm::cl::NotHidden)
      option->setHiddenFlag(llvm::cl::Hidden);
  }
}

/// Moves MLIR's --mlir-* options (IR printing, timing, crash reproducers)
/// into `category`, so that --help lists them under a heading of their own
/// after the tool's options instead of as "General options".
inline void groupMlirOptions(llvm::cl::OptionCategory &category) {
  for (auto &entry : llvm::cl::getRegisteredOptions())
    if (llvm::StringRef(entry.first).starts_with("mlir-"))
      entry.second->addCategory(category);
}

} // namespace kiln

#endif // KILN_COMPILER_TOOLS_FOREIGNOPTIONS_H
