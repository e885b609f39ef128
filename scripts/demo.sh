#!/usr/bin/env bash
# scripts/demo.sh -- runs athread on every example and prints a summary table.
# Called by `make demo` with ATHREAD set to the binary.
set -u
cd "$(dirname "$0")/.."
ATHREAD=${ATHREAD:-bin/athread}
mkdir -p out
printf '%-44s %-8s %s\n' "specification" "lint" "time"
status=0
for spec in examples/*/*.athread; do
  start=$(date +%s%N)
  if "$ATHREAD" lint "$spec" 2> "out/$(basename "$spec" .athread).lint.txt"; then verdict=clean; else verdict=errors; status=1; fi
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  printf '%-44s %-8s %d ms\n' "$spec" "$verdict" "$ms"
done
echo "(conform, compose and viz join this table as they are built; lint messages are in out/)"
exit $status
