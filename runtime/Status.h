//===- Status.h - Errors of the runtime's public APIs ----------*- C++ -*-===//
//
// Every runtime entry point returns a Status instead of throwing: the C API and
// the Python package forward the code and message unchanged, and C++ callers
// built without exceptions can use the runtime too. The codes equal the C API's
// KILN_* status values.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_STATUS_H
#define KILN_RUNTIME_STATUS_H

#include <string>
#include <utility>

namespace kiln {

enum class ErrorCode : int {
  Ok = 0,
  /// The API was misused: a null handle, an index out of range.
  InvalidValue = 1,
  /// A file could not be read.
  Io = 2,
  /// The manifest is malformed, too new or inconsistent.
  Manifest = 3,
  /// A tensor does not match the manifest (dtype, rank, dims, alignment,
  /// strides, device).
  Argument = 4,
  /// The device cannot run the kernel (compute capability, shared memory,
  /// threads).
  Device = 5,
  /// A CUDA driver call failed.
  Cuda = 6,
  /// Anything else (out of memory on the host, a bug).
  Internal = 7,
};

/// The name of a code ("argument error", ...).
inline const char *errorCodeName(ErrorCode c) {
  switch (c) {
  case ErrorCode::Ok:
    return "ok";
  case ErrorCode::InvalidValue:
    return "invalid value";
  case ErrorCode::Io:
    return "I/O error";
  case ErrorCode::Manifest:
    return "manifest error";
  case ErrorCode::Argument:
    return "argument error";
  case ErrorCode::Device:
    return "device error";
  case ErrorCode::Cuda:
    return "CUDA error";
  case ErrorCode::Internal:
    return "internal error";
  }
  return "unknown error";
}

class Status {
public:
  Status() = default;
  static Status success() { return Status(); }
  static Status error(ErrorCode code, std::string message) {
    Status s;
    s.code_ = code;
    s.message_ = std::move(message);
    return s;
  }

  bool ok() const { return code_ == ErrorCode::Ok; }
  explicit operator bool() const { return ok(); }
  ErrorCode code() const { return code_; }
  /// Empty when ok().
  const std::string &message() const { return message_; }

private:
  ErrorCode code_ = ErrorCode::Ok;
  std::string message_;
};

} // namespace kiln

#endif // KILN_RUNTIME_STATUS_H
