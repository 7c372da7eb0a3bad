//===- PtxMerge.h - One PTX module from separately generated ones -*- C++ -*-===//
//
// The back end generates the PTX of a module's kernels in parallel, one LLVM
// module per kernel, and ptxas then assembles them as one module (one cubin
// per source file, as the runtime loads it). Each generated module is
//   preamble  comments, .version/.target/.address_size, global declarations
//   body      the functions (.entry / .func definitions)
//   trailer   what follows the last function: line-info .file directives and
//             debug sections
// Their bodies can be concatenated when every preamble declares the same
// globals and every trailer is the same (so file numbers of `.loc` agree);
// anything else is refused, and the caller generates the module whole.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_PTXMERGE_H
#define KILN_COMPILER_TARGET_PTXMERGE_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::target {

/// The PTX module holding the functions of `parts` in order, or nullopt when
/// their preambles (ignoring comments and blank lines) or trailers differ, a
/// part has no function, or a part defines a device function (`.func`, e.g.
/// a libdevice routine), which another part may define too.
std::optional<std::string> mergePtxModules(const std::vector<std::string> &parts);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_PTXMERGE_H
