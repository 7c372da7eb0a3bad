//===- Format.h - Small formatting helpers for error messages --*- C++ -*-===//
//
// Internal to the runtime: every validation message spells shapes, pointers and
// byte counts the same way.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_FORMAT_H
#define KILN_RUNTIME_FORMAT_H

#include <cstdint>
#include <cstdio>
#include <string>

namespace kiln {

inline std::string hexAddress(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

/// "[1024, 512]" for the first `n` entries of `v`.
template <typename T> std::string bracketList(const T *v, int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

} // namespace kiln

#endif // KILN_RUNTIME_FORMAT_H
