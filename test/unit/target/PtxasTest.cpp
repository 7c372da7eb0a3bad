//===- PtxasTest.cpp - ptxas report parsing, policy and invocation --------===//
//
// The parser tests read reports captured from the real ptxas (CUDA 13.0) on
// the PTX files in Inputs/ (Inputs/capture.sh regenerates them), so they run
// without a toolkit. The live tests run ptxas on the same files and are
// skipped when it is not installed.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/Ptxas.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace kiln::target;

namespace {

std::string readInput(const std::string &name) {
  std::ifstream file(std::string(KILN_TARGET_TEST_INPUTS) + "/" + name,
                     std::ios::binary);
  EXPECT_TRUE(file.good()) << "missing test input " << name;
  std::stringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

PtxasReport parseInput(const std::string &name) {
  return parsePtxasReport(readInput(name));
}

std::set<std::string> diagnosticCodes(const PtxasReport &report) {
  std::set<std::string> codes;
  for (const PtxasDiagnostic &diagnostic : report.diagnostics)
    if (!diagnostic.code.empty())
      codes.insert(diagnostic.code);
  return codes;
}

bool anyContains(const std::vector<std::string> &messages,
                 const std::string &needle) {
  return std::any_of(messages.begin(), messages.end(),
                     [&](const std::string &message) {
                       return message.find(needle) != std::string::npos;
                     });
}

/// The ptxas the live tests use, or nullopt to skip them.
std::optional<std::string> livePtxas() {
  std::optional<std::string> ptxas = findPtxas();
  if (!ptxas || access(ptxas->c_str(), X_OK) != 0)
    return std::nullopt;
  return ptxas;
}

/// Sets an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name))
      previous = old;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (previous)
      setenv(name, previous->c_str(), 1);
    else
      unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> previous;
};

} // namespace

//===----------------------------------------------------------------------===//
// Parsing captured reports
//===----------------------------------------------------------------------===//

TEST(TargetPtxasReport, CleanKernel) {
  PtxasReport report = parseInput("add_one.log");
  EXPECT_EQ(report.globalBytes, 0u);
  ASSERT_EQ(report.functions.size(), 1u);
  const PtxasFunctionReport &entry = report.functions[0];
  EXPECT_EQ(entry.name, "add_one");
  EXPECT_TRUE(entry.isEntry);
  EXPECT_EQ(entry.arch, "sm_90a");
  EXPECT_EQ(entry.registers, 8u);
  EXPECT_EQ(entry.barriers, 0u);
  EXPECT_EQ(entry.stackFrameBytes, 0u);
  EXPECT_EQ(entry.spillStoreBytes, 0u);
  EXPECT_EQ(entry.spillLoadBytes, 0u);
  EXPECT_EQ(entry.sharedBytes, 0u);
  EXPECT_GT(entry.compileTimeMs, 0.0);
  EXPECT_TRUE(report.diagnostics.empty());
  EXPECT_TRUE(checkPtxasPolicy(report).empty());
  EXPECT_EQ(report.findFunction("add_one"), &report.functions[0]);
  EXPECT_EQ(report.findFunction("missing"), nullptr);
}

TEST(TargetPtxasReport, Spills) {
  PtxasReport report = parseInput("spill_heavy.log");
  const PtxasFunctionReport *entry = report.findFunction("spill_heavy");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->registers, 32u);
  EXPECT_EQ(entry->stackFrameBytes, 560u);
  EXPECT_EQ(entry->spillStoreBytes, 556u);
  EXPECT_EQ(entry->spillLoadBytes, 596u);
  EXPECT_EQ(entry->cumulativeStackBytes, 560u);
  EXPECT_EQ(entry->sharedBytes, 4096u);
  std::vector<std::string> violations = checkPtxasPolicy(report);
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0], "kernel 'spill_heavy' spills registers: 556 bytes "
                           "stored, 596 bytes loaded");
  // A spill names its function, so the driver can drop that variant alone.
  EXPECT_EQ(findPtxasViolations(report)[0].function, "spill_heavy");
}

