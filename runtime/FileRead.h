//===- FileRead.h - Read a whole regular file, bounded ----------*- C++ -*-===//
//
// Manifests and cubins are read whole. A path that names a device (/dev/zero),
// a FIFO or a directory, or a file larger than any real artifact, must fail
// with a message instead of blocking or taking the host's memory.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_FILEREAD_H
#define KILN_RUNTIME_FILEREAD_H

#include <cstdint>
#include <string>

namespace kiln {

/// Reads the regular file at `path` (symbolic links are followed) into `out`.
/// Fails, leaving `out` unspecified, when it cannot be opened, is not a
/// regular file (checked before it is opened, so a device or FIFO is never
/// opened for reading, and again on the opened file), is larger than
/// `maxBytes` (checked before reading, and while reading, for a file that
/// grows) or cannot be read. `error` is the reason alone, e.g. "it is a
/// character device, not a regular file" or "it is 17000000 bytes, more than
/// the limit of 16777216 bytes (16 MiB)"; callers prefix the path and what the
/// file is.
bool readRegularFile(const std::string &path, uint64_t maxBytes,
                     std::string &out, std::string &error);

/// "16 MiB", "256 MiB", "1000 bytes": a limit as messages spell it.
std::string byteLimitText(uint64_t bytes);

} // namespace kiln

#endif // KILN_RUNTIME_FILEREAD_H
