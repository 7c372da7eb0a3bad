#!/usr/bin/env python3
"""Checks docs/language.md's "What compiles today, per chip" table against the compiler.

    check-compiles-today.py KILN REPO_ROOT

Each row names a file; `KILN compile FILE --chip CHIP --emit=llvm` must succeed where the row
says "yes", and fail with a located error where it says "no" (never crash). Prints one line per
disagreement and a summary.
"""
import pathlib
import subprocess
import sys


def rows(doc):
    text = doc.read_text()
    table = text.split("## What compiles today, per chip", 1)[1].split("\n## ", 1)[0]
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[3].startswith("`") and cells[1] in ("yes", "no"):
            yield cells[0], {"sm_90a": cells[1], "sm_100a": cells[2]}, cells[3].strip("`")


def main():
    kiln, root = sys.argv[1], pathlib.Path(sys.argv[2])
    checked = wrong = 0
    for form, expected, path in rows(root / "docs" / "language.md"):
        for chip, want in expected.items():
            run = subprocess.run([kiln, "compile", str(root / path), "--chip", chip,
                                  "--emit=llvm", "-o", "/dev/null"],
                                 capture_output=True, text=True)
            checked += 1
            got = "yes" if run.returncode == 0 else "no"
            located = f"{path.split('/')[-1]}:" in run.stderr and ": error: " in run.stderr
            if run.returncode not in (0, 1) or (got == "no" and not located):
                print(f"{form} on {chip}: exit {run.returncode} without a located error:\n"
                      f"{run.stderr[-2000:]}")
                wrong += 1
            elif got != want:
                print(f"{form} on {chip}: the table says {want}, the compiler says {got}"
                      + (f":\n{run.stderr[-2000:]}" if got == "no" else ""))
                wrong += 1
    print(f"compiles-today: {checked} checked, {wrong} disagree")
    return 1 if wrong or checked == 0 else 0


sys.exit(main())
