//===- DimExpr.cpp - Symbolic extents: one parser for compiler and runtime -===//

#include "runtime/DimExpr.h"

#include <cctype>
#include <limits>

namespace kiln {

namespace {

bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// Parses a non-negative decimal integer that fits int64.
bool parseUInt(std::string_view s, int64_t &out) {
  if (s.empty())
    return false;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return false;
    if (v > (std::numeric_limits<int64_t>::max() - (c - '0')) / 10)
      return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

} // namespace

bool isDimName(std::string_view s) {
  if (s.empty() || !isIdentStart(s[0]))
    return false;
  for (char c : s)
    if (!isIdentChar(c))
      return false;
  return true;
}

bool DimExpr::parse(std::string_view text, DimExpr &out, std::string &error) {
  std::string s;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c)))
      s += c;
  auto bad = [&](const std::string &why) {
    error = "invalid dim expression '" + std::string(text) + "': " + why +
            " (expected N, NAME, NAME+N, NAME-N, NAME*N or cdiv(NAME,N))";
    return false;
  };
  if (s.empty())
    return bad("empty");
  if (std::isdigit(static_cast<unsigned char>(s[0]))) {
    int64_t v;
    if (!parseUInt(s, v))
      return bad("not an integer that fits 64 bits");
    out = constant(v);
    return true;
  }
  if (s.rfind("cdiv(", 0) == 0) {
    if (s.back() != ')')
      return bad("missing ')'");
    std::string_view inner(s.data() + 5, s.size() - 6);
    size_t comma = inner.find(',');
    if (comma == std::string_view::npos)
      return bad("cdiv needs two arguments");
    std::string_view name = inner.substr(0, comma),
                     num = inner.substr(comma + 1);
    if (!isDimName(name))
      return bad("'" + std::string(name) + "' is not a dim name");
    int64_t v;
    if (!parseUInt(num, v))
      return bad("'" + std::string(num) + "' is not a non-negative integer");
    if (v == 0)
      return bad("division by zero");
    out = make(Kind::CeilDiv, std::string(name), v);
    return true;
  }
  size_t i = 0;
  while (i < s.size() && isIdentChar(s[i]))
    ++i;
  std::string name = s.substr(0, i);
  if (!isDimName(name))
    return bad("'" + name + "' is not a dim name");
  if (i == s.size()) {
    out = dim(name);
    return true;
  }
  Kind k;
  switch (s[i]) {
  case '+':
    k = Kind::Add;
    break;
  case '-':
    k = Kind::Sub;
    break;
  case '*':
    k = Kind::Mul;
    break;
  default:
    return bad(std::string("unexpected '") + s[i] + "'");
  }
  int64_t v;
  if (!parseUInt(std::string_view(s).substr(i + 1), v))
    return bad("'" + s.substr(i + 1) + "' is not a non-negative integer");
  out = make(k, name, v);
  return true;
}

std::string DimExpr::str() const {
  switch (kind) {
  case Kind::Const:
    return std::to_string(value);
  case Kind::Name:
    return name;
  case Kind::Add:
    return name + "+" + std::to_string(value);
  case Kind::Sub:
    return name + "-" + std::to_string(value);
  case Kind::Mul:
    return name + "*" + std::to_string(value);
  case Kind::CeilDiv:
    return "cdiv(" + name + "," + std::to_string(value) + ")";
  }
  return "?";
}

bool DimExpr::evaluate(int64_t v, int64_t &out) const {
  switch (kind) {
  case Kind::Const:
    out = value;
    return true;
  case Kind::Name:
    out = v;
    return true;
  case Kind::Add:
    return !__builtin_add_overflow(v, value, &out);
  case Kind::Sub:
    return !__builtin_sub_overflow(v, value, &out);
  case Kind::Mul:
    return !__builtin_mul_overflow(v, value, &out);
  case Kind::CeilDiv: {
    if (value <= 0)
      return false;
    int64_t q = v / value, r = v % value;
    out = q + (r > 0 ? 1 : 0); // C++ truncates toward zero: only positive
                               // remainders round up
    return true;
  }
  }
  return false;
}

} // namespace kiln
