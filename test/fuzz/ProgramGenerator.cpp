//===- ProgramGenerator.cpp - Random .kiln programs for the fuzzers -------===//

#include "test/fuzz/ProgramGenerator.h"

#include <array>
#include <string_view>
#include <vector>

namespace kiln::fuzz {
namespace {

/// Extents that sit on the edges of what the compiler tiles: 1, one past a
/// tile, a wave, the 32-bit index limit.
constexpr std::array<std::string_view, 15> kExtents = {
    "1",   "2",    "8",    "16",   "17",    "64",   "100",       "128",
    "129", "256",  "1000", "4096", "65536", "4097", "2147483647"};

constexpr std::array<std::string_view, 12> kFloats = {
    "0.5", "2.0",  "0.125", "1.0",  "-1.0",  "3.0",
    "1e-3", "1e3", "0.0",   "inf", "-inf",  "0.08838834764"};

class Generator {
public:
  explicit Generator(Random &rng) : rng(rng) {}

  std::string program() {
    // Mostly the kernels that lower, some that stop earlier on purpose.
    unsigned kind = pick(100);
    std::string text;
    if (kind < 4)
      return notLoweredYet();
    if (kind < 16)
      return (chance(10) ? schedule() : std::string()) + attention();
    text += schedule();
    if (kind < 60)
      text += matmul();
    else if (kind < 88)
      text += dualGemm();
    else
      text += blockScaled();
    // Now and then a second kernel in the same file.
    if (pick(16) == 0)
      text += "\n" + matmul();
    return text;
  }

private:
  unsigned pick(unsigned n) {
    return std::uniform_int_distribution<unsigned>(0, n - 1)(rng);
  }
  bool chance(unsigned percent) { return pick(100) < percent; }
  template <typename T, size_t N>
  std::string oneOf(const std::array<T, N> &items) {
    return std::string(items[pick(N)]);
  }
  std::string oneOf(std::initializer_list<std::string_view> items) {
    auto it = items.begin();
    std::advance(it, pick(static_cast<unsigned>(items.size())));
    return std::string(*it);
  }

  /// A symbolic extent (usually), a constant, or a name with an offset.
  std::string dim(std::string_view name) {
    unsigned r = pick(100);
    if (r < 72)
      return std::string(name);
    if (r < 97)
      return oneOf(kExtents);
    return std::string(name) + oneOf({" + 1", " * 2", " - 1"});
  }

  std::string schedule() {
    if (!chance(25))
      return "";
    std::vector<std::string> items;
    bool wild = chance(5); // values outside the rules
    if (chance(50)) {
      std::string bm = wild ? oneOf({"32", "512", "0", "-64"})
                            : oneOf({"64", "128", "128", "256"});
      std::string bn = wild ? oneOf({"8", "272", "1024"})
                            : oneOf({"16", "32", "48", "64", "96", "112",
                                     "128", "176", "192", "256"});
      std::string bk = wild ? oneOf({"24", "1024", "1099511627776"})
                            : oneOf({"16", "32", "64", "64", "128", "256"});
      items.push_back("tile = [" + bm + ", " + bn + ", " + bk + "]");
    }
    if (chance(30))
      items.push_back("stages = " + (wild ? oneOf({"0", "9", "-1"})
                                          : std::to_string(1 + pick(8))));
    if (chance(30))
      items.push_back("cluster = [" + oneOf({"1", "2", "4"}) + ", " +
                      oneOf({"1", "2"}) + (wild ? ", 3]" : "]"));
    if (chance(20))
      items.push_back("consumers = " + oneOf({"1", "2", "2", "3"}));
    if (chance(20))
      items.push_back("persistent = " + oneOf({"true", "false"}));
    if (chance(15))
      items.push_back("group_m = " + oneOf({"1", "4", "8", "16", "2147483647"}));
    if (chance(15))
      items.push_back("stream_k = " + oneOf({"true", "false"}));
    if (chance(15))
      items.push_back("acc_stages = " + oneOf({"1", "2", "3"}));
    if (chance(15))
      items.push_back("pingpong = " + oneOf({"true", "false"}));
    if (chance(10))
      items.push_back("split_k = " + oneOf({"true", "false"}));
    if (items.empty())
      return "";
    std::string text = "@schedule(";
    for (size_t i = 0; i < items.size(); ++i)
      text += (i ? ", " : "") + items[i];
    return text + ")\n";
  }

