#!/usr/bin/env bash
# scripts/demo.sh -- runs athread on every example and prints a summary table.
# Called by `make demo` with ATHREAD set to the binary; writes what each run
# printed, the counterexample traces as JSON, and the diagrams (NAME.svg,
# NAME.png, and NAME-trace.svg/.png over the counterexample) to out/.
set -u
cd "$(dirname "$0")/.."
ATHREAD=${ATHREAD:-bin/athread}
mkdir -p out
printf '%-44s %-8s %-36s %-28s %s\n' "specification" "lint" "compose" "viz" "time"
status=0
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# draw SPEC NAME COMPOSE_EXIT: the diagrams of SPEC in out/; prints what it drew.
draw() {
  local drawn="" ext
  for ext in svg png; do
    "$ATHREAD" viz "$1" -o "out/$2.$ext" >> "out/$2.viz.txt" 2>&1 && drawn="$drawn $ext"
  done
  for ext in svg png; do
    [ "$3" = 1 ] && "$ATHREAD" viz "$1" --trace "out/$2.trace.json" -o "out/$2-trace.$ext" >> "out/$2.viz.txt" 2>&1 \
      && drawn="$drawn trace.$ext"
  done
  echo "${drawn# }"
}
for spec in examples/*/*.athread; do
  name=$(basename "$spec" .athread)
  start=$(date +%s%N)
  if "$ATHREAD" lint "$spec" > "out/$name.lint.txt" 2>&1; then lint=clean; else lint=errors; status=1; fi
  "$ATHREAD" compose "$spec" --trace-out "out/$name.trace.json" > "out/$name.compose.txt" 2>&1
  compose_exit=$?
  case $compose_exit in
    0) verdict="safe" ;;
    1) verdict="unsafe ($(sed -n 's/^counterexample, \([0-9]*\) step.*/\1-step trace/p' "out/$name.compose.txt"))" ;;
    2) verdict="needs the symbolic engine" ;;
    3) verdict="unknown" ;;
    *) verdict="error"; status=1 ;;
  esac
  : > "out/$name.viz.txt"
  viz=$(draw "$spec" "$name" $compose_exit)
  [ -n "$viz" ] || { viz=error; status=1; }
  printf '%-44s %-8s %-36s %-28s %d ms\n' "$spec" "$lint" "$verdict" "$viz" "$(ms_since "$start")"
done
echo "(conform joins this table when it is built; each run's output and the diagrams are in out/)"
exit $status
