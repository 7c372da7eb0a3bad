#!/bin/sh
# Stands in for ptxas in driver tests: prints the report in $FAKE_PTXAS_LOG,
# writes an empty cubin to the -o path and exits with $FAKE_PTXAS_EXIT (0).
out=""
while [ $# -gt 0 ]; do
  if [ "$1" = "-o" ]; then out="$2"; shift; fi
  shift
done
cat "$FAKE_PTXAS_LOG"
if [ -n "$out" ]; then : > "$out"; fi
exit "${FAKE_PTXAS_EXIT:-0}"
