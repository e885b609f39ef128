#!/usr/bin/env bash
# tests/compiled.sh DIR -- the compiled model (compose/model-compiled.c)
# against the interpreter it was written from: every spec in DIR (the golden
# cases' specs) composed with ATHREAD_COMPILE=always and =never, with and
# without symmetry, on 1 and 2 threads, must print the same report (verdict,
# counts, counterexample, memory), but for the words that say the model was
# compiled. Searches stop at 20,000 states (--max-states keeps the same
# states on every run). Then what happens when compiling fails: the search
# goes on interpreted and says why.
set -u
source "$(dirname "$0")/setup"
dir=$(cd "$1" && pwd)
cd "$SCRATCH"

# compose_both NAME SPEC ARGS...: the two reports, compared (a run that
# hangs is stopped after 60 s, and fails).
compose_both() {
  local name=$1 spec=$2
  shift 2
  ATHREAD_COMPILE=never timeout 60 "$ATHREAD" compose "$spec" --engine explicit --no-timing --max-states 20000 "$@" \
    > never.out 2>&1
  local never_rc=$?
  ATHREAD_COMPILE=always timeout 60 "$ATHREAD" compose "$spec" --engine explicit --no-timing --max-states 20000 "$@" \
    > always.raw 2>&1
  local always_rc=$?
  sed 's/, successors compiled to C$//' always.raw > always.out
  if [ $never_rc = $always_rc ] && [ $never_rc != 124 ] && cmp -s never.out always.out; then
    pass
  else
    fail "$name: compiled (exit $always_rc) and interpreted (exit $never_rc) differ"
    diff never.out always.out | head -n 6
  fi
}

