#!/usr/bin/env bash
# scripts/demo.sh -- the paper's case studies end to end, with a summary table.
# Called by `make demo` with ATHREAD set to the binary. For every example
# folder: lint each spec; conform each (spec, C file) pair its README lists,
# one row per thread; `athread check` each pair it lists, one row (the C
# program's verdict); compose each spec, and compose --for-all where a thread
# has N instances; draw every system, and every counterexample over it;
# write each spec's review page (athread review, with --for-all where
# compose runs it) and, when headless Chromium is installed, its
# screenshot (scripts/review-screenshot.py).
# Everything each run printed, the traces (JSON), the diagrams and the pages
# go to out/EXAMPLE/ ($DEMO_OUT/EXAMPLE/ if set). Exit 0 unless some run failed
# (bad input or internal error): a "does not conform", "not proved" or
# "unsafe" verdict on a buggy variant is the point.
set -u
cd "$(dirname "$0")/.."
ATHREAD=${ATHREAD:-bin/athread}
out=${DEMO_OUT:-out}
row() { printf '%-10s %-50s %-23s %-27s %s\n' "$@"; }
ms_since() { echo "$(( ($(date +%s%N) - $1) / 1000000 )) ms"; }
# failed CODE LOG: the verdict column of a run that failed (recorded in
# $out/failures, since rows are printed from subshells).
failed() { echo "$2" >> "$out/failures"; echo "error (exit $1, see $2)"; }

# lint_row EXAMPLE SPEC
lint_row() {
  local start log verdict
  start=$(date +%s%N) log=$out/$1/$(basename "$2" .athread).lint.txt
  if "$ATHREAD" lint "$2" > "$log" 2>&1; then verdict=clean; else verdict=$(failed $? "$log"); fi
  row "$1" "lint $(basename "$2")" "-" "$verdict" "$(ms_since "$start")"
}

# conform_rows EXAMPLE SPEC CFILE: one row per thread, from conform --json;
# a counterexample is also printed as text and drawn over the spec.
conform_rows() {
  local name=$(basename "$2" .athread)-$(basename "$3" .c) code
  local json=$out/$1/$name.conform.json
  "$ATHREAD" conform "$2" "$3" --json > "$json" 2> "$out/$1/$name.conform.err"
  code=$?
  if [ $code -gt 1 ]; then
    row "$1" "conform $(basename "$2") $(basename "$3")" "-" "$(failed $code "$out/$1/$name.conform.err")" "-"
    return
  fi
  python3 - "$json" << 'EOF' | while IFS=$'\t' read -r thread verdict seconds; do
import json, sys
for t in json.load(open(sys.argv[1]))["threads"]:
    print("%s (%s)\t%s (%s)\t%d ms" % (t["thread"], t["function"], t["verdict"], t["engine"], round(t["seconds"] * 1000)))
EOF
    row "$1" "conform $(basename "$2") $(basename "$3")" "$thread" "$verdict" "$seconds"
  done
  [ $code = 1 ] || return
  "$ATHREAD" conform "$2" "$3" > "$out/$1/$name.conform.txt" 2>&1
  draw "$1" "$2" "$name-trace" --trace "$json"
}

# check_row EXAMPLE SPEC CFILE: athread check's verdict for the C program,
# with what was not proved: the system, or the first thread that does not conform.
check_row() {
  local name=$(basename "$2" .athread)-$(basename "$3" .c) start code verdict
  local log=$out/$1/$name.check.txt
  start=$(date +%s%N)
  "$ATHREAD" check "$2" "$3" > "$log" 2>&1
  code=$?
  case $code in
    0) verdict=safe ;;
    1) verdict="not proved ($(sed -n 's/^verdict: not proved: \(the abstract system\|thread [^ ]*\).*/\1/p' "$log"))"
       verdict=${verdict/the abstract system/system unsafe} verdict=${verdict/(thread /(} ;;
    3) verdict=unknown ;;
    *) verdict=$(failed $code "$log") ;;
  esac
  row "$1" "check $(basename "$2") $(basename "$3")" "-" "$verdict" "$(ms_since "$start")"
}

