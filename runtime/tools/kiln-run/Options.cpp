//===- Options.cpp - kiln-run's command line ------------------------------===//

#include "Options.h"

#include "runtime/DimExpr.h"
#include "runtime/Limits.h"
#include "runtime/ParseInt.h"

#include <climits>
#include <cstdint>

namespace kiln {
namespace tools {

const char *const kUsage =
    "usage: kiln-run MANIFEST --dims NAME=V[,NAME=V...] [options]\n"
    "\n"
    "Loads a Kiln kernel (manifest + cubin), allocates and fills its tensors, "
    "launches it,\n"
    "and times it with CUDA events.\n"
    "\n"
    "  --dims NAME=V,...     a value for every dim of the manifest (required; "
    "0..2147483647)\n"
    "  --iters N             timed launches after the first one (default 20; "
    "0: no timing;\n"
    "                        at most 10000000)\n"
    "  --warmup N            untimed launches before timing (default 3; at "
    "most 10000000)\n"
    "  --check               compare the first launch's outputs with a host "
    "reference\n"
    "  --ref matmul|swiglu   the reference for --check (default: guessed from "
    "the kernel's\n"
    "                        name and shapes): matmul c[M,N] = a[M,K] * "
    "b[N,K]^T,\n"
    "                        swiglu y = silu(x * w1^T) * (x * w2^T); block "
    "scales are applied\n"
    "                        as scale[i / bm][k / bk] on data [i][k];\n"
    "  --ref attention|attention-causal\n"
    "                        o = softmax(q k^T / sqrt(D)) v over all keys or "
    "keys j <= i\n"
    "                        (never guessed: the manifest does not say which)\n"
    "  --ref grouped|grouped-swiglu\n"
    "                        a grouped product (mixture of experts): x[T,K], "
    "w[E,N,K] (or w1, w2),\n"
    "                        offsets[E+1] -> y[T,N], checked per group (the "
    "default for a kernel\n"
    "                        whose manifest lists group offsets; set them "
    "with --values)\n"
    "  --check-work N        reference multiply-adds per GEMM before rows are "
    "sampled\n"
    "                        (default 268435456)\n"
    "  --values NAME=v,...   the values of an i32 input (e.g. MoE offsets); "
    "otherwise zeros\n"
    "  --check-offsets       refuse a launch whose group offsets break "
    "0 = o[0] <= ... <= o[E] = rows,\n"
    "                        naming the first bad entry (the runtime's "
    "checking mode)\n"
    "  --host-time           the host time per call of a launch and of a "
    "prepared launch\n"
    "                        (Module::prepareLaunch), --iters calls each, "
    "at most 500 at a time\n"
    "  --seed N              random seed (default 1)\n"
    "  --device N            CUDA device ordinal (default 0)\n"
    "  --verbose             print the grid, every kernel argument and, for "
    "a kernel with\n"
    "                        variants, each variant's cost\n"
    "  --explain             print why the launch runs the variant it runs "
    "(each variant's\n"
    "                        CTAs, waves and cost)\n"
    "  --entry NAME          run the variant with this entry symbol instead "
    "of the cost rule's\n"
    "                        choice (Module::pinVariant)\n";

namespace {

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t p = s.find(sep, start);
    parts.push_back(s.substr(start, p == std::string::npos ? std::string::npos
                                                           : p - start));
    if (p == std::string::npos)
      return parts;
    start = p + 1;
  }
}

/// The range of each numeric option.
struct NumericOption {
  const char *name;
  int64_t lo, hi;
};

const NumericOption kNumeric[] = {
    {"--iters", 0, kMaxLaunches},   {"--warmup", 0, kMaxLaunches},
    {"--seed", 0, INT64_MAX},       {"--device", 0, INT_MAX},
    {"--check-work", 0, INT64_MAX},
};

} // namespace

