//===- ValueOrError.h - A value, or the reason there is none ----*- C++ -*-===//
//
// The target encoders are plain C++ shared by the compiler (built with
// -fno-exceptions) and by unit tests. They report invalid input as a message
// the caller can attach to a diagnostic, so they return this small type
// instead of throwing or asserting.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_VALUEORERROR_H
#define KILN_COMPILER_TARGET_VALUEORERROR_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace kiln::target {

/// Either a value of type T or a human-readable error message. Unlike
/// llvm::Expected it need not be checked before destruction, so callers that
/// only test validity (e.g. a tile-shape search) stay simple.
template <typename T> class ValueOrError {
public:
  /// Wraps a valid result.
  ValueOrError(T value) : value(std::move(value)) {}

  /// Builds a failed result carrying `message`.
  static ValueOrError failure(std::string message) {
    ValueOrError result;
    result.message = std::move(message);
    return result;
  }

  /// True when a value is present.
  explicit operator bool() const { return value.has_value(); }
  bool ok() const { return value.has_value(); }

  const T &operator*() const {
    assert(value && "dereferencing a failed ValueOrError");
    return *value;
  }
  const T *operator->() const {
    assert(value && "dereferencing a failed ValueOrError");
    return &*value;
  }

  /// The failure message; empty when a value is present.
  const std::string &error() const { return message; }

private:
  ValueOrError() = default;

  std::optional<T> value;
  std::string message;
};

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_VALUEORERROR_H