# compose_row EXAMPLE SPEC [--for-all N]: the verdict, and the trace drawn.
compose_row() {
  local example=$1 spec=$2 name start log code verdict
  shift 2
  name=$(basename "$spec" .athread)${1:+-for-all}
  log=$out/$example/$name.compose.txt start=$(date +%s%N)
  "$ATHREAD" compose "$spec" "$@" --trace-out "$out/$example/$name.trace.json" > "$log" 2>&1
  code=$?
  case $code in
    0) verdict=safe${1:+" for every $2"} ;;
    1) verdict="unsafe ($(sed -n 's/^counterexample, \([0-9]*\) step.*/\1-step trace/p' "$log"))" ;;
    3) verdict="unknown ($(sed -n 's/.*unknown[:(] *\([^)]*\).*/\1/p' "$log" | head -n 1))" ;;
    *) verdict=$(failed $code "$log") ;;
  esac
  row "$example" "compose $(basename "$spec") $*" "-" "$verdict" "$(ms_since "$start")"
  [ $code = 1 ] || return
  # --for-all found the trace at some N: the diagram needs that N.
  local at_n=$(sed -n "s/^system [^:]*: unsafe for ${2:-} = \([0-9]*\):.*/\1/p" "$log")
  draw "$example" "$spec" "$name-trace" --trace "$out/$example/$name.trace.json" ${at_n:+--set "$2=$at_n"}
}

# draw EXAMPLE SPEC NAME [VIZ OPTIONS]: NAME.svg and NAME.png in out/EXAMPLE.
draw() {
  local example=$1 spec=$2 name=$3 ext code
  shift 3
  for ext in svg png; do
    "$ATHREAD" viz "$spec" "$@" -o "$out/$example/$name.$ext" >> "$out/$example/$name.viz.txt" 2>&1 \
      || { code=$?; row "$example" "viz $name.$ext" "-" "$(failed $code "$out/$example/$name.viz.txt")" "-"; }
  done
}

# review_row EXAMPLE SPEC: NAME.review.html (athread review; --for-all as
# compose_row runs it), its composition verdict, and NAME.review.png when
# $screenshots says Chromium can take one.
review_row() {
  local example=$1 spec=$2 name page log start code verdict param
  name=$(basename "$spec" .athread) start=$(date +%s%N)
  page=$out/$example/$name.review.html log=$out/$example/$name.review.txt
  param=$(threads_with_n "$spec" | head -n 1)
  "$ATHREAD" review "$spec" ${param:+--for-all "$param"} -o "$page" > "$log" 2>&1
  code=$?
  if [ $code = 0 ]; then
    verdict="page: $(sed -n 's/^<p class="verdict verdict-\([a-z]*\)">.*/\1/p' "$page")"
  else
    verdict=$(failed $code "$log")
  fi
  row "$example" "review $(basename "$spec")${param:+ --for-all $param}" "-" "$verdict" "$(ms_since "$start")"
  [ $code = 0 ] && [ -n "$screenshots" ] || return
  /usr/bin/python3 scripts/review-screenshot.py "$page" "$out/$example/$name.review.png" >> "$log" 2>&1 \
    || { code=$?; row "$example" "screenshot $name.review.png" "-" "$(failed $code "$log")" "-"; }
}

# threads_with_n SPEC: the consts that count the instances of some thread
# (none when a thread uses tid: its instances are not interchangeable, so
# --for-all does not apply).
threads_with_n() {
  local param
  grep -qw tid "$1" && return
  for param in $(sed -n 's/^ *[A-Za-z_][A-Za-z0-9_]*\[\([A-Za-z_][A-Za-z0-9_]*\)\];.*/\1/p' "$1" | sort -u); do
    grep -q "^const $param " "$1" && echo "$param"
  done
}

rm -rf "$out"
screenshots=
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && /usr/bin/python3 -c 'import selenium' 2> /dev/null; then
  screenshots=yes
else
  echo "note: no screenshots of the review pages (needs chromium, chromium-driver and python3-selenium: make deps)"
fi
row example "check" thread verdict time
start_all=$(date +%s%N)
for dir in examples/figure2 examples/bluetooth examples/battery examples/mutex examples/peterson examples/filter examples/bakery examples/tutorial; do
  example=$(basename "$dir")
  mkdir -p "$out/$example"
  for spec in "$dir"/*.athread; do lint_row "$example" "$spec"; done
  sed -n 's/^| `athread conform \([^ `]*\) \([^ `]*\)`.*/\1 \2/p' "$dir/README.md" | while read -r spec cfile; do
    conform_rows "$example" "$dir/$spec" "$dir/$cfile"
  done
  sed -n 's/^| `athread check \([^ `]*\) \([^ `]*\)`.*/\1 \2/p' "$dir/README.md" | while read -r spec cfile; do
    check_row "$example" "$dir/$spec" "$dir/$cfile"
  done
  for spec in "$dir"/*.athread; do
    compose_row "$example" "$spec"
    for param in $(threads_with_n "$spec"); do compose_row "$example" "$spec" --for-all "$param"; done
    draw "$example" "$spec" "$(basename "$spec" .athread)"
    review_row "$example" "$spec"
  done
done
find "$out" -empty -delete
echo "all in $(ms_since "$start_all"); each run's output, the traces, the diagrams and the review pages are in $out/"
[ ! -s "$out/failures" ]
