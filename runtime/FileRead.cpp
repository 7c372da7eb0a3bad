//===- FileRead.cpp - Read a whole regular file, bounded ------------------===//
//
// POSIX calls rather than std::ifstream: the stream cannot say what kind of
// file it opened, and opening a FIFO for reading blocks until a writer comes.
//
//===----------------------------------------------------------------------===//

#include "runtime/FileRead.h"

#include <algorithm>
#include <cerrno>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kiln {

namespace {

std::string errnoText(int err) {
  return std::error_code(err, std::generic_category()).message();
}

/// What a non-regular file is, for "it is a directory, not a regular file".
const char *fileKind(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISSOCK(mode))
    return "a socket";
  return "something else";
}

bool checkKind(const struct stat &st, std::string &error) {
  if (S_ISREG(st.st_mode))
    return true;
  error = std::string("it is ") + fileKind(st.st_mode) + ", not a regular file";
  return false;
}

std::string tooLarge(uint64_t size, uint64_t maxBytes) {
  return "it is " + std::to_string(size) + " bytes, more than the limit of " +
         std::to_string(maxBytes) + " bytes (" + byteLimitText(maxBytes) + ")";
}

std::string grewTooLarge(uint64_t maxBytes) {
  return "it grew beyond the limit of " + std::to_string(maxBytes) +
         " bytes (" + byteLimitText(maxBytes) + ") while it was read";
}

/// Closes a descriptor on every path out of readRegularFile.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0)
      ::close(fd);
  }
};

} // namespace

std::string byteLimitText(uint64_t bytes) {
  if (bytes >= (uint64_t(1) << 20) && bytes % (uint64_t(1) << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (uint64_t(1) << 10) && bytes % (uint64_t(1) << 10) == 0)
    return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

bool readRegularFile(const std::string &path, uint64_t maxBytes,
                     std::string &out, std::string &error) {
  out.clear();
  if (path.empty()) {
    error = "the path is empty";
    return false;
  }
  if (path.find('\0') != std::string::npos) {
    error = "the path contains a NUL character";
    return false;
  }
  // stat first, so that a device or FIFO is not even opened (opening some
  // devices has effects); the opened file is checked again below, in case the
  // path changed in between.
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    error = errnoText(errno);
    return false;
  }
  if (!checkKind(st, error))
    return false;
  if (static_cast<uint64_t>(st.st_size) > maxBytes) {
    error = tooLarge(static_cast<uint64_t>(st.st_size), maxBytes);
    return false;
  }
  // O_NONBLOCK: should the path have become a FIFO since the stat, open does
  // not wait for a writer (and fstat below refuses it).
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)};
  if (f.fd < 0) {
    error = errnoText(errno);
    return false;
  }
  if (::fstat(f.fd, &st) != 0) {
    error = errnoText(errno);
    return false;
  }
  if (!checkKind(st, error))
    return false;
  uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size > maxBytes) {
    error = tooLarge(size, maxBytes);
    return false;
  }
  // Read until end of file, never more than maxBytes + 1 bytes: the file may
  // have grown since fstat.
  out.resize(static_cast<size_t>(size));
  size_t have = 0;
  for (;;) {
    if (have == out.size()) {
      if (out.size() > maxBytes) {
        error = grewTooLarge(maxBytes);
        out.clear();
        return false;
      }
      size_t grow = static_cast<size_t>(
          std::min<uint64_t>(maxBytes + 1 - out.size(), uint64_t(1) << 16));
      out.resize(out.size() + grow);
    }
    ssize_t n = ::read(f.fd, &out[have], out.size() - have);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      error = errnoText(errno);
      out.clear();
      return false;
    }
    if (n == 0)
      break;
    have += static_cast<size_t>(n);
  }
  out.resize(have);
  if (have > maxBytes) {
    error = grewTooLarge(maxBytes);
    out.clear();
    return false;
  }
  return true;
}

} // namespace kiln