ParseResult parseArgs(int argc, const char *const *argv, Options &o,
                      std::string &error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    size_t eq = arg.find('=');
    bool inlineValue = arg.rfind("--", 0) == 0 && eq != std::string::npos;
    if (inlineValue) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    }
    auto next = [&](std::string &out) {
      if (inlineValue) {
        out = value;
        return true;
      }
      if (i + 1 >= argc) {
        error = arg + " needs a value";
        return false;
      }
      out = argv[++i];
      return true;
    };
    const NumericOption *numeric = nullptr;
    for (const NumericOption &n : kNumeric)
      if (arg == n.name)
        numeric = &n;
    std::string why;
    int64_t n;
    if (arg == "--help" || arg == "-h") {
      return ParseResult::Help;
    } else if (arg == "--check") {
      o.check = true;
    } else if (arg == "--check-offsets") {
      o.checkOffsets = true;
    } else if (arg == "--verbose" || arg == "-v") {
      o.verbose = true;
    } else if (arg == "--explain") {
      o.explain = true;
    } else if (arg == "--entry") {
      if (!next(value))
        return ParseResult::Error;
      o.entry = value;
    } else if (arg == "--host-time") {
      o.hostTime = true;
    } else if (arg == "--dims") {
      if (!next(value))
        return ParseResult::Error;
      for (const std::string &kv : split(value, ',')) {
        size_t e = kv.find('=');
        if (e == std::string::npos || !isDimName(kv.substr(0, e))) {
          error = "--dims: '" + kv + "' is not NAME=VALUE";
          return ParseResult::Error;
        }
        // The runtime refuses dims above the kernel's 32-bit index limit; a
        // value beyond it must not wrap into one that passes.
        if (!parseIntInRange(kv.substr(e + 1), 0, kMaxKernelIndex, n, why)) {
          error = "--dims: " + kv.substr(0, e) + ": " + why +
                  " (dims reach the kernel as 32-bit integers)";
          return ParseResult::Error;
        }
        o.dims[kv.substr(0, e)] = n;
      }
    } else if (arg == "--values") {
      if (!next(value))
        return ParseResult::Error;
      size_t e = value.find('=');
      if (e == std::string::npos || e == 0) {
        error = "--values: expected NAME=v0,v1,...";
        return ParseResult::Error;
      }
      std::vector<int32_t> vs;
      for (const std::string &v : split(value.substr(e + 1), ',')) {
        if (!parseIntInRange(v, INT32_MIN, INT32_MAX, n, why)) {
          error = "--values: " + value.substr(0, e) + ": " + why +
                  " (the values of an i32 input)";
          return ParseResult::Error;
        }
        vs.push_back(static_cast<int32_t>(n));
      }
      o.values[value.substr(0, e)] = vs;
    } else if (numeric) {
      if (!next(value))
        return ParseResult::Error;
      if (!parseIntInRange(value, numeric->lo, numeric->hi, n, why)) {
        error = arg + ": " + why;
        return ParseResult::Error;
      }
      if (arg == "--iters")
        o.iters = static_cast<int>(n);
      else if (arg == "--warmup")
        o.warmup = static_cast<int>(n);
      else if (arg == "--seed")
        o.seed = static_cast<uint64_t>(n);
      else if (arg == "--device")
        o.device = static_cast<int>(n);
      else
        o.checkWork = n;
    } else if (arg == "--ref") {
      if (!next(o.ref))
        return ParseResult::Error;
      if (o.ref != "matmul" && o.ref != "swiglu" && o.ref != "attention" &&
          o.ref != "attention-causal" && o.ref != "grouped" &&
          o.ref != "grouped-swiglu") {
        error = "--ref: '" + o.ref +
                "' is not matmul, swiglu, grouped, grouped-swiglu, attention "
                "or attention-causal";
        return ParseResult::Error;
      }
    } else if (!arg.empty() && arg[0] == '-') {
      error = "unknown option " + arg;
      return ParseResult::Error;
    } else if (o.manifest.empty()) {
      o.manifest = arg;
    } else {
      error =
          "more than one manifest given ('" + o.manifest + "', '" + arg + "')";
      return ParseResult::Error;
    }
  }
  if (o.manifest.empty()) {
    error = "no manifest given";
    return ParseResult::Error;
  }
  if (o.hostTime && o.iters == 0) {
    error = "--host-time times --iters calls; --iters is 0";
    return ParseResult::Error;
  }
  return ParseResult::Run;
}

} // namespace tools
} // namespace kiln
