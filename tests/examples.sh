#!/usr/bin/env bash
# tests/examples.sh -- the verdicts every example promises in its README.
set -u
source "$(dirname "$0")/setup"
root=$(cd "$TESTS_DIR/.." && pwd)

# check NAME WANT_EXIT -- ARGS...: athread ARGS must exit with WANT_EXIT.
check() {
  local name=$1 want=$2
  shift 3
  $VALGRIND "$ATHREAD" "$@" > "$SCRATCH/out" 2>&1
  local got=$?
  if [ "$got" = "$want" ]; then pass; else fail "$name: exit $got, expected $want"; head -n 20 "$SCRATCH/out"; fi
}

ex=$root/examples
for spec in "$ex"/*/*.athread; do check "lint $(basename "$spec")" 0 -- lint "$spec"; done
# Every example is in fmt's canonical layout (the users copy their style from them).
check "fmt --check every example" 0 -- fmt --check "$ex"/*/*.athread

# compose: 0 safe, 1 unsafe; with and without symmetry reduction
for sym in "" --no-symmetry; do
  check "bluetooth $sym" 0 -- compose "$ex/bluetooth/bluetooth.athread" $sym
  check "bluetooth N=4 $sym" 0 -- compose "$ex/bluetooth/bluetooth.athread" --set N=4 $sym
  check "bluetooth-buggy $sym" 1 -- compose "$ex/bluetooth/bluetooth-buggy.athread" $sym
  check "bluetooth-buggy N=1 $sym" 1 -- compose "$ex/bluetooth/bluetooth-buggy.athread" --set N=1 $sym
  check "battery $sym" 0 -- compose "$ex/battery/battery.athread" $sym
  check "battery N=4 $sym" 0 -- compose "$ex/battery/battery.athread" --set N=4 $sym
  check "peterson $sym" 0 -- compose "$ex/peterson/peterson.athread" $sym
  check "peterson-broken $sym" 1 -- compose "$ex/peterson/peterson-broken.athread" $sym
  check "mutex $sym" 0 -- compose "$ex/mutex/mutex.athread" $sym
  check "mutex n=4 $sym" 0 -- compose "$ex/mutex/mutex.athread" --set n=4 $sym
done
# Arrays indexed by tid (no symmetry): the filter lock and the bakery for several N.
for n in 2 3 4; do
  check "filter N=$n" 0 -- compose "$ex/filter/filter.athread" --set N=$n
  check "filter-broken N=$n" 1 -- compose "$ex/filter/filter-broken.athread" --set N=$n
done
for n in 2 3; do
  check "bakery N=$n" 0 -- compose "$ex/bakery/bakery.athread" --set N=$n
  check "bakery-broken N=$n" 1 -- compose "$ex/bakery/bakery-broken.athread" --set N=$n
done
check "filter symbolic" 0 -- compose "$ex/filter/filter.athread" --set N=2 --engine symbolic
check "bakery-broken symbolic" 1 -- compose "$ex/bakery/bakery-broken.athread" --set N=2 --engine symbolic
# SPIN on athread promela agrees with compose: check_spin NAME WANT(0 safe/1 unsafe) SPEC ARGS...
check_spin() {
  local name=$1 want=$2 spec=$3 dir=$SCRATCH/spin-$1
  shift 3
  mkdir -p "$dir"
  "$ATHREAD" promela "$spec" "$@" -o "$dir/model.pml" > "$dir/out" 2>&1 &&
    (cd "$dir" && spin -a model.pml > /dev/null && gcc -O1 -DSAFETY -o pan pan.c 2> /dev/null && ./pan -E -m1000000 > pan.out)
  local errors
  errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$dir/pan.out" 2> /dev/null)
  local got=1
  [ "$errors" = 0 ] && got=0
  if [ -n "$errors" ] && [ "$got" = "$want" ]; then pass; else
    fail "$name: SPIN says errors: ${errors:-none}, compose says exit $want"; fi
}
for n in 2 3 4; do
  check_spin "spin-filter-$n" 0 "$ex/filter/filter.athread" --set N=$n
  check_spin "spin-filter-broken-$n" 1 "$ex/filter/filter-broken.athread" --set N=$n
