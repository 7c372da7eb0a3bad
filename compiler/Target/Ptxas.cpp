//===- Ptxas.cpp - Running ptxas and checking its resource report ---------===//

#include "compiler/Target/Ptxas.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <chrono>
#include <cstring>

namespace kiln::target {

namespace {

using llvm::StringRef;

/// Splits "(C7508) Potential ..." into code "C7508" and the rest.
void splitCode(StringRef message, PtxasDiagnostic &diagnostic) {
  message = message.trim();
  if (message.starts_with("(C")) {
    size_t close = message.find(')');
    if (close != StringRef::npos) {
      diagnostic.code = message.substr(1, close - 1).str();
      message = message.substr(close + 1).trim();
    }
  }
  diagnostic.message = message.str();
}

std::optional<PtxasSeverity> parseSeverity(StringRef word) {
  if (word == "info")
    return PtxasSeverity::Info;
  if (word == "warning")
    return PtxasSeverity::Warning;
  if (word == "error")
    return PtxasSeverity::Error;
  if (word == "fatal")
    return PtxasSeverity::Fatal;
  return std::nullopt;
}

/// Reads a leading unsigned integer, e.g. "556 bytes spill stores".
bool consumeNumber(StringRef &text, uint64_t &value) {
  text = text.ltrim();
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(text[digits]))
    ++digits;
  if (digits == 0 || text.substr(0, digits).getAsInteger(10, value))
    return false;
  text = text.substr(digits).ltrim();
  return true;
}

/// Applies one comma-separated item of a "Used ..." or "Function
/// properties" line ("Used 32 registers", "4096 bytes smem", ...).
void applyResourceItem(StringRef item, PtxasFunctionReport &function) {
  item = item.trim();
  if (item.consume_front("Used ") || item.consume_front("used "))
    item = item.ltrim();
  uint64_t value = 0;
  if (!consumeNumber(item, value))
    return;
  if (item == "registers")
    function.registers = static_cast<unsigned>(value);
  else if (item == "barriers")
    function.barriers = static_cast<unsigned>(value);
  else if (item == "bytes stack frame")
    function.stackFrameBytes = value;
  else if (item == "bytes spill stores")
    function.spillStoreBytes = value;
  else if (item == "bytes spill loads")
    function.spillLoadBytes = value;
  else if (item == "bytes cumulative stack size")
    function.cumulativeStackBytes = value;
  else if (item == "bytes smem")
    function.sharedBytes = value;
  else if (item.consume_front("bytes cmem[")) {
    unsigned bank = 0;
    if (!item.consume_back("]") || item.getAsInteger(10, bank))
      return;
    function.constantBytes[bank] = value;
  }
}

void applyResourceLine(StringRef line, PtxasFunctionReport &function) {
  llvm::SmallVector<StringRef, 8> items;
  line.split(items, ',');
  for (StringRef item : items)
    applyResourceItem(item, function);
}

/// Text between the first pair of single quotes, e.g. the function name.
StringRef quoted(StringRef text) {
  size_t open = text.find('\'');
  if (open == StringRef::npos)
    return {};
  size_t close = text.find('\'', open + 1);
  if (close == StringRef::npos)
    return {};
  return text.substr(open + 1, close - open - 1);
}

class ReportBuilder {
public:
  void addLine(StringRef line) {
    line = line.rtrim("\r");
    if (line.trim().empty())
      return;
    if (line.starts_with("ptxas")) {
      addTaggedLine(line);
      return;
    }
    // The stack/spill line of "Function properties for X" is indented and
    // untagged.
    if (line.contains("bytes stack frame") && propertiesTarget) {
      applyResourceLine(line, report.functions[*propertiesTarget]);
      propertiesTarget.reset();
      return;
    }
    PtxasDiagnostic other;
    other.text = line.str();
    other.message = line.trim().str();
    report.diagnostics.push_back(std::move(other));
  }

