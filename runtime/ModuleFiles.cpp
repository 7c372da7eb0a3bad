//===- ModuleFiles.cpp - A manifest and its cubin, read and checked -------===//

#include "runtime/ModuleFiles.h"

#include "runtime/FileRead.h"
#include "runtime/Limits.h"

namespace kiln {

/// The first bytes of every ELF file, and so of every cubin ("\x7fELF").
static constexpr std::string_view kElfMagic = "\177ELF";

std::string cubinPathFor(const std::string &manifestPath, const Manifest &m) {
  size_t slash = manifestPath.find_last_of('/');
  std::string folder = slash == std::string::npos
                           ? std::string()
                           : manifestPath.substr(0, slash + 1);
  return folder + m.cubin;
}

bool checkCubinImage(std::string_view bytes, const std::string &name,
                     std::string &error) {
  if (bytes.empty()) {
    error = name + ": the cubin is empty";
    return false;
  }
  if (bytes.size() > kMaxCubinBytes) {
    error = name + ": the cubin is " + std::to_string(bytes.size()) +
            " bytes, more than the limit of " + std::to_string(kMaxCubinBytes) +
            " bytes (" + byteLimitText(kMaxCubinBytes) + ")";
    return false;
  }
  if (bytes.substr(0, kElfMagic.size()) != kElfMagic) {
    error = name + ": not a cubin (it does not start with the ELF magic "
                   "\\x7fELF)";
    return false;
  }
  return true;
}

Status readModuleFiles(const std::string &manifestPath, Manifest &manifest,
                       std::string &cubin, std::string &cubinPath) {
  std::string text, error;
  if (!readRegularFile(manifestPath, kMaxManifestBytes, text, error))
    return Status::error(ErrorCode::Io,
                         manifestPath + ": cannot read the manifest: " + error);
  if (!parseManifest(text, manifest, error))
    return Status::error(ErrorCode::Manifest, manifestPath + ": " + error);
  cubinPath = cubinPathFor(manifestPath, manifest);
  if (!readRegularFile(cubinPath, kMaxCubinBytes, cubin, error))
    return Status::error(ErrorCode::Io,
                         cubinPath + ": cannot read the cubin named by " +
                             manifestPath + ": " + error);
  if (!checkCubinImage(cubin, cubinPath, error))
    return Status::error(ErrorCode::Io,
                         error + " (named by " + manifestPath + ")");
  return Status();
}

} // namespace kiln
