#!/usr/bin/env python3
"""Checks that the documented pass pipeline is the one that runs.

    kiln-opt /dev/null --dump-pass-pipeline --pass-pipeline='builtin.module(kiln-compile)' 2>&1 |
        check-documented-pipeline.py docs/extending.md docs/architecture.md

The passes kiln-opt prints (options and nesting dropped) must equal, in order, the listing in
docs/extending.md (the fenced block after "`buildKilnCompilePipeline` (...) runs:") and the
numbered rows of the pass table ("| # | pass | IR | what it does |") in docs/architecture.md (its row for the fusion plugins, which run twice, is not
numbered and is compared without them).
"""
import re
import sys


def pass_name(text):
    text = text.strip().rstrip(",")
    text = re.sub(r"^(gpu\.module|cta\.program|tile\.kernel)\(", "", text)
    return re.split(r"[{\s]", text, maxsplit=1)[0].rstrip(")")


def dumped(lines):
    names = []
    for line in lines:
        line = line.strip()
        if not line or line.startswith("Pass Manager") or line in ("builtin.module(", ")", "),"):
            continue
        if line in ("gpu.module(", "cta.program(", "tile.kernel(") or line.startswith("module") or line == "}":
            continue
        names.append(pass_name(line))
    return names


def extending(path):
    text = open(path).read()
    start = text.index("`buildKilnCompilePipeline` (`compiler/Pipelines/Pipelines.cpp`) runs:")
    block = text[start:].split("```", 2)[1]
    return [pass_name(line.split("<-")[0]) for line in block.splitlines()
            if line.strip() and not line.startswith(" ")]


def architecture(path):
    names = []
    lines = open(path).read().split("| # | pass | IR | what it does |", 1)[1].splitlines()
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        m = re.match(r"^\| (\d+) \| (.*?) \|", line)
        if m:
            for name in re.findall(r"`([^`]+)`", m.group(2)):
                names.append(pass_name(name))
    return names


def main():
    ran = dumped(sys.stdin.read().splitlines())
    if not ran:
        print("no pipeline on stdin")
        return 1
    status = 0
    for what, doc, expected in (
        ("docs/extending.md", extending(sys.argv[1]), ran),
        ("docs/architecture.md", architecture(sys.argv[2]),
         [n for n in ran if n != "tile-apply-fusion-plugins"]),
    ):
        if doc != expected:
            print(f"{what} lists {doc}\nbut the pipeline runs {expected}")
            status = 1
    if status == 0:
        print(f"documented pipeline: {len(ran)} passes, as run")
    return status


sys.exit(main())
