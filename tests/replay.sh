#!/usr/bin/env bash
# tests/replay.sh -- athread replay: the counterexamples compose writes for
# the examples (explicit, symbolic, --json, --for-all) replay and print as
# compose printed them; traces edited to be wrong in each way are refused
# with the step and the reason; stdin; the trace's consts and --set.
set -u
source "$(dirname "$0")/setup"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
cd "$SCRATCH"

# expect NAME EXIT STDERR -- COMMAND...: the exit code and standard error
# exactly (standard output must be empty unless the exit code is 1: a
# refused trace prints nothing else). Standard input is STDIN, else /dev/null.
expect() {
  local name=$1 want_exit=$2 want_err=$3
  shift 4
  $VALGRIND "$ATHREAD" "$@" > out.stdout 2> out.stderr < "${STDIN:-/dev/null}"
  local got=$?
  if [ "$got" = "$want_exit" ] && [ "$(cat out.stderr)" = "$want_err" ] && { [ "$got" = 1 ] || [ ! -s out.stdout ]; }; then
    pass
  else
    fail "$name: exit $got (expected $want_exit)"
    diff <(printf '%s\n' "$want_err") out.stderr | head -n 10
    head -n 3 out.stdout
  fi
}

# compose's text without what only a search knows (the engine's line and its
# statistics), and a replay's without its first line and its "trace by" line:
# the rest must be the same.
search_part() { grep -v -e '^engine ' -e ' states\?, [0-9]* transition' -e '^shortest counterexample by bounded' "$1"; }
replay_part() { sed 1d "$1" | grep -v '^trace by engine '; }

# replays NAME SPEC [COMPOSE OPTIONS...]: compose --trace-out, then replay; the same counterexample.
replays() {
  local name=$1 spec=$2
  shift 2
  "$ATHREAD" compose "$spec" --no-timing --trace-out "$name.json" "$@" > "$name.compose" 2> /dev/null
  if [ $? != 1 ]; then fail "$name: compose did not find a counterexample"; return; fi
  $VALGRIND "$ATHREAD" replay "$spec" "$name.json" > "$name.replay" 2> "$name.err"
  local got=$?
  if [ $got = 1 ] && [ ! -s "$name.err" ] && [ "$(head -n 1 "$name.replay")" = "replay of $name.json, checked step by step against $spec" ] &&
    diff <(search_part "$name.compose") <(replay_part "$name.replay") > "$name.diff" && grep -q '^trace by engine ' "$name.replay"; then
    pass
  else
    fail "$name: replay exit $got, or its text differs from compose's"
    head -n 10 "$name.diff" "$name.err"
  fi
}