  PtxasReport take() { return std::move(report); }

private:
  void addTaggedLine(StringRef line) {
    size_t colon = line.find(": ");
    if (colon == StringRef::npos)
      return addUntagged(line);
    StringRef tag = line.substr(5, colon - 5).trim();
    StringRef message = line.substr(colon + 2);
    // "ptxas /tmp/k.ptx, line 6; error" puts a location before the word.
    StringRef severityWord =
        tag.rsplit(' ').second.empty() ? tag : tag.rsplit(' ').second;
    std::optional<PtxasSeverity> severity = parseSeverity(severityWord);
    if (!severity)
      return addUntagged(line);

    if (*severity == PtxasSeverity::Info && !message.trim().starts_with("(C") &&
        addStatistic(message.trim()))
      return;

    PtxasDiagnostic diagnostic;
    diagnostic.severity = *severity;
    diagnostic.text = line.str();
    size_t linePos = tag.find("line ");
    if (linePos != StringRef::npos) {
      StringRef number = tag.substr(linePos + 5);
      number = number.take_while([](char c) { return std::isdigit(c); });
      number.getAsInteger(10, diagnostic.ptxLine);
    }
    splitCode(message, diagnostic);
    report.diagnostics.push_back(std::move(diagnostic));
  }

  void addUntagged(StringRef line) {
    PtxasDiagnostic diagnostic;
    diagnostic.text = line.str();
    diagnostic.message = line.str();
    report.diagnostics.push_back(std::move(diagnostic));
  }

  /// Handles one statistics line; false when `message` is not one.
  bool addStatistic(StringRef message) {
    uint64_t value = 0;
    StringRef rest = message;
    if (message.starts_with("Compiling entry function")) {
      PtxasFunctionReport entry;
      entry.name = quoted(message).str();
      entry.isEntry = true;
      StringRef afterFor = message.rsplit(" for ").second;
      entry.arch = quoted(afterFor).str();
      currentEntry = functionIndex(entry.name, /*isEntry=*/true);
      report.functions[*currentEntry].arch = entry.arch;
      return true;
    }
    if (message.starts_with("Function properties for ")) {
      StringRef name = message.substr(strlen("Function properties for "));
      propertiesTarget = functionIndex(name.trim().str(), /*isEntry=*/false);
      return true;
    }
    if (message.starts_with("Used ")) {
      if (currentEntry)
        applyResourceLine(message, report.functions[*currentEntry]);
      return true;
    }
    if (message.starts_with("Compile time = ")) {
      StringRef time = message.substr(strlen("Compile time = "));
      time = time.take_while([](char c) { return c != ' '; });
      double ms = 0;
      if (currentEntry && !time.getAsDouble(ms))
        report.functions[*currentEntry].compileTimeMs = ms;
      return true;
    }
    if (consumeNumber(rest, value) && rest == "bytes gmem") {
      report.globalBytes = value;
      return true;
    }
    return false;
  }

  /// Index of the function called `name`, created if new. A "Function
  /// properties" block for an entry follows its "Compiling entry" line,
  /// so looking the name up first keeps one record per function.
  size_t functionIndex(const std::string &name, bool isEntry) {
    for (size_t i = 0; i < report.functions.size(); ++i)
      if (report.functions[i].name == name) {
        report.functions[i].isEntry |= isEntry;
        return i;
      }
    PtxasFunctionReport function;
    function.name = name;
    function.isEntry = isEntry;
    report.functions.push_back(std::move(function));
    return report.functions.size() - 1;
  }

  PtxasReport report;
  std::optional<size_t> currentEntry;
  std::optional<size_t> propertiesTarget;
};

bool isValidArch(StringRef arch) {
  if (!arch.consume_front("sm_"))
    return false;
  size_t digits = 0;
  while (digits < arch.size() && std::isdigit(arch[digits]))
    ++digits;
  if (digits == 0)
    return false;
  StringRef suffix = arch.substr(digits);
  return suffix.empty() || suffix == "a" || suffix == "f";
}

bool isExecutable(const std::string &path) {
  return !path.empty() && llvm::sys::fs::can_execute(path) &&
         !llvm::sys::fs::is_directory(path);
}

std::string joinCommand(const std::vector<std::string> &command) {
  std::string joined;
  for (const std::string &part : command) {
    if (!joined.empty())
      joined += ' ';
    joined += part;
  }
  return joined;
}

} // namespace