TEST(TargetPtxasReport, SpillWarning) {
  PtxasReport report = parseInput("spill_heavy.warn-spills.log");
  ASSERT_EQ(report.diagnostics.size(), 1u);
  const PtxasDiagnostic &warning = report.diagnostics[0];
  EXPECT_EQ(warning.severity, PtxasSeverity::Warning);
  EXPECT_EQ(warning.code, "");
  EXPECT_EQ(warning.message,
            "Registers are spilled to local memory in function "
            "'spill_heavy', 556 bytes spill stores, 596 bytes spill loads");
  // The spill itself is the violation; the warning does not count twice.
  EXPECT_EQ(checkPtxasPolicy(report).size(), 1u);
}

TEST(TargetPtxasReport, SetmaxnregIgnored) {
  PtxasReport report = parseInput("setmaxnreg_ignored.log");
  ASSERT_EQ(report.diagnostics.size(), 1u);
  const PtxasDiagnostic &advisory = report.diagnostics[0];
  EXPECT_EQ(advisory.severity, PtxasSeverity::Info);
  EXPECT_EQ(advisory.code, "C7508");
  EXPECT_EQ(advisory.message, "Potential Performance Loss: 'setmaxnreg' "
                              "ignored; unable to determine register count "
                              "at entry.");
  std::vector<std::string> violations = checkPtxasPolicy(report);
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0],
            "ptxas ignored setmaxnreg (C7508): Potential Performance Loss: "
            "'setmaxnreg' ignored; unable to determine register count at "
            "entry.");
  // ptxas prints C7508 before the entry it belongs to and names none.
  EXPECT_EQ(findPtxasViolations(report)[0].function, "");
  // The kernel itself is still reported.
  ASSERT_NE(report.findFunction("split_roles"), nullptr);
  EXPECT_EQ(report.findFunction("split_roles")->registers, 10u);
}

TEST(TargetPtxasReport, SetmaxnregHonoured) {
  PtxasReport report = parseInput("setmaxnreg_honoured.log");
  ASSERT_NE(report.findFunction("split_roles"), nullptr);
  // ptxas reports the highest count the kernel needs: the inc target.
  EXPECT_EQ(report.findFunction("split_roles")->registers, 232u);
  EXPECT_TRUE(checkPtxasPolicy(report).empty());
}

TEST(TargetPtxasReport, SerializedWgmma) {
  PtxasReport report = parseInput("wgmma_serialized.log");
  EXPECT_EQ(diagnosticCodes(report), (std::set<std::string>{"C7511", "C7519"}));
  std::vector<std::string> violations = checkPtxasPolicy(report);
  ASSERT_EQ(violations.size(), 1u) << "C7519 alone is only a note";
  EXPECT_EQ(violations[0],
            "ptxas serialized the wgmma pipeline (C7511): Potential "
            "Performance Loss: wgmma.mma_async instructions are serialized "
            "due to insufficient register resources for the wgmma pipeline "
            "in the function 'wgmma_serialized'");
  EXPECT_EQ(findPtxasViolations(report)[0].function, "wgmma_serialized");
  EXPECT_TRUE(checkPtxasPolicy(parseInput("wgmma_pipelined.log")).empty());
}

TEST(TargetPtxasReport, DeviceFunctionsGetTheirOwnRecord) {
  PtxasReport report = parseInput("device_function_call.log");
  ASSERT_EQ(report.functions.size(), 2u);
  EXPECT_EQ(report.functions[0].name, "k");
  EXPECT_TRUE(report.functions[0].isEntry);
  EXPECT_EQ(report.functions[0].registers, 10u);
  EXPECT_EQ(report.functions[1].name, "lookup");
  EXPECT_FALSE(report.functions[1].isEntry);
  EXPECT_EQ(report.functions[1].arch, "");
  EXPECT_TRUE(checkPtxasPolicy(report).empty());
}

TEST(TargetPtxasReport, Sm100Kernel) {
  PtxasReport report = parseInput("tmem_alloc_sm100.log");
  const PtxasFunctionReport *entry = report.findFunction("tmem_roundtrip");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->arch, "sm_100a");
  EXPECT_EQ(entry->barriers, 1u);
  EXPECT_EQ(entry->sharedBytes, 4u);
  EXPECT_TRUE(checkPtxasPolicy(report).empty());
}