# ---------------------------------------------------------------- the examples' counterexamples replay
for spec in "$ROOT"/examples/*/*-broken.athread "$ROOT"/examples/*/*-buggy.athread "$ROOT"/examples/*/*-racy.athread; do
  replays "$(basename "$spec" .athread)" "$spec"
done
# the symbolic engine's: an unbounded int (figure2-noinit), and a run of two steps
replays figure2-noinit "$ROOT/examples/figure2/figure2-noinit.athread"
printf 'shared bool lock = false;\nthread P { init state Idle; state Crit; Idle -> Crit when !lock; Crit -> Idle : true; }\nsystem S { P[2]; invariant count(P@Crit) <= 1; }\n' > race.athread
replays race-symbolic race.athread --engine symbolic
replays race race.athread
if grep -q '^trace by engine symbolic (chosen with --engine); replayed on the model: the initial state, 2 steps and the violation$' race-symbolic.replay; then pass; else fail "the replay of a symbolic trace does not name its engine"; fi

# compose --json (an unsafe report) is a trace too
"$ATHREAD" compose race.athread --json > race-report.json 2> /dev/null
expect json-report 1 "" -- replay race.athread race-report.json
if cmp -s <(sed 1d out.stdout) <(sed 1d race.replay); then pass; else fail "the replay of compose --json differs from that of --trace-out"; fi

# standard input
STDIN=race.json expect stdin 1 "" -- replay race.athread -
if [ "$(head -n 1 out.stdout)" = "replay of <stdin>, checked step by step against race.athread" ]; then pass; else fail "stdin: $(head -n 1 out.stdout)"; fi

# --for-all: the trace is at the N found (2), not at N's value in the spec (5)
printf 'const N = 5;\nshared bool lock = false;\nthread P { init state Idle; state Crit; Idle -> Crit when true; Crit -> Idle do lock := false; }\nsystem S { P[N]; invariant count(P@Crit) <= 1; }\n' > race-n.athread
"$ATHREAD" compose race-n.athread --for-all N --no-timing --trace-out race-n.json > race-n.compose 2> /dev/null
expect for-all 1 "" -- replay race-n.athread race-n.json
if grep -q '^trace by engine for-all (--for-all N: counter abstraction of P\[N\]); replayed on the model: the initial state, 2 steps' out.stdout &&
  cmp -s <(sed -n '/^counterexample/,/^  instances at the end/p' race-n.compose) <(sed -n '/^counterexample/,/^  instances at the end/p' out.stdout); then
  pass
else
  fail "for-all: the replay does not show compose's counterexample"
fi

# viz --trace takes the same consts (the shared helper): the --for-all trace draws at N = 2
expect viz-for-all-trace 0 "" -- viz race-n.athread --trace race-n.json -o race-n.dot
# the trace's consts: no --set needed; --set wins over them
printf 'const N = 2;\nshared bool lock = false;\nthread P { init state Idle; state Crit; Idle -> Crit when !lock; Crit -> Idle : true; }\nsystem S { P[N]; invariant count(P@Crit) <= 1; }\n' > race-c.athread
"$ATHREAD" compose race-c.athread --set N=3 --trace-out race-3.json > /dev/null 2>&1
expect trace-consts 1 "" -- replay race-c.athread race-3.json
if grep -q '^  instances at the end: P\[1\]@Crit  P\[2\]@Crit  P\[3\]@Idle$' out.stdout; then pass; else fail "the replay did not take N=3 from the trace"; fi
expect set-wins 2 "race-3.json: error: 'P[3]' is not an instance of the system (was the trace written for another spec, or with other --set values?)" -- replay race-c.athread race-3.json --set N=2
"$ATHREAD" compose race-c.athread --trace-out race-2.json > /dev/null 2>&1
expect set-wins-more 2 "race-2.json: error: the initial state has no value for instance 'P[3]' (was the trace written for another spec, or with other --set values?)" -- replay race-c.athread race-2.json --set N=3

# ---------------------------------------------------------------- traces that do not replay
# edit OUT PYTHON: race.json changed by a Python statement on t.
edit() { python3 -c "import json; t = json.load(open('race.json')); $2; json.dump(t, open('$1', 'w'), indent=2)"; }
edit init-value.json "t['trace']['initial']['shared']['lock'] = True"
expect wrong-initial-value 2 "init-value.json: error: the initial state is not one the spec allows: its initial values and init predicates do not hold for lock=true" -- replay race.athread init-value.json
edit init-state.json "t['trace']['initial']['instances']['P[1]'] = 'Crit'"
expect wrong-initial-state 2 "init-state.json: error: P[1] starts in Crit, which is not an init state of P" -- replay race.athread init-state.json
edit wrong-edge.json "t['trace']['steps'][0]['edge'] = 1"
expect edge-not-enabled 2 "wrong-edge.json: error: step 1: P[1] is in state Idle, so it cannot take edge 1 (Crit -> Idle)" -- replay race.athread wrong-edge.json
edit no-edge.json "t['trace']['steps'][0]['edge'] = 7"
expect no-such-edge 2 "no-edge.json: error: step 1: thread P has no edge 7 (it has 2, numbered from 0)" -- replay race.athread no-edge.json
edit wrong-value.json "t['trace']['steps'][0]['state']['shared']['lock'] = True"
expect value-not-given 2 "wrong-value.json: error: step 1: edge 0 (Idle -> Crit) of P does not allow this step: its guard is false in the state before it, or it cannot give the values after it (lock=true)" -- replay race.athread wrong-value.json
edit wrong-target.json "t['trace']['steps'][0]['state']['instances']['P[1]'] = 'Idle'"
expect wrong-target 2 "wrong-target.json: error: step 1: P[1] takes edge 0 (Idle -> Crit) to Crit, but the state after the step has it in Idle" -- replay race.athread wrong-target.json
edit other-moves.json "t['trace']['steps'][0]['state']['instances']['P[2]'] = 'Crit'"
expect another-instance-moves 2 "other-moves.json: error: step 1: P[2] moves from Idle to Crit, but the step is P[1]'s" -- replay race.athread other-moves.json
edit short.json "t['trace']['steps'].pop()"
expect last-state-fine 2 "short.json: error: step 1: the last state does not go wrong: every assertion, invariant and property of the spec holds there (the trace claims: system invariant count(P@Crit) <= 1 is false)" -- replay race.athread short.json
edit claim.json "t['trace']['violation']['message'] = 'P[1] goes wrong in state Idle: its assertion false is false'"
expect other-violation 2 "claim.json: error: step 2: the last state goes wrong, but not as the trace claims: system invariant count(P@Crit) <= 1 is false (the trace claims: P[1] goes wrong in state Idle: its assertion false is false)" -- replay race.athread claim.json
edit who.json "t['trace']['steps'][1]['instance'] = 'Q'"
expect unknown-instance 2 "who.json: error: step 2: 'Q' is not an instance of the system (was the trace written for another spec, or with other --set values?)" -- replay race.athread who.json
edit range.json "t['trace']['steps'][1]['state']['shared']['lock'] = 3"
expect not-a-bool 2 "range.json: error: step 2: the value of 'lock' is not a bool" -- replay race.athread range.json
edit safe.json "t['verdict'] = 'safe'; del t['trace']"
expect safe-verdict 2 "safe.json: error: the verdict is safe: there is no counterexample to replay" -- replay race.athread safe.json
edit conform.json "t['command'] = 'conform'"
expect not-compose 2 "conform.json: error: not a counterexample written by 'athread compose --trace-out' or 'compose --json' (no \"command\": \"compose\")" -- replay race.athread conform.json
edit no-steps.json "del t['trace']['steps']"
expect no-steps 2 "no-steps.json: error: the trace has no array \"steps\"" -- replay race.athread no-steps.json
# a guard that is false: the trace of race.athread on a spec where entering takes the lock
sed 's/Idle -> Crit when !lock;/Idle -> Crit when !lock do lock := true;/' race.athread > locked.athread
edit locked.json "t['trace']['steps'][0]['state']['shared']['lock'] = True; t['trace']['steps'][1]['state']['shared']['lock'] = True"
expect guard-false 2 "locked.json: error: step 2: edge 0 (Idle -> Crit) of P does not allow this step: its guard is false in the state before it, or it cannot give the values after it (no shared variable changes)" -- replay locked.athread locked.json
expect another-spec-step 2 "race.json: error: step 1: edge 0 (Idle -> Crit) of P does not allow this step: its guard is false in the state before it, or it cannot give the values after it (no shared variable changes)" -- replay locked.athread race.json
"$ATHREAD" compose "$ROOT/examples/bakery/bakery-broken.athread" --trace-out bakery.json > /dev/null 2>&1
expect another-system 2 "bakery.json: error: the trace is of system Bakery, but the spec's is S (was the trace written for another spec?)" -- replay race.athread bakery.json
sed 's/system S/system Bakery/' race.athread > named.athread
expect another-variable 2 "bakery.json: error: 'choosing[0]' is not a shared variable of the spec (was the trace written for another spec, or with other --set values?)" -- replay named.athread bakery.json

# ---------------------------------------------------------------- files that are not traces, usage
head -c 100 race.json > cut.json
expect truncated-json 2 "cut.json: error: not valid JSON (line 5, column 21): premature end of input near '\"race.athre'" -- replay race.athread cut.json
echo '[1]' > array.json
expect not-an-object 2 "array.json: error: not a trace: the JSON is not an object" -- replay race.athread array.json
: > empty.json
expect empty-file 2 "empty.json: error: the file is empty: there is no counterexample to replay" -- replay race.athread empty.json
expect missing-file 2 "missing.json: error: cannot open file: No such file or directory" -- replay race.athread missing.json
expect one-operand 2 "athread: error: expected a specification and a trace (try 'athread replay --help')" -- replay race.athread
expect bad-spec 2 "missing.athread: error: cannot open file: No such file or directory" -- replay missing.athread race.json
expect no-timing 1 "" -- replay race.athread race.json --no-timing

summary replay
[ $failed = 0 ]
