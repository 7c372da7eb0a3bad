//===- Options.h - kiln-run's command line ----------------------*- C++ -*-===//
//
// Parsed apart from main() so that the checks of every option (ranges,
// overflow, malformed values) are unit-tested without a GPU
// (test/unit/runtime/KilnRunTest.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_TOOLS_KILNRUN_OPTIONS_H
#define KILN_RUNTIME_TOOLS_KILNRUN_OPTIONS_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kiln {
namespace tools {

/// The most --iters and --warmup launches: ten million launches of the
/// smallest kernel already take minutes, and the count must fit an int.
inline constexpr int64_t kMaxLaunches = 10000000;

struct Options {
  std::string manifest;
  std::map<std::string, int64_t> dims;
  std::map<std::string, std::vector<int32_t>> values;
  int iters = 20;
  int warmup = 3;
  bool check = false;
  /// --check-offsets: the runtime's checking mode for group offsets.
  bool checkOffsets = false;
  std::string ref;
  int64_t checkWork = int64_t(1) << 28;
  uint64_t seed = 1;
  int device = 0;
  bool verbose = false;
  /// --explain: print why the launch runs the variant it runs.
  bool explain = false;
  /// --entry NAME: run this variant (Module::pinVariant) instead of the cost
  /// rule's choice.
  std::string entry;
  /// --host-time: the host time per call of launch() and of a prepared
  /// launch.
  bool hostTime = false;
};

/// The --help text.
extern const char *const kUsage;

enum class ParseResult {
  /// Options are complete: run.
  Run,
  /// --help: print kUsage and exit 0.
  Help,
  /// `error` says what is wrong: a usage error.
  Error,
};

/// Parses kiln-run's arguments (argv[1..argc-1]). Every number is checked
/// against its range before it is stored: --dims values in
/// 0..kMaxKernelIndex (0 gives an empty launch), --values in the i32 range,
/// --iters and --warmup in 0..kMaxLaunches, --device in 0..INT_MAX, --seed and
/// --check-work in 0..INT64_MAX. Messages name the option and the value.
ParseResult parseArgs(int argc, const char *const *argv, Options &o,
                      std::string &error);

} // namespace tools
} // namespace kiln

#endif // KILN_RUNTIME_TOOLS_KILNRUN_OPTIONS_H