compared=0
for spec in "$dir"/*.athread; do
  # only the specs that the explicit engine searches (others: errors, or symbolic only)
  ATHREAD_COMPILE=never timeout 60 "$ATHREAD" compose "$spec" --engine explicit --no-timing --max-states 20000 \
    > probe.out 2>&1
  grep -q '^engine explicit' probe.out || continue
  compared=$((compared + 1))
  compose_both "$(basename "$spec")" "$spec"
  compose_both "$(basename "$spec") --no-symmetry" "$spec" --no-symmetry
  compose_both "$(basename "$spec") --threads 2" "$spec" --threads 2
done
# A corpus that shrank would make this suite pass without comparing much.
if [ $compared -ge 150 ]; then pass; else fail "only $compared specs were composed explicitly (150 or more expected)"; fi

# The compiled model really runs: its words are printed, and the JSON says
# so (with the times: --no-timing leaves both out, as they depend on the
# machine's speed).
printf 'shared int[0..3] x = 0;\nthread T { init state A; A -> A when x < 3 do x := x + 1; }\nsystem S { T[2]; invariant x <= 3; }\n' > small.athread
ATHREAD_COMPILE=always "$ATHREAD" compose small.athread > out 2>&1
if grep -q ', successors compiled to C$' out; then pass; else fail "ATHREAD_COMPILE=always: no compiled model"; cat out; fi
ATHREAD_COMPILE=always "$ATHREAD" compose small.athread --json > out.json 2>&1
if grep -q '"compiled": true' out.json; then pass; else fail "ATHREAD_COMPILE=always: JSON compiled is not true"; fi
"$ATHREAD" compose small.athread --json > out.json 2>&1
if grep -q '"compiled": false' out.json; then pass; else fail "a small search was compiled"; fi
ATHREAD_COMPILE=always "$ATHREAD" compose small.athread --json --no-timing > out.json 2>&1
if grep -q '"compiled"' out.json; then fail "--no-timing: the JSON says whether the model was compiled"; else pass; fi

# By default the compiler runs beside the search, which switches to the
# compiled model between two rounds: the same report as the interpreter's
# (Bluetooth N=7, about 600,000 states: the switch comes early in it), but
# for the memory figures, which on two workers depend on the timing.
bluetooth=$TESTS_DIR/../examples/bluetooth/bluetooth.athread
for threads in 1 2; do
  ATHREAD_COMPILE=never "$ATHREAD" compose "$bluetooth" --set N=7 --no-symmetry --threads $threads --no-timing 2>&1 |
    sed 's/, [0-9]* bytes\{0,1\} per .*$//' > never.out
  "$ATHREAD" compose "$bluetooth" --set N=7 --no-symmetry --threads $threads --no-timing 2>&1 |
    sed 's/, [0-9]* bytes\{0,1\} per .*$//' > default.out
  if cmp -s never.out default.out; then pass; else fail "a switch to the compiled model on $threads threads"; diff never.out default.out | head -n 6; fi
done
"$ATHREAD" compose "$bluetooth" --set N=7 --no-symmetry --json > out.json 2>&1
if grep -q '"compiled": true' out.json; then pass; else fail "Bluetooth N=7 was not compiled"; fi

# A search that ends before the compiler does neither waits for it nor
# leaves it running: a "compiler" that sleeps for a minute, on a search of
# about 100,000 states (past the 20,000 from which it is started).
printf '#!/bin/sh\necho $$ > "%s/slow-cc.pid"\nexec sleep 60\n' "$PWD" > slow-cc
chmod +x slow-cc
rm -f slow-cc.pid
mkdir -p slow-tmp
start=$(date +%s)
TMPDIR=$PWD/slow-tmp ATHREAD_CC=$PWD/slow-cc "$ATHREAD" compose "$bluetooth" --set N=6 \
  --no-symmetry --threads 1 --json > out.json 2>&1
rc=$?
took=$(($(date +%s) - start))
if [ $rc = 0 ] && grep -q '"compiled": false' out.json && [ $took -lt 30 ]; then pass; else
  fail "a slow compiler: exit $rc after $took s"
fi
if [ -s slow-cc.pid ]; then pass; else fail "the slow compiler was not started (no pid written)"; fi
if [ -s slow-cc.pid ] && ! kill -0 "$(cat slow-cc.pid)" 2> /dev/null; then pass; else
  fail "the slow compiler still runs after the search"
fi
if [ -z "$(ls slow-tmp)" ]; then pass; else fail "the compiler's directory was left behind: $(ls slow-tmp)"; fi

# An overflow in the compiled arithmetic is the interpreter's fault too.
printf 'shared int x = 1;\nthread T { init state A; A -> A do x := x * 3; }\n' > overflow.athread
compose_both overflow overflow.athread

# Compiling fails: the search goes on interpreted, with the same verdict, and says why.
# expect_note NAME PATTERN [ENV...]: ATHREAD_COMPILE=always under the env given.
expect_note() {
  local name=$1 pattern=$2
  shift 2
  env ATHREAD_COMPILE=always "$@" "$ATHREAD" compose small.athread --no-timing > out 2>&1
  local rc=$?
  if [ $rc = 0 ] && grep -q "^note: the model's successors were interpreted: $pattern" out && grep -q '^verdict: safe' out; then
    pass
  else
    fail "$name: exit $rc"
    cat out
  fi
}
expect_note no-compiler "the C compiler '/nonexistent/cc' did not compile the model" ATHREAD_CC=/nonexistent/cc
expect_note compiler-fails "the C compiler 'false' did not compile the model" ATHREAD_CC=false
expect_note no-temporary-directory "no directory for the compiled model could be made in /nonexistent" TMPDIR=/nonexistent
# a "compiler" that writes garbage as the object (the argument after -o)
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && echo "not an object" > "$2"; shift; done\n' > garbage-cc
chmod +x garbage-cc
expect_note not-an-object "loading the compiled model failed: " ATHREAD_CC="$PWD/garbage-cc"
# one that writes an object without the two functions
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && o=$2; shift; done\necho "int nothing;" > empty.c && cc -shared -fPIC -o "$o" empty.c\n' > empty-cc
chmod +x empty-cc
expect_note no-functions "the compiled model lacks athread_next_all or athread_check" ATHREAD_CC="$PWD/empty-cc"
# a model whose C is too large to compile in reasonable time: a chain of 600 states
{
  printf 'shared int x = 0;\nthread Chain {\n  init state S0;\n'
  for i in $(seq 1 600); do printf '  state S%d;\n' "$i"; done
  for i in $(seq 0 599); do printf '  S%d -> S%d when true;\n' "$i" $((i + 1)); done
  printf '}\nsystem S { Chain; invariant x == 0; }\n'
} > small.athread
expect_note too-large "the model's C ([0-9]* KiB) is more than the 64 KiB that athread compiles"

summary compiled
[ $failed = 0 ]