  /// Operand types of one product: two equal 16-bit types, or fp8 (mixed).
  std::pair<std::string, std::string> operandTypes() {
    if (chance(70)) {
      std::string t = oneOf({"bf16", "f16"});
      return {t, t};
    }
    return {oneOf({"e4m3", "e5m2"}), oneOf({"e4m3", "e5m2"})};
  }

  std::string outputType() {
    return oneOf({"bf16", "bf16", "f16", "f32"});
  }

  /// An elementwise expression over `leaves` (products in parentheses,
  /// inputs, which must all appear once at least somewhere in the kernel)
  /// of at most `depth` levels.
  std::string expr(const std::vector<std::string> &leaves, unsigned depth) {
    if (depth == 0 || chance(30)) {
      if (chance(85) || leaves.empty())
        return leaves.empty() ? oneOf(kFloats) : leaves[pick(leaves.size())];
      return oneOf(kFloats);
    }
    unsigned r = pick(100);
    if (r < 35) {
      std::string fn = oneOf({"silu", "gelu", "sigmoid", "tanh", "exp",
                              "relu", "f32", "bf16", "f16", "rsqrt"});
      return fn + "(" + expr(leaves, depth - 1) + ")";
    }
    if (r < 80) {
      std::string op = oneOf({" + ", " - ", " * ", " * ", " / "});
      return "(" + expr(leaves, depth - 1) + op + expr(leaves, depth - 1) +
             ")";
    }
    if (r < 92)
      return oneOf({"max(", "min("}) + expr(leaves, depth - 1) + ", " +
             expr(leaves, depth - 1) + ")";
    return "where(" + expr(leaves, depth - 1) + oneOf({" > ", " < ", " >= "}) +
           oneOf(kFloats) + ", " + expr(leaves, depth - 1) + ", " +
           expr(leaves, depth - 1) + ")";
  }

  /// Epilogue inputs over [M, N] outputs: a bias per column, a scale per row
  /// or column, a residual, a scalar.
  struct Inputs {
    std::string params;
    std::vector<std::string> names;
  };
  Inputs epilogueInputs(const std::string &m, const std::string &n) {
    Inputs inputs;
    unsigned count = chance(50) ? 0 : 1 + pick(3);
    for (unsigned i = 0; i < count; ++i) {
      std::string name = "e" + std::to_string(i);
      std::string type;
      switch (pick(5)) {
      case 0:
        type = oneOf({"bf16", "f16", "f32"}) + "[" + n + "]";
        break;
      case 1:
        type = "f32[" + m + ", 1]";
        break;
      case 2:
        type = oneOf({"bf16", "f16", "f32"}) + "[" + m + ", " + n + "]";
        break;
      case 3:
        type = "f32[1, " + n + "]";
        break;
      default:
        type = "f32[" + n + "]";
        break;
      }
      inputs.params += ", " + name + ": " + type;
      inputs.names.push_back(name);
    }
    return inputs;
  }

  /// Each output's expression: the products, and the inputs, each used.
  std::string body(const std::vector<std::string> &products,
                   const std::vector<std::string> &inputs,
                   const std::vector<std::string> &outputs) {
    std::vector<std::string> leaves = products;
    leaves.insert(leaves.end(), inputs.begin(), inputs.end());
    std::string text;
    for (size_t o = 0; o < outputs.size(); ++o) {
      std::string e = expr(leaves, 1 + pick(3));
      // The first output uses every product and input (unused ones are only
      // warnings, but they change what is fused).
      if (o == 0)
        for (const std::string &leaf : leaves)
          if (e.find(leaf) == std::string::npos)
            e = "(" + e + oneOf({" + ", " * "}) + leaf + ")";
      text += "  " + outputs[o] + " = " + e + "\n";
    }
    return text;
  }