TEST(TargetPtxasReport, LocatedErrors) {
  PtxasReport report = parseInput("syntax_error.log");
  EXPECT_TRUE(report.functions.empty());
  ASSERT_EQ(report.diagnostics.size(), 3u);
  EXPECT_EQ(report.diagnostics[0].severity, PtxasSeverity::Error);
  EXPECT_EQ(report.diagnostics[0].ptxLine, 7u);
  EXPECT_EQ(report.diagnostics[0].message,
            "Arguments mismatch for instruction 'mov'");
  EXPECT_EQ(report.diagnostics[1].message, "Unknown symbol '%r1'");
  EXPECT_EQ(report.diagnostics[2].severity, PtxasSeverity::Fatal);
  EXPECT_EQ(report.diagnostics[2].ptxLine, 0u);
  std::vector<std::string> violations = checkPtxasPolicy(report);
  EXPECT_EQ(violations.size(), 3u);
  EXPECT_TRUE(anyContains(violations, "ptxas error: Unknown symbol '%r1'"));
}

TEST(TargetPtxasReport, ConstantBanksAndCarriageReturns) {
  // The CUDA 12 "Used" line lists constant banks; ptxas 13 mostly omits
  // them. Also accept CRLF logs.
  PtxasReport report = parsePtxasReport(
      "ptxas info    : Compiling entry function 'gemm' for 'sm_90a'\r\n"
      "ptxas info    : Function properties for gemm\r\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\r\n"
      "ptxas info    : Used 168 registers, used 1 barriers, 384 bytes "
      "cmem[0], 16 bytes cmem[2]\r\n");
  const PtxasFunctionReport *entry = report.findFunction("gemm");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->registers, 168u);
  EXPECT_EQ(entry->barriers, 1u);
  EXPECT_EQ(entry->constantBytes.at(0), 384u);
  EXPECT_EQ(entry->constantBytes.at(2), 16u);
  EXPECT_TRUE(report.diagnostics.empty());
}

TEST(TargetPtxasReport, KeepsUnknownLines) {
  PtxasReport report =
      parsePtxasReport("ptxas info    : Something new from a future ptxas\n"
                       "not a ptxas line\n"
                       "ptxas warning : (C1234) a coded warning\n");
  ASSERT_EQ(report.diagnostics.size(), 3u);
  EXPECT_EQ(report.diagnostics[0].severity, PtxasSeverity::Info);
  EXPECT_EQ(report.diagnostics[0].message, "Something new from a future ptxas");
  EXPECT_EQ(report.diagnostics[1].message, "not a ptxas line");
  EXPECT_EQ(report.diagnostics[2].severity, PtxasSeverity::Warning);
  EXPECT_EQ(report.diagnostics[2].code, "C1234");
  EXPECT_EQ(report.diagnostics[2].message, "a coded warning");
  EXPECT_TRUE(checkPtxasPolicy(report).empty());
}

TEST(TargetPtxasReport, OtherSetmaxnregAdvisoriesFailToo) {
  PtxasReport report = parsePtxasReport(
      "ptxas info    : (C7509) Potential Performance Loss: 'setmaxnreg' "
      "ignored to maintain minimum register requirements.\n");
  std::vector<std::string> violations = checkPtxasPolicy(report);
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_TRUE(anyContains(violations, "ptxas ignored setmaxnreg (C7509)"));
}

//===----------------------------------------------------------------------===//
// Finding and running ptxas
//===----------------------------------------------------------------------===//

TEST(TargetPtxasRun, ExplicitPtxasWins) {
  ScopedEnv env("KILN_PTXAS", "/opt/elsewhere/ptxas");
  EXPECT_EQ(findPtxas(), std::string("/opt/elsewhere/ptxas"));
  PtxasOptions options;
  ValueOrError<PtxasResult> result = runPtxas("", options);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error(),
            "ptxas at '/opt/elsewhere/ptxas' is not executable");
}

TEST(TargetPtxasRun, RejectsBadArchitectures) {
  PtxasOptions options;
  options.arch = "sm90a";
  ValueOrError<PtxasResult> result = runPtxas("", options);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error(), "'sm90a' is not a ptxas architecture (expected "
                            "e.g. sm_90a or sm_100a)");
}

