#!/usr/bin/env bash
# tests/sarif-flows.sh -- `--sarif FILE` of compose, conform and check: each
# log validates against the SARIF 2.1.0 schema (tests/sarif/) and tells what
# --json tells: one result per violation whose ruleId is the property's ID
# (compose) or the failure's kind (conform), located where the property is
# or the C statement fails, and whose codeFlows[0].threadFlows[0] has one
# location per step of the trace (conform: and per move of the other
# threads), each at the step's line and column in the spec or C file. A safe
# or conforming run writes a log without results, an unknown one a result of
# kind "open"; a file that cannot be written is an input error and leaves
# nothing behind; the report on stdout is the same with and without --sarif.
set -u
source "$(dirname "$0")/setup"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
PY=/usr/bin/python3 # Debian's python3-jsonschema (scripts/deps.sh); the python3 on PATH may lack it
VALIDATE="$PY $ROOT/tests/diagnostics/validate.py $ROOT/tests/sarif/sarif-schema-2.1.0.json"
CHECK="$PY $TESTS_DIR/sarif/check-flows.py"
cd "$SCRATCH"
mkdir -p examples
cp -r "$ROOT/examples/peterson" "$ROOT/examples/bakery" "$ROOT/examples/bluetooth" "$ROOT/examples/figure2" examples/ # relative paths, as a user gives them

# sarif NAME WANT_RC ARGS...: athread ARGS --sarif NAME.sarif, and ARGS --json
# into NAME.json; the exit code, the unchanged stdout, and the schema.
sarif() {
  local name=$1 want=$2 rc
  shift 2
  $VALGRIND "$ATHREAD" "$@" --no-timing > "$name.txt" 2> "$name.err"
  $VALGRIND "$ATHREAD" "$@" --no-timing --sarif "$name.sarif" > "$name.out" 2> "$name.err"
  rc=$?
  [ "$rc" = "$want" ] && pass || fail "$name: exit $rc, expected $want: $(head -n 3 "$name.err")"
  cmp -s "$name.txt" "$name.out" && pass || fail "$name: --sarif changed the report"
  "$ATHREAD" "$@" --no-timing --json > "$name.json" 2> /dev/null
  if out=$($VALIDATE "$name.sarif" 2>&1); then pass; else fail "$name: $out"; fi
}

# flows NAME KIND [WANT]: check-flows.py's comparison of the log with the --json report.
flows() {
  if out=$($CHECK "$@" 2>&1); then pass; else fail "$1: $out"; fi
}

# ---------------------------------------------------------------- races
# (races has no --no-timing: it prints no times)
races_sarif() {
  local name=$1 want=$2 rc
  shift 2
  $VALGRIND "$ATHREAD" races "$@" > "$name.txt" 2> "$name.err"
  $VALGRIND "$ATHREAD" races "$@" --sarif "$name.sarif" > "$name.out" 2> "$name.err"
  rc=$?
  [ "$rc" = "$want" ] && pass || fail "$name: exit $rc, expected $want: $(head -n 3 "$name.err")"
  cmp -s "$name.txt" "$name.out" && pass || fail "$name: --sarif changed the report"
  "$ATHREAD" races "$@" --json > "$name.json" 2> /dev/null
  if out=$($VALIDATE "$name.sarif" 2>&1); then pass; else fail "$name: $out"; fi
  flows "$name" races
}
cp "$ROOT/examples/tutorial/dispatch-threads.c" "$ROOT/examples/tutorial/dispatch-threads-racy.c" examples/
races_sarif races-racy 1 examples/dispatch-threads-racy.c
races_sarif races-free 0 examples/dispatch-threads.c
races_sarif races-spec 1 examples/bluetooth/bluetooth.athread examples/bluetooth/bluetooth.c
printf '#include <pthread.h>\nint flag, b, c, x;\nvoid *w(void *a) { b = 1; return 0; }\nvoid *r(void *a) { if (flag && b && c) x = 1; return 0; }\nint main(void) { pthread_t t, u; pthread_create(&t, 0, w, 0); pthread_create(&u, 0, r, 0); return 0; }\n' > races-open.c
races_sarif races-open 3 races-open.c
"$ATHREAD" races races-open.c --json --sarif - > /dev/null 2>&1
[ $? = 2 ] && pass || fail "races --json --sarif - is not a usage error"

# ---------------------------------------------------------------- violations
sarif peterson 1 compose examples/peterson/peterson-broken.athread
flows peterson compose
sarif bakery 1 compose examples/bakery/bakery-broken.athread
flows bakery compose
sarif bluetooth-forall 1 compose examples/bluetooth/bluetooth-buggy.athread --for-all N
flows bluetooth-forall compose
sarif bluetooth-conform 1 conform examples/bluetooth/bluetooth.athread examples/bluetooth/bluetooth-buggy.c
flows bluetooth-conform conform
sarif bluetooth-check 1 check examples/bluetooth/bluetooth.athread examples/bluetooth/bluetooth-buggy.c
flows bluetooth-check check
sarif bluetooth-check-system 1 check examples/bluetooth/bluetooth-buggy.athread examples/bluetooth/bluetooth-buggy.c
flows bluetooth-check-system check

