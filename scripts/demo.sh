#!/usr/bin/env bash
# scripts/demo.sh -- runs athread on every example and prints a summary table.
# Called by `make demo` with ATHREAD set to the binary; writes what each run
# printed, and the counterexample traces as JSON, to out/.
set -u
cd "$(dirname "$0")/.."
ATHREAD=${ATHREAD:-bin/athread}
mkdir -p out
printf '%-44s %-8s %-36s %s\n' "specification" "lint" "compose" "time"
status=0
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
for spec in examples/*/*.athread; do
  name=$(basename "$spec" .athread)
  start=$(date +%s%N)
  if "$ATHREAD" lint "$spec" > "out/$name.lint.txt" 2>&1; then lint=clean; else lint=errors; status=1; fi
  "$ATHREAD" compose "$spec" --trace-out "out/$name.trace.json" > "out/$name.compose.txt" 2>&1
  case $? in
    0) verdict="safe" ;;
    1) verdict="unsafe ($(sed -n 's/^counterexample, \([0-9]*\) step.*/\1-step trace/p' "out/$name.compose.txt"))" ;;
    2) verdict="needs the symbolic engine" ;;
    3) verdict="unknown" ;;
    *) verdict="error"; status=1 ;;
  esac
  printf '%-44s %-8s %-36s %d ms\n' "$spec" "$lint" "$verdict" "$(ms_since "$start")"
done
echo "(conform and viz join this table as they are built; each run's output is in out/)"
exit $status