class TargetPtxasLive : public ::testing::TestWithParam<const char *> {};

TEST_P(TargetPtxasLive, MatchesTheCapturedReport) {
  std::optional<std::string> ptxas = livePtxas();
  if (!ptxas)
    GTEST_SKIP() << "ptxas not installed";
  std::string name = GetParam();
  std::string ptx = readInput(name + ".ptx");
  PtxasOptions options;
  options.arch =
      ptx.find(".target sm_100a") != std::string::npos ? "sm_100a" : "sm_90a";
  ValueOrError<PtxasResult> result = runPtxas(ptx, options);
  ASSERT_TRUE(result) << result.error();
  EXPECT_EQ(result->cubin.compare(0, 4,
                                  "\x7f"
                                  "ELF"),
            0)
      << "a cubin is an ELF file";
  EXPECT_EQ(result->command[1], "-arch=" + options.arch);

  // Register counts may move between ptxas releases; what we rely on must
  // not: the functions, the spill/no-spill verdict and the advisories.
  PtxasReport captured = parseInput(name + ".log");
  const PtxasReport &live = result->report;
  ASSERT_EQ(live.functions.size(), captured.functions.size());
  for (size_t i = 0; i < live.functions.size(); ++i) {
    EXPECT_EQ(live.functions[i].name, captured.functions[i].name);
    EXPECT_EQ(live.functions[i].isEntry, captured.functions[i].isEntry);
    EXPECT_EQ(live.functions[i].arch, captured.functions[i].arch);
    EXPECT_EQ(live.functions[i].spillStoreBytes > 0,
              captured.functions[i].spillStoreBytes > 0);
  }
  EXPECT_EQ(diagnosticCodes(live), diagnosticCodes(captured));
  EXPECT_EQ(checkPtxasPolicy(live).size(), checkPtxasPolicy(captured).size());
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, TargetPtxasLive,
    ::testing::Values("add_one", "spill_heavy", "setmaxnreg_ignored",
                      "setmaxnreg_honoured", "wgmma_serialized",
                      "wgmma_pipelined", "device_function_call",
                      "tmem_alloc_sm100"));

TEST(TargetPtxasRun, WritesTheRequestedCubin) {
  std::optional<std::string> ptxas = livePtxas();
  if (!ptxas)
    GTEST_SKIP() << "ptxas not installed";
  std::string path = ::testing::TempDir() + "kiln-target-add_one.cubin";
  std::remove(path.c_str());
  PtxasOptions options;
  options.outputPath = path;
  options.extraArguments = {"--warn-on-spills"};
  ValueOrError<PtxasResult> result =
      runPtxas(readInput("add_one.ptx"), options);
  ASSERT_TRUE(result) << result.error();
  std::ifstream cubin(path, std::ios::binary);
  ASSERT_TRUE(cubin.good());
  std::stringstream bytes;
  bytes << cubin.rdbuf();
  EXPECT_EQ(bytes.str(), result->cubin);
  EXPECT_NE(std::find(result->command.begin(), result->command.end(),
                      "--warn-on-spills"),
            result->command.end());
  std::remove(path.c_str());
}

TEST(TargetPtxasRun, FailureCarriesPtxasErrors) {
  std::optional<std::string> ptxas = livePtxas();
  if (!ptxas)
    GTEST_SKIP() << "ptxas not installed";
  ValueOrError<PtxasResult> result =
      runPtxas(readInput("syntax_error.ptx"), PtxasOptions());
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().find("failed (exit code"), std::string::npos)
      << result.error();
  EXPECT_NE(result.error().find("Unknown symbol '%r1'"), std::string::npos)
      << result.error();
}

TEST(TargetPtxasRun, WrongArchitectureForThePtx) {
  std::optional<std::string> ptxas = livePtxas();
  if (!ptxas)
    GTEST_SKIP() << "ptxas not installed";
  PtxasOptions options;
  options.arch = "sm_100a";
  ValueOrError<PtxasResult> result =
      runPtxas(readInput("add_one.ptx"), options);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().find("-arch=sm_100a"), std::string::npos)
      << result.error();
}
