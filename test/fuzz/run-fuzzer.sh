#!/usr/bin/env bash
# Runs one Kiln fuzzer over seeds taken from the source tree.
#
#   test/fuzz/run-fuzzer.sh FUZZER WORKDIR SECONDS EXT SOURCE... [-- LIBFUZZER-ARGS...]
#
# Every *.EXT file under the SOURCE folders (or a SOURCE file itself) becomes seeds: a test file split at its
# `// -----` lines gives one seed per case. New inputs go to WORKDIR/corpus (kept between
# runs, so a nightly run continues where the last stopped), findings to WORKDIR/crash-*.
# Each seed runs once first (under the sanitizers of a KILN_SANITIZE build), then libFuzzer mutates for
# SECONDS. The exit status is the fuzzer's: 0 when nothing was found. The last line gives
# the executions, e.g. "fuzz: kiln-fuzz-frontend: 812345 executions in 3600 s, no finding".
set -euo pipefail
fuzzer=$1 work=$2 seconds=$3 ext=$4
shift 4
sources=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do sources+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
mkdir -p "$work/seeds" "$work/corpus"
rm -f "$work"/seeds/*
python3 - "$work/seeds" "$ext" "${sources[@]}" <<'PY'
import pathlib, sys
out, ext, roots = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
n = 0
for root in roots:
    root = pathlib.Path(root)
    paths = [root] if root.is_file() else sorted(root.rglob("*." + ext))
    for path in paths:
        for case in path.read_bytes().split(b"\n// -----\n"):
            (out / f"{n:05d}.{ext}").write_bytes(case)
            n += 1
print(f"fuzz: {n} seeds from {' '.join(roots)}")
PY
log=$work/fuzz.log
status=0
# -timeout: one input taking this long is a finding (a hang); -rss_limit_mb likewise for memory.
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
  -print_final_stats=1 -artifact_prefix="$work/" "$@" "$work/corpus" "$work/seeds" \
  > "$log" 2>&1 || status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
if [ $status != 0 ]; then
  tail -n 60 "$log"
  echo "fuzz: $(basename "$fuzzer"): FAILED (exit $status) after ${runs:-?} executions; log: $log"
else
  echo "fuzz: $(basename "$fuzzer"): ${runs:-?} executions in $seconds s, no finding"
fi
exit $status
