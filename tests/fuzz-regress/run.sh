#!/usr/bin/env bash
# tests/fuzz-regress/run.sh -- replays every input the fuzzers found a bug
# with (tests/fuzz-regress/HARNESS/NAME, see fuzz/README.md) through the
# athread binary, as a user would meet it:
#   spec/*    athread lint FILE, and when it passes, athread viz FILE -o out.svg
#   cfront/*  athread conform fuzz/cfront.athread FILE.c (thread A = thread_a)
#   trace/*   athread viz examples/bluetooth/bluetooth.athread --trace FILE -o out.svg
# Each must end without a crash: exit 0, 1, 2 or 3, no sanitizer report,
# and with exit 2 an error line on stderr ("file:line:col: error: ..." for
# specs and C; the trace reader says "file: error: ...").
# Ends with "fuzz-regress: N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
source tests/setup
regress=tests/fuzz-regress
# Graphviz's own leaks under make valgrind-test (see tests/viz/run.sh).
[ -n "$VALGRIND" ] && VALGRIND="$VALGRIND --suppressions=$TESTS_DIR/viz/graphviz.supp"

# run_case FILE KIND: runs one input, counts the outcome.
run_case() {
  local file=$1 kind=$2 name dir rc where='[^ ]*:[0-9]+:[0-9]+'
  name=$(basename "$file")
  dir=$SCRATCH/$kind-$name
  mkdir -p "$dir"
  case $kind in
    spec)
      $VALGRIND "$ATHREAD" lint "$file" > "$dir/stdout" 2> "$dir/stderr" < /dev/null &&
        $VALGRIND "$ATHREAD" viz "$file" -o "$dir/out.svg" > "$dir/stdout" 2> "$dir/stderr" < /dev/null ;;
    cfront)
      cp "$file" "$dir/$name.c"
      $VALGRIND "$ATHREAD" conform fuzz/cfront.athread "$dir/$name.c" --timeout 20 --no-timing > "$dir/stdout" 2> "$dir/stderr" < /dev/null ;;
    trace)
      where='[^ ]*(:[0-9]+:[0-9]+)?'
      $VALGRIND "$ATHREAD" viz examples/bluetooth/bluetooth.athread --trace "$file" -o "$dir/out.svg" > "$dir/stdout" 2> "$dir/stderr" < /dev/null ;;
  esac
  rc=$?
  local problem=""
  case $rc in 0 | 1 | 2 | 3) ;; *) problem="exit $rc" ;; esac
  grep -qE 'Sanitizer|runtime error:' "$dir/stderr" && problem+=" sanitizer report"
  [ $rc = 2 ] && ! grep -qE "^$where: (fatal )?error: " "$dir/stderr" && problem+=" exit 2 without an error line"
  if [ -z "$problem" ]; then pass; else fail "$file:$problem"; head -n 20 "$dir/stderr"; fi
}

for kind in spec cfront trace; do
  for file in "$regress/$kind"/*; do
    [ -f "$file" ] && run_case "$file" "$kind"
  done
done
summary fuzz-regress
[ $failed = 0 ]