# The peterson log names what the text names: the rule, the first step's message.
grep -q '"ruleId": "system.invariant.1"' peterson.sarif && pass || fail "peterson: no ruleId system.invariant.1"
grep -q '"text": "T1: Idle -> Flagged \\"flag1 := true\\""' peterson.sarif && pass || fail "peterson: no step 'T1: Idle -> Flagged'"
grep -q '"text": "Stopper takes Start -> Flagged' bluetooth-conform.sarif && pass || fail "bluetooth: no move of the stopper"

# ---------------------------------------------------------------- no violation
sarif peterson-safe 0 compose examples/peterson/peterson.athread
flows peterson-safe compose 0
sarif bluetooth-conforms 0 conform examples/bluetooth/bluetooth.athread examples/bluetooth/bluetooth.c
flows bluetooth-conforms conform 0
sarif bakery-unknown 3 compose examples/bakery/bakery.athread --max-states 10
flows bakery-unknown compose open
sarif figure2-unknown 3 conform examples/figure2/figure2.athread examples/figure2/figure2.c --engine bmc --bound 1
flows figure2-unknown conform open

# ---------------------------------------------------------------- columns in code points
# A comment with an e-acute before the first edge: the spec's column 3 bytes
# later, SARIF's (code points) 2 later than the line's indentation.
sed 's|^  Idle     -> Flagged  "flag1 := true"|/*\xc3\xa9*/Idle     -> Flagged  "flag1 := true"|' \
  examples/peterson/peterson-broken.athread > accent.athread
sarif accent 1 compose accent.athread
flows accent compose
grep -A3 '"startLine": 24' accent.sarif | grep -q '"startColumn": 6' && pass || fail "accent: the column is not counted in code points"

# ---------------------------------------------------------------- standard output and errors
"$ATHREAD" compose examples/peterson/peterson-broken.athread --sarif - > stdout.txt 2> /dev/null
$PY -c 'import json,sys; d,_ = json.JSONDecoder().raw_decode(open(sys.argv[1]).read()); assert d["runs"][0]["results"][0]["ruleId"] == "system.invariant.1"' stdout.txt &&
  grep -q '^verdict: unsafe' stdout.txt && pass || fail "--sarif -: not the log, then the report"
"$ATHREAD" compose examples/peterson/peterson-broken.athread --sarif - --json > mix.out 2> mix.err
rc=$?
[ "$rc" = 2 ] && grep -q 'both write to standard output' mix.err && pass || fail "compose --sarif - --json: exit $rc"
"$ATHREAD" conform examples/bluetooth/bluetooth.athread examples/bluetooth/bluetooth-buggy.c --sarif - --json > mix.out 2> mix.err
rc=$?
[ "$rc" = 2 ] && grep -q '"verdict": "error"' mix.out && grep -q -- '--sarif - and --json' mix.err && pass ||
  fail "conform --sarif - --json: exit $rc"
"$ATHREAD" conform examples/bluetooth/bluetooth.athread examples/bluetooth/bluetooth-buggy.c --sarif - --witness - > mix.out 2> mix.err
rc=$?
[ "$rc" = 2 ] && [ ! -s mix.out ] && grep -q 'both write to standard output' mix.err && pass || fail "conform --sarif - --witness -: exit $rc"

# bad_path NAME ARGS...: --sarif into a missing directory and onto a directory: exit 2, nothing left behind.
bad_path() {
  local name=$1 rc
  shift
  mkdir -p "$name.d"
  "$ATHREAD" "$@" --sarif missing/x.sarif > /dev/null 2> "$name.err"
  rc=$?
  [ "$rc" = 2 ] && [ ! -e missing ] && grep -q 'cannot create output file' "$name.err" && pass ||
    fail "$name: missing directory: exit $rc: $(cat "$name.err")"
  "$ATHREAD" "$@" --sarif "$name.d" > /dev/null 2> "$name.err"
  rc=$?
  [ "$rc" = 2 ] && [ -z "$(ls -A "$name.d")" ] && [ -z "$(ls -d "$name".d.* 2> /dev/null)" ] && pass ||
    fail "$name: onto a directory: exit $rc, left $(ls -A "$name.d") $(ls -d "$name".d.* 2> /dev/null)"
}
bad_path compose-bad compose examples/peterson/peterson-broken.athread
bad_path compose-safe-bad compose examples/peterson/peterson.athread
bad_path conform-bad conform examples/bluetooth/bluetooth.athread examples/bluetooth/bluetooth-buggy.c
bad_path check-bad check examples/bluetooth/bluetooth.athread examples/bluetooth/bluetooth-buggy.c

# The checker fails on a log whose flow lost a step (so every flows check above can fail).
$PY -c 'import json; d = json.load(open("peterson.sarif")); d["runs"][0]["results"][0]["codeFlows"][0]["threadFlows"][0]["locations"].pop(); json.dump(d, open("short.sarif", "w"))'
cp peterson.json short.json
$CHECK short compose > /dev/null 2>&1 && fail "check-flows.py accepts a flow without its last step" || pass

summary sarif-flows
[ $failed = 0 ]