const PtxasFunctionReport *
PtxasReport::findFunction(std::string_view name) const {
  for (const PtxasFunctionReport &function : functions)
    if (function.name == name)
      return &function;
  return nullptr;
}

PtxasReport parsePtxasReport(std::string_view log) {
  ReportBuilder builder;
  llvm::SmallVector<StringRef, 32> lines;
  StringRef(log.data(), log.size()).split(lines, '\n');
  for (StringRef line : lines)
    builder.addLine(line);
  return builder.take();
}

/// The function an advisory names ("... in the function 'k'"), or "".
static std::string namedFunction(StringRef message) {
  size_t at = message.find("in the function '");
  return at == StringRef::npos ? std::string()
                               : quoted(message.substr(at)).str();
}

std::vector<PtxasViolation> findPtxasViolations(const PtxasReport &report) {
  std::vector<PtxasViolation> violations;
  for (const PtxasFunctionReport &function : report.functions)
    if (function.spillStoreBytes > 0 || function.spillLoadBytes > 0)
      violations.push_back(
          {function.name,
           std::string(function.isEntry ? "kernel '" : "function '") +
               function.name + "' spills registers: " +
               std::to_string(function.spillStoreBytes) + " bytes stored, " +
               std::to_string(function.spillLoadBytes) + " bytes loaded"});
  for (const PtxasDiagnostic &diagnostic : report.diagnostics) {
    std::string code =
        diagnostic.code.empty() ? "" : " (" + diagnostic.code + ")";
    StringRef message = diagnostic.message;
    std::string function = namedFunction(message);
    if (diagnostic.code == "C7508" || message.contains("'setmaxnreg' ignored"))
      violations.push_back({function, "ptxas ignored setmaxnreg" + code +
                                          ": " + diagnostic.message});
    else if (message.contains("wgmma.mma_async instructions are serialized"))
      violations.push_back({function, "ptxas serialized the wgmma pipeline" +
                                          code + ": " + diagnostic.message});
    else if (diagnostic.severity == PtxasSeverity::Error ||
             diagnostic.severity == PtxasSeverity::Fatal)
      violations.push_back(
          {function, "ptxas error" + code + ": " + diagnostic.message});
  }
  return violations;
}

std::vector<std::string> checkPtxasPolicy(const PtxasReport &report) {
  std::vector<std::string> messages;
  for (PtxasViolation &violation : findPtxasViolations(report))
    messages.push_back(std::move(violation.message));
  return messages;
}

std::optional<std::string> findPtxas() {
  if (std::optional<std::string> explicitPath =
          llvm::sys::Process::GetEnv("KILN_PTXAS");
      explicitPath && !explicitPath->empty())
    // An explicit choice wins even if it is wrong, so that runPtxas()
    // reports the bad path instead of silently using another ptxas.
    return explicitPath;
  if (std::optional<std::string> cudaHome =
          llvm::sys::Process::GetEnv("CUDA_HOME");
      cudaHome && !cudaHome->empty()) {
    llvm::SmallString<256> path(*cudaHome);
    llvm::sys::path::append(path, "bin", "ptxas");
    if (isExecutable(std::string(path)))
      return std::string(path);
  }
  if (isExecutable("/usr/local/cuda/bin/ptxas"))
    return std::string("/usr/local/cuda/bin/ptxas");
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  return std::nullopt;
}

std::optional<std::string> findLibdevice() {
  std::vector<std::string> roots;
  if (std::optional<std::string> cudaHome = llvm::sys::Process::GetEnv("CUDA_HOME");
      cudaHome && !cudaHome->empty())
    roots.push_back(*cudaHome);
  // The toolkit that holds the ptxas we would run.
  if (std::optional<std::string> ptxas = findPtxas()) {
    llvm::SmallString<256> root(*ptxas);
    llvm::sys::path::remove_filename(root); // bin
    llvm::sys::path::remove_filename(root); // toolkit root
    roots.push_back(std::string(root));
  }
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    llvm::SmallString<256> path(root);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(path))
      return std::string(path);
  }
  return std::nullopt;
}