done
for n in 2 3; do
  check_spin "spin-bakery-$n" 0 "$ex/bakery/bakery.athread" --set N=$n
  check_spin "spin-bakery-broken-$n" 1 "$ex/bakery/bakery-broken.athread" --set N=$n
done
# figure2 needs unbounded reasoning: the explicit engine refuses it with a
# reason, and auto mode hands it to the symbolic engine.
check "figure2 explicit" 2 -- compose "$ex/figure2/figure2.athread" --engine explicit
check "figure2 auto" 0 -- compose "$ex/figure2/figure2.athread"
check "figure2-noinit auto" 1 -- compose "$ex/figure2/figure2-noinit.athread"
# The symbolic engine agrees with the explicit one on the finite examples.
check "bluetooth symbolic" 0 -- compose "$ex/bluetooth/bluetooth.athread" --engine symbolic
check "bluetooth N=1 symbolic" 0 -- compose "$ex/bluetooth/bluetooth.athread" --engine symbolic --set N=1
check "bluetooth-buggy symbolic" 1 -- compose "$ex/bluetooth/bluetooth-buggy.athread" --engine symbolic
check "peterson symbolic" 0 -- compose "$ex/peterson/peterson.athread" --engine symbolic
check "peterson-broken symbolic" 1 -- compose "$ex/peterson/peterson-broken.athread" --engine symbolic
check "mutex symbolic" 0 -- compose "$ex/mutex/mutex.athread" --engine symbolic
check "battery symbolic timeout" 3 -- compose "$ex/battery/battery.athread" --engine symbolic --timeout 0.05
# conform (the defaults: access atomicity, the system's environment): every
# thread of the correct code conforms (with either engine); each buggy variant
# has one thread that does not, for the reason its README gives.
# check_reason NAME WANT_EXIT PATTERN -- ARGS...: also greps the output.
check_reason() {
  local name=$1 want=$2 pattern=$3
  shift 4
  $VALGRIND "$ATHREAD" "$@" > "$SCRATCH/out" 2>&1
  local got=$?
  if [ "$got" = "$want" ] && grep -q -- "$pattern" "$SCRATCH/out"; then pass; else fail "$name: exit $got, expected $want and '$pattern'"; head -n 20 "$SCRATCH/out"; fi
}
for engine in auto chc; do
  check "conform figure2 $engine" 0 -- conform "$ex/figure2/figure2.athread" "$ex/figure2/figure2.c" --engine $engine
  check "conform bluetooth $engine" 0 -- conform "$ex/bluetooth/bluetooth.athread" "$ex/bluetooth/bluetooth.c" --engine $engine
  check "conform bluetooth-buggy spec $engine" 0 -- conform "$ex/bluetooth/bluetooth-buggy.athread" "$ex/bluetooth/bluetooth-buggy.c" --engine $engine
  check "conform battery $engine" 0 -- conform "$ex/battery/battery.athread" "$ex/battery/battery.c" --engine $engine
  check "conform dispatch $engine" 0 -- conform "$ex/tutorial/dispatch.athread" "$ex/tutorial/dispatch.c" --engine $engine
