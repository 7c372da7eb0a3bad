//===- Disassemble.h - SASS of a cubin, through the CUDA toolkit -*- C++ -*-===//
//
// `kiln compile --emit=sass` prints the machine code ptxas produced, with the
// .kiln line each instruction came from (the PTX's line info), so that the
// code a kernel runs can be read without a GPU or Nsight. The toolkit's
// nvdisasm does the work (cuobjdump -sass when only it exists, without line
// numbers); Kiln does not decode SASS itself.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_DISASSEMBLE_H
#define KILN_COMPILER_TARGET_DISASSEMBLE_H

#include "compiler/Target/ValueOrError.h"

#include <optional>
#include <string>
#include <string_view>

namespace kiln::target {

/// A CUDA toolkit program (`nvdisasm`, `cuobjdump`): $KILN_<NAME> (upper
/// case) if set, else next to the ptxas findPtxas() finds, else on PATH.
std::optional<std::string> findCudaTool(std::string_view name);

/// The SASS of `cubin` as text, with source lines where the cubin has line
/// info. Fails with a message naming what to install when neither nvdisasm
/// nor cuobjdump is found; stops the tool after `timeoutSeconds` (0: never).
ValueOrError<std::string> disassembleCubin(std::string_view cubin,
                                           unsigned timeoutSeconds = 0);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_DISASSEMBLE_H
