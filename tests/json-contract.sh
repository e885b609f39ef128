#!/usr/bin/env bash
# tests/json-contract.sh -- the JSON contract (docs/json.md): the reports of
# compose, conform and check on the examples validate against
# docs/report.schema.json (and broken reports do not), the compose and
# conform text ends in one "verdict:" line, and viz --trace takes the consts
# a trace was written with.
set -u
source "$(dirname "$0")/setup"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
EX=$ROOT/examples
SCHEMA=$ROOT/docs/report.schema.json
# Debian's python3-jsonschema (scripts/deps.sh); the python3 on PATH may lack it.
PY=/usr/bin/python3
cd "$SCRATCH"

# report NAME CMD ARGS...: runs athread CMD ARGS --json --no-timing into NAME.json.
report() {
  local name=$1
  shift
  $VALGRIND "$ATHREAD" "$@" --json --no-timing > "$name.json" 2> "$name.err"
  local rc=$?
  case $rc in 0 | 1 | 3) pass ;; *) fail "$name: exit $rc: $(head -n 3 "$name.err")" ;; esac
}

for spec in "$EX"/*/*.athread; do
  name=compose-$(basename "$spec" .athread)
  report "$name" compose "$spec" --timeout 60
done
report conform-figure2-bad conform "$EX/figure2/figure2.athread" "$EX/figure2/figure2-bad.c"
report conform-dispatch-v1 conform "$EX/tutorial/dispatch.athread" "$EX/tutorial/dispatch-v1.c"
report conform-battery conform "$EX/battery/battery.athread" "$EX/battery/battery.c"
report check-figure2 check "$EX/figure2/figure2.athread" "$EX/figure2/figure2.c"
report check-dispatch-racy check "$EX/tutorial/dispatch-racy.athread" "$EX/tutorial/dispatch.c"
report compose-forall compose "$EX/bluetooth/bluetooth.athread" --for-all N
# the explicit engine out of states on an unbounded int: the report's hint
printf 'shared int n = 0;\nthread Counter { init state Run; Run -> Run do n := n + 1; }\n' > counter.athread
report compose-hint compose counter.athread --max-states 10
report compose-certificate compose "$EX/peterson/peterson.athread" --engine symbolic --certificate
report compose-forall-certificate compose "$EX/mutex/mutex.athread" --for-all n --certificate
report conform-certificate conform "$EX/figure2/figure2.athread" "$EX/figure2/figure2.c" --engine chc --certificate
# races: no spec (spec null), a race-free program, a race, a candidate the search does not decide,
# and with a spec a candidate the proof layer decides (races prints no times: no --no-timing)
races_report() {
  $VALGRIND "$ATHREAD" races "${@:2}" --json > "$1.json" 2> "$1.err"
  local rc=$?
  case $rc in 0 | 1 | 3) pass ;; *) fail "$1: exit $rc: $(head -n 3 "$1.err")" ;; esac
}
races_report races-dispatch "$EX/tutorial/dispatch-threads.c"
printf '#include <pthread.h>\nint g;\nvoid *w(void *a) { g++; return 0; }\nint main(void) { pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0); return g; }\n' > racy.c
races_report races-racy racy.c
printf '#include <pthread.h>\nint flag, b, c, x;\nvoid *w(void *a) { b = 1; return 0; }\nvoid *r(void *a) { if (flag && b && c) x = 1; return 0; }\nint main(void) { pthread_t t, u; pthread_create(&t, 0, w, 0); pthread_create(&u, 0, r, 0); return 0; }\n' > unknown.c
races_report races-unknown unknown.c
races_report races-proved "$EX/bluetooth/bluetooth.athread" "$EX/bluetooth/bluetooth.c"

if out=$($PY "$ROOT/tests/json/validate.py" "$SCHEMA" ./*.json 2>&1); then pass; else fail "reports do not validate: $out"; fi

# The reports cover each verdict and a trace (so the schema's branches were exercised).
for want in '"verdict": "unsafe"' '"verdict": "safe"' '"verdict": "does not conform"' '"verdict": "conforms"' \
  '"property": "system.invariant.1"' '"location"' '"not proved"' '"verdict": "no data race"' '"pairs"' '"proved": 1' '"verdict": "race"' '"trace"' \
  '"hint": "try --engine symbolic (the data is unbounded: '"'n'"' is an int without bounds)"' '"certificate_spec"' '"invariant_c"'; do
  if grep -q -- "$want" ./*.json; then pass; else fail "no report has $want"; fi
done

# Broken reports must not validate: the validator and schema can fail.
# broken NAME PYTHON-EXPR: NAME.json with the edit applied to d must be rejected.
broken() {
  $PY -c "import json,sys; d=json.load(open('$1.json')); $2; json.dump(d, open('broken.json','w'))"
  if $PY "$ROOT/tests/json/validate.py" "$SCHEMA" broken.json > /dev/null 2>&1; then
    fail "schema accepts $1 with: $2"
  else pass; fi
}
broken compose-peterson-broken "del d['schema_version']"
broken races-racy "d['cells'][0]['verdict'] = 'maybe'"
broken races-racy "del d['cells'][0]['trace']"
broken races-racy "del d['cells'][0]['first']"
broken races-proved "del d['proof']"
broken compose-peterson-broken "del d['trace']['steps'][0]['location']"
broken compose-peterson-broken "d['trace']['violation']['property'] = 'Peterson.1'"
broken compose-peterson-broken "del d['consts']"
broken conform-figure2-bad "d['verdict'] = 'conform'"
broken conform-figure2-bad "del d['threads'][0]['counterexample']"
broken check-figure2 "d['system']['verdict'] = 'maybe'"
broken compose-certificate "d['certificate_spec'] = 'turn > 1'"
broken compose-certificate "del d['certificate']"
broken conform-certificate "del d['threads'][0]['invariant_c']"

# consts: the values the run used, --set included.
"$ATHREAD" compose "$EX/bakery/bakery-broken.athread" --set N=2 --json --no-timing > set.json 2> /dev/null
if $PY -c "import json; d=json.load(open('set.json')); assert d['consts'] == {'N': 2, 'MAX': 3}, d['consts']"; then pass
else fail "compose --set N=2: consts are not {N: 2, MAX: 3}"; fi

# viz --trace needs no repeated --set: the trace's consts are used, the command line's win.
"$ATHREAD" compose "$EX/bakery/bakery-broken.athread" --set N=2 --trace-out n2.json > /dev/null 2>&1
if $VALGRIND "$ATHREAD" viz "$EX/bakery/bakery-broken.athread" --trace n2.json > n2.dot 2> n2.err && grep -q 'P\[2\]' n2.dot \
  && ! grep -q 'P\[3\]' n2.dot; then pass
else fail "viz --trace of an N=2 trace without --set: $(head -n 3 n2.err)"; fi
if "$ATHREAD" viz "$EX/bakery/bakery-broken.athread" --trace n2.json --set N=3 > /dev/null 2>&1; then
  fail "viz --trace with --set N=3 on an N=2 trace was accepted"
else pass; fi
if "$ATHREAD" viz "$EX/bakery/bakery-broken.athread" --trace - < n2.json > stdin.dot 2> stdin.err && cmp -s n2.dot stdin.dot; then pass
else fail "viz --trace - (stdin) differs from the file: $(head -n 3 stdin.err)"; fi

# One "verdict:" line, the last, in compose's and conform's text.
# last_verdict WANT CMD ARGS...
last_verdict() {
  local want=$1
  shift
  "$ATHREAD" "$@" --no-timing > text.out 2> /dev/null
  local n last
  n=$(grep -c '^verdict: ' text.out)
  last=$(tail -n 1 text.out)
  if [ "$n" = 1 ] && [ "$last" = "$want" ]; then pass; else fail "$* : $n verdict lines, last line '$last', want '$want'"; fi
}
last_verdict "verdict: safe" compose "$EX/peterson/peterson.athread"
last_verdict "verdict: unsafe: system invariant !(T1[1]@Critical && T2[1]@Critical) is false" compose "$EX/peterson/peterson-broken.athread"
last_verdict "verdict: safe for every N >= 1" compose "$EX/bluetooth/bluetooth.athread" --for-all N
last_verdict "verdict: does not conform: thread A" conform "$EX/figure2/figure2.athread" "$EX/figure2/figure2-bad.c"
last_verdict "verdict: conforms: threads A, B" conform "$EX/figure2/figure2.athread" "$EX/figure2/figure2.c"
last_verdict "verdict: unknown: the state limit (--max-states) was reached" compose "$EX/bakery/bakery.athread" --max-states 10

echo "json contract: $passed passed, $failed failed"
