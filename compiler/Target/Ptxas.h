//===- Ptxas.h - Running ptxas and checking its resource report -*- C++ -*-===//
//
// The compiler produces PTX and hands it to NVIDIA's ptxas for the cubin.
// ptxas -v is also our only view of what the kernel costs (registers,
// spills, shared memory) and the only place some silent performance bugs
// show up: 'setmaxnreg' ignored (C7508) and serialized wgmma pipelines
// (lowering-brief.md §2.4, §8.2). This file runs ptxas, parses its report
// and applies the project's policy to it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_PTXAS_H
#define KILN_COMPILER_TARGET_PTXAS_H

#include "compiler/Target/ValueOrError.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::target {

/// How serious a ptxas message is. ptxas prints its performance advisories
/// (C7508, C7511, ...) as "info", not as warnings.
enum class PtxasSeverity : uint8_t { Info, Warning, Error, Fatal };

/// One ptxas message that is not part of a resource report.
struct PtxasDiagnostic {
  PtxasSeverity severity = PtxasSeverity::Info;
  /// The "(Cnnnn)" message code without parentheses, or empty.
  std::string code;
  /// The text after the severity tag and the code.
  std::string message;
  /// PTX line for "ptxas FILE, line N; error : ..." messages, else 0.
  unsigned ptxLine = 0;
  /// The full line as ptxas printed it.
  std::string text;
};

/// Resource usage of one function as ptxas -v reports it.
struct PtxasFunctionReport {
  std::string name;
  /// True for kernels ("Compiling entry function"), false for device
  /// functions ptxas kept as calls.
  bool isEntry = false;
  /// Target architecture of the entry ("sm_90a"); empty for functions.
  std::string arch;
  unsigned registers = 0;
  unsigned barriers = 0;
  uint64_t stackFrameBytes = 0;
  uint64_t spillStoreBytes = 0;
  uint64_t spillLoadBytes = 0;
  uint64_t cumulativeStackBytes = 0;
  /// Static shared memory (dynamic shared memory is a launch parameter).
  uint64_t sharedBytes = 0;
  /// Constant-bank bytes by bank ("N bytes cmem[B]"); ptxas 13 often
  /// omits these.
  std::map<unsigned, uint64_t> constantBytes;
  double compileTimeMs = 0;
};

/// Everything ptxas -v printed, parsed.
struct PtxasReport {
  std::vector<PtxasFunctionReport> functions;
  std::vector<PtxasDiagnostic> diagnostics;
  uint64_t globalBytes = 0;

  /// The report of function or entry `name`, or nullptr.
  const PtxasFunctionReport *findFunction(std::string_view name) const;
};

/// Parses ptxas -v output (stdout and stderr together). Unknown lines are
/// kept as Info diagnostics so that nothing ptxas says is lost.
PtxasReport parsePtxasReport(std::string_view log);

/// One break of the ptxas policy.
struct PtxasViolation {
  /// The function it is in, where ptxas says (spills, "... in the function
  /// 'k'"); empty where it does not (C7508, errors).
  std::string function;
  std::string message;
};

/// The project's ptxas policy. Returns one violation per break, none when
/// the report is clean: any register spill, any 'setmaxnreg' ignored
/// advisory (C7508 and its siblings), any "wgmma.mma_async instructions are
/// serialized" advisory, and any error.
std::vector<PtxasViolation> findPtxasViolations(const PtxasReport &report);

/// The messages of findPtxasViolations(report).
std::vector<std::string> checkPtxasPolicy(const PtxasReport &report);

/// Where ptxas is: $KILN_PTXAS if set, else $CUDA_HOME/bin/ptxas,
/// /usr/local/cuda/bin/ptxas, or ptxas on PATH, whichever is executable
/// first.
std::optional<std::string> findPtxas();

/// Finds the CUDA toolkit's libdevice (nvvm/libdevice/libdevice.10.bc), which
/// implements math functions (expf, tanhf, erff, ...) for NVPTX: under
/// CUDA_HOME, next to the ptxas findPtxas() finds, or /usr/local/cuda.
std::optional<std::string> findLibdevice();

/// How to run ptxas.
struct PtxasOptions {
  /// "sm_90a" or "sm_100a" (any "sm_<digits>[suffix]" is passed through).
  std::string arch = "sm_90a";
  unsigned optimizationLevel = 3;
  /// Added before the input file, e.g. "--warn-on-spills".
  std::vector<std::string> extraArguments;
  /// ptxas to run; empty means findPtxas().
  std::string ptxasPath;
  /// Where to write the cubin; empty means a temporary file that is removed
  /// after its bytes are read into PtxasResult::cubin.
  std::string outputPath;
  /// Seconds ptxas may run before it is killed and the run fails; 0 waits
  /// forever. ptxas's time grows much faster than the PTX it reads on some
  /// inputs (minutes for a few hundred KB of unrolled math), so a compiler
  /// driver should never wait unbounded.
  unsigned timeoutSeconds = 0;
};

/// A successful ptxas run.
struct PtxasResult {
  /// The cubin's bytes.
  std::string cubin;
  /// ptxas's stdout and stderr, in order.
  std::string log;
  PtxasReport report;
  /// The command that ran, for messages.
  std::vector<std::string> command;
};

/// Assembles `ptx` with `ptxas -arch=<arch> -v -O<n>`. Fails when ptxas
/// cannot be found or started, or exits non-zero (the message then carries
/// ptxas's own errors). It does not apply checkPtxasPolicy().
ValueOrError<PtxasResult> runPtxas(std::string_view ptx,
                                   const PtxasOptions &options);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_PTXAS_H