done
check_reason "conform figure2-bad" 1 "thread A implements thread_a: does not conform" -- conform "$ex/figure2/figure2.athread" "$ex/figure2/figure2-bad.c"
check_reason "conform figure2-bad reason" 1 "step 2 is not simulated" -- conform "$ex/figure2/figure2.athread" "$ex/figure2/figure2-bad.c"
check_reason "conform bluetooth-buggy" 1 "the assertion fails and no candidate state in {Entered} goes wrong" -- conform "$ex/bluetooth/bluetooth.athread" "$ex/bluetooth/bluetooth-buggy.c"
check_reason "conform battery-buggy" 1 "thread Worker implements .*: does not conform" -- conform "$ex/battery/battery.athread" "$ex/battery/battery-buggy.c"
check_reason "conform battery-buggy reason" 1 "NumQueuedWorkers = NumQueuedWorkers - 1; }" -- conform "$ex/battery/battery.athread" "$ex/battery/battery-buggy.c"
check_reason "conform dispatch-v1" 1 "moved: *another Dispatcher takes Idle -> Owner" -- conform "$ex/tutorial/dispatch.athread" "$ex/tutorial/dispatch-v1.c"
check_reason "conform dispatch-racy lost update" 1 "step 4 is not simulated: no edge of Dispatcher from {Owner}" -- conform "$ex/tutorial/dispatch-racy.athread" "$ex/tutorial/dispatch-v1.c"
# For every N (check --for-all): the correct designs' code is safe for every N, the buggy code is not proved.
# races: the fixed and the racy C variants, and KISS's Bluetooth driver (the spec's system as the harness):
# no data race; a race on sent with a replayed trace; a race on the stopping flag.
check "races dispatch-threads" 0 -- races "$ex/tutorial/dispatch-threads.c"
check_reason "races dispatch-threads-racy" 1 "cell sent: data race: .*(replayed)" -- races "$ex/tutorial/dispatch-threads-racy.c"
check_reason "races bluetooth-buggy" 1 "cell ext.StoppingFlag: data race: PnpStop writes" -- races "$ex/bluetooth/bluetooth.athread" "$ex/bluetooth/bluetooth-buggy.c"
# the fixed driver: the benign race on StoppingFlag stays (KISS reports it too); the proof layer proves Stopped,
# which layer 1 and the search leave open
check_reason "races bluetooth proved" 1 "cell ext.Stopped: race-free: proved by the abstract threads" -- races "$ex/bluetooth/bluetooth.athread" "$ex/bluetooth/bluetooth.c"
check "check dispatch for every N" 0 -- check "$ex/tutorial/dispatch.athread" "$ex/tutorial/dispatch.c" --for-all N
check "check bluetooth for every N" 0 -- check "$ex/bluetooth/bluetooth.athread" "$ex/bluetooth/bluetooth.c" --for-all N
check_reason "check bluetooth-buggy for every N" 1 "thread Worker does not conform" -- check "$ex/bluetooth/bluetooth.athread" "$ex/bluetooth/bluetooth-buggy.c" --for-all N
# The paper's setting (statement atomicity, havoc) still gives the old verdicts.
check "conform bluetooth havoc" 0 -- conform "$ex/bluetooth/bluetooth.athread" "$ex/bluetooth/bluetooth.c" --atomicity statement --env havoc
check "conform dispatch-racy havoc" 0 -- conform "$ex/tutorial/dispatch-racy.athread" "$ex/tutorial/dispatch-v1.c" --atomicity statement --env havoc
check_reason "conform bluetooth-buggy havoc" 1 "no candidate state in {Entered, Abort} goes wrong" -- conform "$ex/bluetooth/bluetooth.athread" "$ex/bluetooth/bluetooth-buggy.c" --atomicity statement --env havoc
for f in "$ex"/*/*.c; do
  if gcc -std=c11 -Wall -Wextra -c -o /dev/null -I"$root/include" "$f" 2> "$SCRATCH/gcc.err"; then pass; else fail "gcc rejects $f"; head -n 5 "$SCRATCH/gcc.err"; fi
done
# The README's trace is pinned by tests/readme/bluetooth-buggy.test; the example must still produce it.
want=$(awk '/^--- stdout$/{on=1; next} /^--- stderr$/{on=0} on' "$TESTS_DIR/readme/bluetooth-buggy.test")
got=$(cd "$ex/bluetooth" && "$ATHREAD" compose bluetooth-buggy.athread --no-timing)
if [ "$got" = "$want" ]; then pass; else fail "examples/bluetooth/bluetooth-buggy.athread no longer gives the trace in README.md"; fi
# Every command block of the README (the tutorial's included) prints exactly what it shows.
mkdir -p "$SCRATCH/readme" && ln -s "$root/examples" "$SCRATCH/readme/examples"
out=$(python3 "$TESTS_DIR/readme/blocks.py" "$root/README.md" "$ATHREAD" "$SCRATCH/readme")
p=$(sed -n 's/^readme: \([0-9]*\) passed.*/\1/p' <<< "$out")
passed=$((passed + ${p:-0}))
grep -q '^readme: [0-9]* passed, 0 failed$' <<< "$out" || fail "README.md's command blocks differ from what athread prints: $out"
# make demo: every run succeeds, each README's conform commands give their promised
# verdicts in the table, every system is drawn and has its review page.
demo=$SCRATCH/demo
if table=$(ATHREAD=$ATHREAD DEMO_OUT=$demo "$root/scripts/demo.sh" 2>&1); then pass; else fail "make demo failed"; echo "$table" | tail -n 5; fi
for readme in "$ex"/*/README.md; do
  while read -r spec cfile promised; do
    rows=$(grep -F " conform $spec $cfile " <<< "$table")
    verdicts=$(sed -n 's/.*  \(conforms\|does not conform\) (.*/\1/p' <<< "$rows" | sort -u | tr '\n' ',')
    case $promised,$verdicts in
      "conforms,conforms," | "does not conform,"*"does not conform,"*) pass ;;
      *) fail "demo: conform $spec $cfile gave '$verdicts', README promises $promised" ;;
    esac
  done < <(sed -n 's/^| `athread conform \([^ `]*\) \([^ `]*\)` | \*\*\([a-z ]*\)\*\*.*/\1 \2 \3/p' "$readme")
