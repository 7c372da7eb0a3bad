#!/usr/bin/env python3
"""Sums libFuzzer's -print_coverage=1 report by source folder.

    kiln-fuzz-compile -runs=0 -print_coverage=1 CORPUS 2>&1 | test/fuzz/coverage.py [PREFIX...]

Each COVERED_FUNC / UNCOVERED_FUNC line gives a function's covered and total edges and its
file; the edges are summed per PREFIX (a path fragment such as compiler/Conversion) and in all,
and printed as "PREFIX: covered/total edges (x%) in N of M functions".
"""
import re
import sys

LINE = re.compile(r"^(UN)?COVERED_FUNC: hits: \d+ edges: (\d+)/(\d+) (.*) (\S+):\d+$")


def main() -> int:
    prefixes = sys.argv[1:] or [""]
    totals = {p: [0, 0, 0, 0] for p in prefixes}  # covered, edges, funcs hit, funcs
    for line in sys.stdin:
        m = LINE.match(line.strip())
        if not m:
            continue
        covered, edges, path = int(m.group(2)), int(m.group(3)), m.group(5)
        for prefix in prefixes:
            if prefix in path:
                t = totals[prefix]
                t[0] += covered
                t[1] += edges
                t[2] += covered > 0
                t[3] += 1
    for prefix, (covered, edges, hit, funcs) in totals.items():
        share = 100.0 * covered / edges if edges else 0.0
        print(f"{prefix or 'all'}: {covered}/{edges} edges ({share:.1f}%) "
              f"in {hit} of {funcs} functions")
    return 0 if any(t[1] for t in totals.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
