//===- DeviceCheck.cpp - Can this device run this kernel? -----------------===//

#include "runtime/DeviceCheck.h"

#include "runtime/ParseInt.h"

#include <cctype>

namespace kiln {

bool parseChip(const std::string &chip, int &major, int &minor, char &suffix) {
  if (chip.rfind("sm_", 0) != 0)
    return false;
  size_t i = 3;
  std::string digits;
  while (i < chip.size() && std::isdigit(static_cast<unsigned char>(chip[i])))
    digits += chip[i++];
  if (digits.size() < 2 || digits.size() > 4)
    return false;
  suffix = 0;
  if (i < chip.size() && (chip[i] == 'a' || chip[i] == 'f'))
    suffix = chip[i++];
  if (i != chip.size())
    return false;
  // At most 3 digits of major version: parsed without std::stoi, which
  // throws.
  int64_t value = 0;
  std::string ignored;
  if (!parseIntInRange(std::string_view(digits).substr(0, digits.size() - 1), 0,
                       999, value, ignored))
    return false;
  minor = digits.back() - '0';
  major = static_cast<int>(value);
  return true;
}

bool chipRunsOn(const std::string &chip, int major, int minor) {
  int cm, cn;
  char suffix;
  if (!parseChip(chip, cm, cn, suffix))
    return false;
  if (suffix == 'a')
    return major == cm && minor == cn;
  if (suffix == 'f')
    return major == cm && minor >= cn;
  return major > cm || (major == cm && minor >= cn);
}

bool checkChip(const LaunchPlan &plan, const DeviceInfo &dev,
               std::string &error) {
  const std::string &chip = plan.manifest.chip;
  if (chipRunsOn(chip, dev.ccMajor, dev.ccMinor))
    return true;
  int cm = 0, cn = 0;
  char suffix = 0;
  parseChip(chip, cm, cn, suffix);
  std::string need =
      suffix == 'a' ? "exactly " + std::to_string(cm) + "." + std::to_string(cn)
      : suffix == 'f'
          ? std::to_string(cm) + ".x with x >= " + std::to_string(cn)
          : "at least " + std::to_string(cm) + "." + std::to_string(cn);
  error = "kernel '" + plan.manifest.kernel + "' was compiled for " + chip +
          " (compute capability " + need + ") but device " +
          std::to_string(dev.ordinal) +
          (dev.name.empty() ? "" : " (" + dev.name + ")") +
          " has compute capability " + std::to_string(dev.ccMajor) + "." +
          std::to_string(dev.ccMinor);
  return false;
}

bool checkFunctionLimits(const LaunchPlan &plan, const DeviceInfo &dev,
                         const FunctionInfo &fn, std::string &error) {
  const Launch &l = plan.manifest.launch;
  int64_t smem = l.dynamicSmem + fn.staticSmem;
  if (smem > dev.maxSmemPerBlockOptin) {
    error = "kernel '" + plan.manifest.kernel + "'" +
            (plan.variant ? " (entry '" + plan.manifest.entry + "')" : "") +
            " needs " + std::to_string(l.dynamicSmem) +
            " bytes of dynamic shared memory" +
            (fn.staticSmem ? " + " + std::to_string(fn.staticSmem) + " static"
                           : "") +
            " per block, but device " + std::to_string(dev.ordinal) +
            (dev.name.empty() ? "" : " (" + dev.name + ")") +
            " allows at most " + std::to_string(dev.maxSmemPerBlockOptin);
    return false;
  }
  int64_t threads = l.block[0] * l.block[1] * l.block[2];
  if (threads > fn.maxThreadsPerBlock) {
    error = "kernel '" + plan.manifest.kernel + "' launches " +
            std::to_string(threads) + " threads per block but its entry '" +
            plan.manifest.entry + "' can run at most " +
            std::to_string(fn.maxThreadsPerBlock) + " (register use)";
    return false;
  }
  return true;
}

} // namespace kiln