done
# ... and each README's athread check commands give their promised verdicts.
for readme in "$ex"/*/README.md; do
  while read -r spec cfile promised; do
    row=$(grep -F " check $spec $cfile " <<< "$table")
    case $promised,$row in
      "safe,"*"  safe  "* | "not proved,"*"  not proved ("*) pass ;;
      *) fail "demo: check $spec $cfile gave '$row', README promises $promised" ;;
    esac
  done < <(sed -n 's/^| `athread check \([^ `]*\) \([^ `]*\)` | \*\*\([a-z ]*\)\*\*.*/\1 \2 \3/p' "$readme")
done
for spec in "$ex"/*/*.athread; do
  name=$(basename "$spec" .athread) dir=$demo/$(basename "$(dirname "$spec")")
  [ -s "$dir/$name.svg" ] && [ -s "$dir/$name.png" ] && pass || fail "demo drew no diagram of $spec"
  grep -q " compose $name.athread  *-  *\(safe\|unsafe\)" <<< "$table" && pass || fail "demo: no compose verdict for $spec"
  # its review page, with compose's verdict, and (with Chromium) a 1200x900 screenshot of it
  verdict=$("$ATHREAD" compose "$spec" 2> /dev/null | sed -n 's/^verdict: \([a-z]*\).*/\1/p')
  grep -q " review $name.athread.*  page: $verdict  " <<< "$table" && [ -s "$dir/$name.review.html" ] && pass \
    || fail "demo: no review page of $spec with verdict $verdict"
  if [ -x /usr/bin/chromedriver ] && /usr/bin/python3 -c 'import selenium' 2> /dev/null; then
    python3 -c 'import struct, sys; d = open(sys.argv[1], "rb").read(24)
assert d[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", d[16:24]) == (1200, 900)' "$dir/$name.review.png" 2> /dev/null \
      && pass || fail "demo: no 1200x900 screenshot of the review page of $spec"
  fi
done
summary examples
[ $failed = 0 ]
