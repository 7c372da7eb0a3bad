#!/usr/bin/env python3
"""Mutation fuzzer for the .kiln frontend (run by hand, not by lit).

Feeds kiln-translate --import-kiln random truncations and mutations of the
examples and of the frontend tests, and reports any input that makes it crash
(a signal or an exit code other than 0 and 1), hang, or get past Sema only to
fail an op verifier. Offending inputs are
written next to the report so they can become lit tests.

    test/Frontend/Inputs/fuzz.py build/bin/kiln-translate examples/*.kiln \
        test/Frontend/*.kiln --iterations 2000 --out /tmp/kiln-fuzz
"""
import argparse
import os
import random
import subprocess
import sys

TOKENS = ["kernel", "@schedule", "(", ")", "[", "]", "{", "}", ",", ":", ";",
          "=", "==", "->", "+", "-", "*", "/", "@", "^T", "|", "||", "&&", "!",
          "<", "<=", ">", ">=", "!=", "1x128", "0", "1", "-1", "128", "0.5",
          "1e9", "inf", "M", "K", "E + 1", "bf16", "f32", "i32", "e4m3",
          "nvfp4", "mxfp8", "scaled(f32, 1x128)", "silu", "softmax", "causal",
          "mask", "modify", "grouped", "sum", "max", "axis", "where", "|i, j|",
          "|x, i, j|", "/*", "*/", "//", "\n", "ᵀ", "\x00", "\xff", "tile",
          "stages", "cluster", "true"]


def mutate(text, rng):
    kind = rng.randrange(6)
    if kind == 0:  # truncate
        return text[: rng.randrange(len(text) + 1)]
    pos = rng.randrange(len(text) + 1)
    if kind == 1:  # delete a span
        return text[:pos] + text[pos + rng.randrange(1, 12):]
    if kind == 2:  # insert a token
        return text[:pos] + rng.choice(TOKENS) + text[pos:]
    if kind == 3:  # replace a span with a token
        return text[:pos] + rng.choice(TOKENS) + text[pos + rng.randrange(1, 8):]
    if kind == 4:  # duplicate a span
        end = pos + rng.randrange(1, 40)
        return text[:end] + text[pos:end] + text[end:]
    # swap two characters
    if len(text) < 2:
        return text
    i, j = rng.randrange(len(text)), rng.randrange(len(text))
    chars = list(text)
    chars[i], chars[j] = chars[j], chars[i]
    return "".join(chars)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tool")
    parser.add_argument("seeds", nargs="+")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="/tmp/kiln-fuzz")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    corpus = []
    for path in args.seeds:
        with open(path, encoding="utf-8", errors="replace") as f:
            # Split test files at their markers so each seed is one program.
            corpus.extend(chunk for chunk in f.read().split("// -----") if chunk.strip())
    os.makedirs(args.out, exist_ok=True)
    failures = 0
    for i in range(args.iterations):
        text = rng.choice(corpus)
        for _ in range(rng.randrange(1, 4)):
            text = mutate(text, rng)
        data = text.encode("utf-8", errors="surrogateescape")
        try:
            result = subprocess.run([args.tool, "--import-kiln", "-"], input=data,
                                    capture_output=True, timeout=20)
            ok = result.returncode in (0, 1)
            why = f"exit code {result.returncode}"
            # Sema must reject everything the op verifiers would.
            if ok and b"error: '" in result.stderr and b"' op " in result.stderr:
                ok, why = False, "verifier rejected what Sema accepted"
        except subprocess.TimeoutExpired:
            ok, why = False, "timeout"
        if not ok:
            failures += 1
            path = os.path.join(args.out, f"crash-{i}.kiln")
            with open(path, "wb") as f:
                f.write(data)
            print(f"{why}: {path}", file=sys.stderr)
    print(f"{args.iterations} inputs, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
