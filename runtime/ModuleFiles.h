//===- ModuleFiles.h - A manifest and its cubin, checked --------*- C++ -*-===//
//
// What Module::load does before any CUDA call, as a pure function of the
// files, so that every refusal (a path outside the manifest's folder, a
// device, a FIFO, an oversized file, bytes that are not a cubin) is
// unit-tested without a GPU. The C, C++ and Python loaders all come through
// here.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MODULEFILES_H
#define KILN_RUNTIME_MODULEFILES_H

#include "runtime/Manifest.h"
#include "runtime/Status.h"

#include <string>
#include <string_view>

namespace kiln {

/// The path of the cubin that the manifest at `manifestPath` names: its
/// `cubin` (a plain file name, as validateManifest requires) in the manifest's
/// folder.
std::string cubinPathFor(const std::string &manifestPath, const Manifest &m);

/// Checks a cubin image before the driver sees it: not empty, at most
/// kMaxCubinBytes, and starting with the ELF magic (every cubin is an ELF
/// file; anything else would reach cuModuleLoadData, which also parses PTX
/// text and fatbins). `name` labels the message.
bool checkCubinImage(std::string_view bytes, const std::string &name,
                     std::string &error);

/// Reads the manifest at `manifestPath` (a regular file of at most
/// kMaxManifestBytes), parses and validates it, and reads the cubin it names
/// next to it (a regular file of at most kMaxCubinBytes that passes
/// checkCubinImage). Errors are `Io` for files and `Manifest` for the
/// manifest's content, and name the file. No CUDA call.
Status readModuleFiles(const std::string &manifestPath, Manifest &manifest,
                       std::string &cubin, std::string &cubinPath);

} // namespace kiln

#endif // KILN_RUNTIME_MODULEFILES_H