  std::string outputsDecl(const std::vector<std::string> &outputs,
                          const std::string &m, const std::string &n) {
    std::string text = outputs.size() > 1 ? "(" : "";
    for (size_t i = 0; i < outputs.size(); ++i)
      text += (i ? ", " : "") + outputs[i] + ": " + outputType() + "[" + m +
              ", " + n + "]";
    return text + (outputs.size() > 1 ? ")" : "");
  }

  std::string matmul() {
    std::string m = dim("M"), n = dim("N"), k = dim("K");
    auto [ta, tb] = operandTypes();
    Inputs inputs = epilogueInputs(m, n);
    std::vector<std::string> outputs = {"c"};
    if (chance(15))
      outputs.push_back("d");
    std::string text = "kernel k" + std::to_string(pick(1000)) + "(a: " + ta +
                       "[" + m + ", " + k + "], b: " + tb + "[" + n + ", " +
                       k + "]" + inputs.params + ") -> " +
                       outputsDecl(outputs, m, n) + " {\n";
    return text + body({"(a @ b^T)"}, inputs.names, outputs) + "}\n";
  }

  std::string dualGemm() {
    std::string m = dim("M"), n = dim("N"), k = dim("K");
    auto [tx, tw] = operandTypes();
    Inputs inputs = epilogueInputs(m, n);
    std::string params = "x: " + tx + "[" + m + ", " + k + "], w1: " + tw +
                         "[" + n + ", " + k + "], w2: " + tw + "[" + n + ", " +
                         k + "]" + inputs.params;
    std::vector<std::string> outputs = {"y"};
    if (chance(15))
      outputs.push_back("z");
    std::string text = "kernel dual" + std::to_string(pick(1000)) + "(" +
                       params + ") -> " + outputsDecl(outputs, m, n) + " {\n";
    if (inputs.names.empty() && outputs.size() == 1 && chance(50))
      return text + "  y = " +
             oneOf({"silu", "gelu", "relu", "sigmoid", ""}) +
             "(x @ w1^T) * (x @ w2^T)\n}\n";
    return text + body({"(x @ w1^T)", "(x @ w2^T)"}, inputs.names, outputs) +
           "}\n";
  }

  /// NVFP4 / MXFP8 / MXFP4 operands (sm_100a's block-scaled MMA), and now
  /// and then block scales that are applied in software.
  std::string blockScaled() {
    std::string m = dim("M"), n = dim("N"), k = oneOf({"K", "K", "4096", "96"});
    std::string t = oneOf({"nvfp4", "mxfp8", "mxfp4", "e4m3[%] scaled(f32, 1x128)",
                           "e2m1[%] scaled(e4m3, 1x16)",
                           "e4m3[%] scaled(ue8m0, 1x32)"});
    auto typed = [&](const std::string &shape) {
      size_t at = t.find('%');
      if (at == std::string::npos)
        return t + "[" + shape + "]";
      return t.substr(0, at) + shape + t.substr(at + 1);
    };
    bool dual = chance(40);
    std::string text =
        "kernel scaled" + std::to_string(pick(1000)) + "(a: " + typed(m + ", " + k) +
        ", b1: " + typed(n + ", " + k) +
        (dual ? ", b2: " + typed(n + ", " + k) : std::string()) + ") -> c: " +
        oneOf({"f16", "bf16", "f32"}) + "[" + m + ", " + n + "] {\n";
    if (dual)
      return text + "  c = " + oneOf({"silu", "gelu", ""}) +
             "(a @ b1^T) * (a @ b2^T)\n}\n";
    return text + "  c = " + expr({"(a @ b1^T)"}, 2) + "\n}\n";
  }

