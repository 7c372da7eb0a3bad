#!/bin/sh
# Stands in for ptxas in driver tests: prints the report in $FAKE_PTXAS_LOG,
# writes an empty cubin to the -o path and exits with $FAKE_PTXAS_EXIT (0).
# Without FAKE_PTXAS_LOG it writes a report for each entry of the input PTX:
# clean, or spilling for the entries named in $FAKE_PTXAS_SPILL.
out=""
ptx=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift ;;
    *.ptx) ptx="$1" ;;
  esac
  shift
done
if [ -n "${FAKE_PTXAS_LOG:-}" ]; then
  cat "$FAKE_PTXAS_LOG"
else
  echo "ptxas info    : 0 bytes gmem"
  for entry in $(sed -n 's/^\.visible \.entry \([A-Za-z0-9_]*\)(.*/\1/p' "$ptx"); do
    spill=0
    for name in ${FAKE_PTXAS_SPILL:-}; do
      [ "$name" = "$entry" ] && spill=48
    done
    echo "ptxas info    : Compiling entry function '$entry' for 'sm_90a'"
    echo "ptxas info    : Function properties for $entry"
    echo "    $spill bytes stack frame, $spill bytes spill stores, $spill bytes spill loads"
    echo "ptxas info    : Used 168 registers, used 16 barriers"
  done
fi
if [ -n "$out" ]; then : > "$out"; fi
exit "${FAKE_PTXAS_EXIT:-0}"
