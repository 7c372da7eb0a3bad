//===- KernelArgs.cpp - The entry function's parameter list ---------------===//

#include "runtime/KernelArgs.h"

#include "runtime/Format.h"

#include <cstring>

namespace kiln {

size_t kernelArgBytes(KernelArgKind k) {
  switch (k) {
  case KernelArgKind::TensorMap:
    return 128;
  case KernelArgKind::Pointer:
  case KernelArgKind::Stride:
  case KernelArgKind::Workspace:
    return 8;
  case KernelArgKind::Dim:
  case KernelArgKind::TmaOk:
    return 4;
  }
  return 0;
}

bool checkEntryParams(const LaunchPlan &plan,
                      const std::vector<size_t> &entrySizes,
                      std::string &error) {
  const std::string entry = "entry '" + plan.manifest.entry + "'";
  if (entrySizes.size() != plan.args.size()) {
    error = "the cubin's " + entry + " takes " +
            std::to_string(entrySizes.size()) +
            " parameters but the manifest lists " +
            std::to_string(plan.args.size()) +
            " kernel_args; the manifest does not belong to this cubin";
    return false;
  }
  for (size_t i = 0; i < entrySizes.size(); ++i) {
    size_t want = kernelArgBytes(plan.args[i].kind);
    if (entrySizes[i] != want) {
      error = "kernel_args[" + std::to_string(i) + "] (" +
              kernelArgKindName(plan.args[i].kind) + ") is " +
              std::to_string(want) + " bytes but parameter " +
              std::to_string(i) + " of the cubin's " + entry + " is " +
              std::to_string(entrySizes[i]) +
              " bytes; the manifest does not belong to this cubin";
      return false;
    }
  }
  return true;
}

void KernelArgPack::reset(const LaunchPlan &plan) {
  maps.assign(plan.maps.size(), TensorMapBytes());
  for (TensorMapBytes &m : maps)
    std::memset(m.bytes, 0, sizeof m.bytes);
  tmaOk.assign(plan.maps.size(), 1);
  slots.assign(plan.args.size(), Slot());
  params.assign(plan.args.size(), nullptr);
  workspace = 0;
}

void packKernelArgs(const LaunchPlan &plan, const Tensor *args,
                    const BoundDims &dims, KernelArgPack &pack) {
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const PlannedArg &a = plan.args[i];
    KernelArgPack::Slot &slot = pack.slots[i];
    slot.u64 = 0;
    switch (a.kind) {
    case KernelArgKind::TensorMap:
      pack.params[i] = &pack.maps[a.index];
      continue;
    case KernelArgKind::TmaOk:
      slot.i32 = pack.tmaOk[a.index];
      pack.params[i] = &slot.i32;
      continue;
    case KernelArgKind::Pointer:
      slot.u64 = args[a.index].data;
      pack.params[i] = &slot.u64;
      continue;
    case KernelArgKind::Dim:
      // bindDims rejected values above INT32_MAX.
      slot.i32 = static_cast<int32_t>(dims.values[a.index]);
      pack.params[i] = &slot.i32;
      continue;
    case KernelArgKind::Stride:
      slot.i64 = args[a.index].strides[a.axis];
      pack.params[i] = &slot.i64;
      continue;
    case KernelArgKind::Workspace:
      slot.u64 = pack.workspace;
      pack.params[i] = &slot.u64;
      continue;
    }
  }
}

std::string describeKernelArgs(const LaunchPlan &plan,
                               const KernelArgPack &pack) {
  std::string s;
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const PlannedArg &a = plan.args[i];
    s += "  " + std::to_string(i) + " " + kernelArgKindName(a.kind) + " ";
    switch (a.kind) {
    case KernelArgKind::TensorMap:
      s += "map " + std::to_string(a.index) + " (param '" +
           plan.params[plan.maps[a.index].param].name + "')" +
           (pack.tmaOk[a.index] ? "" : " zeroed");
      break;
    case KernelArgKind::TmaOk:
      s += "map " + std::to_string(a.index) + " = " +
           std::to_string(pack.slots[i].i32);
      break;
    case KernelArgKind::Pointer:
      s += "'" + plan.params[a.index].name +
           "' = " + hexAddress(pack.slots[i].u64);
      break;
    case KernelArgKind::Dim:
      s += plan.dimName(a.index) + " = " + std::to_string(pack.slots[i].i32);
      break;
    case KernelArgKind::Stride:
      s += "'" + plan.params[a.index].name + "' axis " +
           std::to_string(a.axis) + " = " + std::to_string(pack.slots[i].i64);
      break;
    case KernelArgKind::Workspace:
      s += "= " + hexAddress(pack.slots[i].u64);
      break;
    }
    s += "\n";
  }
  return s;
}

} // namespace kiln