ValueOrError<PtxasResult> runPtxas(std::string_view ptx,
                                   const PtxasOptions &options) {
  using Result = ValueOrError<PtxasResult>;
  if (!isValidArch(options.arch))
    return Result::failure("'" + options.arch +
                           "' is not a ptxas architecture (expected e.g. "
                           "sm_90a or sm_100a)");
  std::string ptxas = options.ptxasPath;
  if (ptxas.empty()) {
    std::optional<std::string> found = findPtxas();
    if (!found)
      return Result::failure("ptxas not found: set KILN_PTXAS or CUDA_HOME, "
                             "or put ptxas on PATH");
    ptxas = *found;
  }
  if (!isExecutable(ptxas))
    return Result::failure("ptxas at '" + ptxas + "' is not executable");

  // Temporary files: the PTX input, ptxas's combined output, and the cubin
  // unless the caller names it.
  int ptxFd = -1;
  llvm::SmallString<128> ptxPath, logPath, cubinPath;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("kiln", "ptx", ptxFd, ptxPath))
    return Result::failure("cannot create a temporary PTX file: " +
                           ec.message());
  llvm::FileRemover removePtx(ptxPath);
  {
    llvm::raw_fd_ostream stream(ptxFd, /*shouldClose=*/true);
    stream << StringRef(ptx.data(), ptx.size());
    stream.flush();
    if (stream.has_error())
      return Result::failure("cannot write '" + std::string(ptxPath) +
                             "': " + stream.error().message());
  }
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("kiln-ptxas", "log", logPath))
    return Result::failure("cannot create a temporary log file: " +
                           ec.message());
  llvm::FileRemover removeLog(logPath);
  llvm::FileRemover removeCubin;
  if (options.outputPath.empty()) {
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("kiln", "cubin", cubinPath))
      return Result::failure("cannot create a temporary cubin file: " +
                             ec.message());
    removeCubin.setFile(cubinPath);
  } else {
    cubinPath = options.outputPath;
  }

  PtxasResult result;
  result.command = {ptxas, "-arch=" + options.arch, "-v",
                    "-O" + std::to_string(options.optimizationLevel)};
  result.command.insert(result.command.end(), options.extraArguments.begin(),
                        options.extraArguments.end());
  result.command.push_back(std::string(ptxPath));
  result.command.push_back("-o");
  result.command.push_back(std::string(cubinPath));

  llvm::SmallVector<StringRef, 16> args(result.command.begin(),
                                        result.command.end());
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string launchError;
  bool launchFailed = false;
  auto start = std::chrono::steady_clock::now();
  int exitCode = llvm::sys::ExecuteAndWait(
      ptxas, args, /*Env=*/std::nullopt, redirects, options.timeoutSeconds,
      /*MemoryLimit=*/0, &launchError, &launchFailed);
  if (launchFailed)
    return Result::failure("cannot run '" + ptxas + "': " + launchError);
  // ExecuteAndWait kills the child at the limit and reports it like a crash
  // (-2); the elapsed time tells the two apart.
  if (exitCode < 0 && options.timeoutSeconds != 0 &&
      std::chrono::steady_clock::now() - start >=
          std::chrono::seconds(options.timeoutSeconds))
    return Result::failure("ptxas did not finish within its time limit of " +
                           std::to_string(options.timeoutSeconds) +
                           " s and was stopped");

  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> log =
          llvm::MemoryBuffer::getFile(logPath, /*IsText=*/true))
    result.log = (*log)->getBuffer().str();
  if (exitCode != 0) {
    std::string reason =
        exitCode < 0 ? launchError : "exit code " + std::to_string(exitCode);
    return Result::failure(joinCommand(result.command) + " failed (" + reason +
                           "):\n" + result.log);
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> cubin =
      llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!cubin)
    return Result::failure("ptxas succeeded but its cubin '" +
                           std::string(cubinPath) +
                           "' cannot be read: " + cubin.getError().message());
  result.cubin = (*cubin)->getBuffer().str();
  result.report = parsePtxasReport(result.log);
  return result;
}

} // namespace kiln::target
