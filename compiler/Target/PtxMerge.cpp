//===- PtxMerge.cpp - One PTX module from separately generated ones -------===//

#include "compiler/Target/PtxMerge.h"

namespace kiln::target {

namespace {

struct PtxSections {
  std::string_view preamble, body, trailer;
  /// Whether the body defines a device function (.func): a libdevice
  /// routine two parts would both define.
  bool definesFunc = false;
};

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// Whether the line starting at `line` opens a function: LLVM's NVPTX
/// printer writes `.visible .entry`, `.entry`, `.visible .func`, `.func` or
/// `.weak .func` at column 0.
bool opensFunction(std::string_view line) {
  for (std::string_view prefix :
       {".visible .entry", ".entry", ".visible .func", ".func", ".weak .func",
        ".extern .func"})
    if (startsWith(line, prefix))
      return prefix != ".extern .func"; // a declaration stays in the preamble
  return false;
}

std::optional<PtxSections> split(std::string_view ptx) {
  size_t bodyStart = std::string_view::npos, bodyEnd = std::string_view::npos;
  bool definesFunc = false;
  size_t pos = 0;
  while (pos < ptx.size()) {
    size_t eol = ptx.find('\n', pos);
    size_t next = eol == std::string_view::npos ? ptx.size() : eol + 1;
    std::string_view line = ptx.substr(pos, next - pos);
    if (opensFunction(line)) {
      if (bodyStart == std::string_view::npos)
        bodyStart = pos;
      definesFunc |= line.find(".entry") == std::string_view::npos;
    }
    // A function ends with `}` alone at column 0.
    if (bodyStart != std::string_view::npos &&
        (line == "}\n" || line == "}"))
      bodyEnd = next;
    pos = next;
  }
  if (bodyStart == std::string_view::npos || bodyEnd == std::string_view::npos)
    return std::nullopt;
  return PtxSections{ptx.substr(0, bodyStart),
                     ptx.substr(bodyStart, bodyEnd - bodyStart),
                     ptx.substr(bodyEnd), definesFunc};
}

/// The lines of `text` (each with its newline) for which `keep` holds on
/// the line without its leading whitespace ("" for a blank line).
template <typename Keep>
std::string keepLines(std::string_view text, Keep keep) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    size_t next = eol == std::string_view::npos ? text.size() : eol + 1;
    std::string_view line = text.substr(pos, next - pos);
    size_t first = line.find_first_not_of(" \t\r\n");
    if (keep(first == std::string_view::npos ? std::string_view()
                                             : line.substr(first)))
      out.append(line);
    pos = next;
  }
  return out;
}

/// The `// .globl NAME` comments of a preamble: LLVM writes one before each
/// function, and a merged module keeps them where one module has them.
std::string globlComments(std::string_view text) {
  return keepLines(text, [](std::string_view line) {
    return startsWith(line, "// .globl");
  });
}

/// `text` without comment-only and blank lines: what a preamble declares.
std::string declarations(std::string_view text) {
  return keepLines(text, [](std::string_view line) {
    return !line.empty() && !startsWith(line, "//");
  });
}

} // namespace

std::optional<std::string>
mergePtxModules(const std::vector<std::string> &parts) {
  if (parts.empty())
    return std::nullopt;
  std::vector<PtxSections> sections;
  for (const std::string &part : parts) {
    std::optional<PtxSections> s = split(part);
    if (!s)
      return std::nullopt;
    sections.push_back(*s);
  }
  std::string preamble = declarations(sections.front().preamble);
  for (const PtxSections &s : sections)
    if (declarations(s.preamble) != preamble ||
        s.trailer != sections.front().trailer ||
        (s.definesFunc && sections.size() > 1))
      return std::nullopt;
  std::string merged(sections.front().preamble);
  for (size_t i = 0; i < sections.size(); ++i) {
    if (i > 0) {
      // As LLVM writes consecutive functions: `}`, then the next one's
      // `// .globl` comment.
      std::string comments = globlComments(sections[i].preamble);
      merged += comments.empty() ? "\n" : comments;
    }
    merged += sections[i].body;
  }
  merged += sections.front().trailer;
  return merged;
}

} // namespace kiln::target