  /// Attention as the math reads it (a scaled product, score modifiers, a
  /// mask, the softmax, the second product) in the forms the compiler
  /// builds on sm_90a (rank 3 to 5, a size-1 key/value head axis, head dims
  /// 64 / 128 / 256, causal and predicate masks, soft-capping, symbolic or
  /// edge extents, a log-sum-exp output, packed variable-length sequences)
  /// and, now and then, forms it refuses (other head dims, a value head dim
  /// that differs, f32 operands, schedule hints, the log-sum-exp of other
  /// scores, offsets of extent N).
  std::string attention() {
    std::string d = oneOf({"64", "128", "128", "256", "64", "96", "32"});
    std::string dv = chance(92) ? d : oneOf({"64", "128", "256"});
    std::string in = chance(90) ? oneOf({"bf16", "f16"}) : "f32";
    std::string out = chance(92) ? oneOf({"bf16", "f16"}) : "f32";
    std::string s = dim("S"), t = chance(20) ? s : dim("T");
    // Leading axes: q's, and k/v's (the same, or 1 for grouped-query heads
    // along the innermost one).
    unsigned leading = 1 + pick(3);
    bool grouped = leading >= 2 && chance(35);
    std::string qLead, kvLead;
    for (unsigned axis = 0; axis < leading; ++axis) {
      std::string name = dim(std::string(1, static_cast<char>('A' + axis)));
      bool broadcast = grouped && axis + 1 == leading;
      qLead += name + ", ";
      kvLead += (broadcast ? std::string("1") : name) + ", ";
    }
    // Packed sequences: grouped(q, cu_q) @ grouped(k, cu_k)^T; offsets
    // usually i32[B + 1], now and then of another extent.
    bool varlen = chance(25);
    std::string offsets =
        varlen ? ", cu_q: i32[" + oneOf({"B + 1", "B + 1", "B + 1", "N", "3"}) +
                     "], cu_k: i32[" + oneOf({"B + 1", "B + 1", "B + 1", "N", "3"}) +
                     "]"
               : "";
    // The log-sum-exp as a second output, usually of the softmax's scores.
    bool lse = chance(25);
    std::string lseOut = lse ? ", lse: " + oneOf({"f32", "f32", "bf16"}) + "[" +
                                   qLead + s + "]"
                             : "";
    std::string text =
        "kernel attn(q: " + in + "[" + qLead + s + ", " + d + "], k: " + in +
        "[" + kvLead + t + ", " + d + "], v: " + in + "[" + kvLead + t + ", " +
        dv + "]" + offsets + ") -> (o: " + out + "[" + qLead + s + ", " + dv +
        "]" + lseOut + ") {\n";
    std::string product =
        varlen ? "(grouped(q, cu_q) @ grouped(k, cu_k)^T)" : "(q @ k^T)";
    std::string scores = product + " * " +
                         (chance(70) ? "rsqrt(" + d + ".0)" : oneOf(kFloats));
    if (chance(20))
      scores = "tanh(" + scores + " / " + oneOf({"30.0", "50.0", "1.0"}) +
               ") * " + oneOf({"30.0", "50.0", "1.0"});
    text += "  s = " + scores + "\n";
    std::string masked =
        oneOf({"causal(s)", "causal(s)", "s", "s",
               "mask(s, |i, j| j <= i && i - j < 256)",
               "mask(s, |i, j| j <= i + 1)", "mask(s, |i, j| i == j)"});
    text += "  p = " + masked + "\n  o = softmax(p) @ v\n";
    if (lse)
      text += "  lse = logsumexp(" + std::string(chance(85) ? "p" : "s") + ")\n";
    return text + "}\n";
  }

  /// Forms the frontend accepts and the lowering refuses (for now).
  std::string notLoweredYet() {
    switch (pick(3)) {
    case 0:
      return "kernel moe(x: bf16[T, K], w: bf16[E, N, K], offsets: i32[E + "
             "1]) -> y: bf16[T, N] {\n  y = grouped(x, offsets) @ w^T\n}\n";
    case 1:
      return "kernel red(x: bf16[M, K], w: bf16[N, K]) -> (y: bf16[M, N], r: "
             "f32[M]) {\n  y = x @ w^T\n  r = sum(f32(y), axis = -1)\n}\n";
    default:
      return "kernel batched(a: bf16[B, M, K], b: bf16[B, N, K]) -> c: "
             "bf16[B, M, N] {\n  c = a @ b^T\n}\n";
    }
  }

  Random &rng;
};

} // namespace

std::string generateProgram(Random &rng) { return Generator(rng).program(); }

} // namespace kiln::fuzz
