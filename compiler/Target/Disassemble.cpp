//===- Disassemble.cpp - SASS of a cubin, through the CUDA toolkit --------===//

#include "compiler/Target/Disassemble.h"
#include "compiler/Target/Ptxas.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln::target {

std::optional<std::string> findCudaTool(std::string_view name) {
  std::string variable = "KILN_" + llvm::StringRef(name.data(), name.size()).upper();
  if (std::optional<std::string> path = llvm::sys::Process::GetEnv(variable);
      path && !path->empty())
    return path;
  if (std::optional<std::string> ptxas = findPtxas()) {
    llvm::SmallString<256> path(llvm::sys::path::parent_path(*ptxas));
    llvm::sys::path::append(path, name);
    if (llvm::sys::fs::can_execute(path))
      return std::string(path);
  }
  if (llvm::ErrorOr<std::string> onPath =
          llvm::sys::findProgramByName(llvm::StringRef(name.data(), name.size())))
    return *onPath;
  return std::nullopt;
}

ValueOrError<std::string> disassembleCubin(std::string_view cubin,
                                           unsigned timeoutSeconds) {
  using Result = ValueOrError<std::string>;
  std::vector<std::string> command;
  if (std::optional<std::string> nvdisasm = findCudaTool("nvdisasm"))
    command = {*nvdisasm, "--print-line-info", "--print-code"};
  else if (std::optional<std::string> cuobjdump = findCudaTool("cuobjdump"))
    command = {*cuobjdump, "-sass"};
  else
    return Result::failure(
        "--emit=sass needs the CUDA toolkit's nvdisasm or cuobjdump (Debian: "
        "nvidia-cuda-toolkit; NVIDIA's packages: cuda-nvdisasm), and neither "
        "is next to ptxas or on PATH; KILN_NVDISASM names one");

  int fd = -1;
  llvm::SmallString<128> cubinPath, outPath;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("kiln", "cubin", fd, cubinPath))
    return Result::failure("cannot create a temporary cubin: " + ec.message());
  llvm::FileRemover removeCubin(cubinPath);
  {
    llvm::raw_fd_ostream stream(fd, /*shouldClose=*/true);
    stream << llvm::StringRef(cubin.data(), cubin.size());
    stream.flush();
    if (stream.has_error())
      return Result::failure("cannot write '" + std::string(cubinPath) +
                             "': " + stream.error().message());
  }
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("kiln-sass", "txt", outPath))
    return Result::failure("cannot create a temporary file: " + ec.message());
  llvm::FileRemover removeOut(outPath);
  command.push_back(std::string(cubinPath));
  llvm::SmallVector<llvm::StringRef, 8> args(command.begin(), command.end());
  std::optional<llvm::StringRef> redirects[] = {
      std::nullopt, llvm::StringRef(outPath), llvm::StringRef(outPath)};
  std::string error;
  int exitCode = llvm::sys::ExecuteAndWait(command.front(), args, std::nullopt,
                                           redirects, timeoutSeconds, 0, &error);
  std::string output;
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
          llvm::MemoryBuffer::getFile(outPath, /*IsText=*/true))
    output = (*text)->getBuffer().str();
  if (exitCode != 0)
    return Result::failure(llvm::join(command, " ") + " failed (" +
                           (exitCode < 0 ? error
                                         : "exit code " + std::to_string(exitCode)) +
                           "):\n" + output);
  return output;
}

} // namespace kiln::target
