//===- OffsetsCheck.h - Group offsets that keep their contract --*- C++ -*-===//
//
// The runtime's checking mode (docs/runtime.md, "Checking offsets") reads a
// grouped kernel's offsets before a launch and refuses the launch at the
// first entry that breaks 0 = o[0] <= o[1] <= ... <= o[E] = rows. The kernel
// itself never reads or writes outside its tensors whatever the offsets are;
// this mode finds the routing bug that produced them. A pure function, so
// the messages are unit-tested without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_OFFSETSCHECK_H
#define KILN_RUNTIME_OFFSETSCHECK_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace kiln {

/// Whether the `count` offsets `o` of param `param` split `rows` rows of dim
/// `rowsDim` as the contract asks; if not, `error` names the first entry that
/// breaks it, its value and the rule ("offsets[3] = 120 is below
/// offsets[2] = 200: offsets never decrease").
bool checkGroupOffsets(const int32_t *o, size_t count, int64_t rows,
                       const std::string &param, const std::string &rowsDim,
                       std::string &error);

/// Whether the checking mode is on for a module loaded now: $KILN_CHECK_OFFSETS
/// set, not empty and not "0".
bool checkOffsetsFromEnvironment();

} // namespace kiln

#endif // KILN_RUNTIME_OFFSETSCHECK_H
