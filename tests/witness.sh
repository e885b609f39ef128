#!/usr/bin/env bash
# tests/witness.sh -- `conform --witness` and `check --witness`: the SV-COMP
# violation witnesses (format 2.0) of the README's failing examples validate
# against the format's schema (tests/witness/), point at the lines of the
# text counterexample and hash the C files; a conforming or unknown run
# writes no file; a file that cannot be written is an input error; and broken
# witnesses fail the validator (so every check here can fail).
set -u
source "$(dirname "$0")/setup"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
EX=$ROOT/examples
SCHEMA=$ROOT/tests/witness/violation-witness-2.0.schema.json
# Debian's python3-yaml and python3-jsonschema (scripts/deps.sh); the python3 on PATH may lack them.
PY=/usr/bin/python3
VALIDATE="$PY $ROOT/tests/witness/check-witness.py $SCHEMA"
cd "$SCRATCH"
mkdir -p examples
cp -r "$EX/figure2" "$EX/tutorial" examples/ # relative paths, as a user gives them

# step_lines OUT: the lines of the text counterexample's steps and checks ("  step 2  f.c:37:3: ...").
step_lines() { sed -n 's/^  \(step\|check\) [0-9]*  .*:\([0-9][0-9]*\):[0-9][0-9]*: .*/\2/p' "$1" | tr '\n' ' '; }

# witness NAME CMD SPEC C WANT_RC: the witness of a failing run, checked against its text counterexample.
witness() {
  local name=$1 cmd=$2 spec=$3 c=$4 want=$5
  $VALGRIND "$ATHREAD" "$cmd" "$spec" "$c" --no-timing > "$name.txt" 2> "$name.err"
  $VALGRIND "$ATHREAD" "$cmd" "$spec" "$c" --no-timing --witness "$name.yml" > "$name.out" 2> "$name.err"
  local rc=$?
  [ "$rc" = "$want" ] && pass || fail "$name: exit $rc, expected $want: $(head -n 3 "$name.err")"
  cmp -s "$name.txt" "$name.out" && pass || fail "$name: --witness changed the report"
  local lines
  lines=$(step_lines "$name.txt")
  [ -n "$lines" ] && pass || fail "$name: no steps in the text counterexample"
  # shellcheck disable=SC2086 # one argument per line
  if out=$($VALIDATE "$name.yml" $lines 2>&1); then pass; else fail "$name: $out"; fi
}

witness figure2-bad conform examples/figure2/figure2.athread examples/figure2/figure2-bad.c 1
witness dispatch-v1 conform examples/tutorial/dispatch.athread examples/tutorial/dispatch-v1.c 1
witness check-figure2-bad check examples/figure2/figure2.athread examples/figure2/figure2-bad.c 1

# What the figure2-bad witness says: its one entry, the branch the loop takes, the property named honestly.
grep -c '^- entry_type: "violation_sequence"$' figure2-bad.yml | grep -qx 1 && pass || fail "figure2-bad: not one entry"
grep -A8 'type: "branching"' figure2-bad.yml | grep -q 'value: "false"' && pass || fail "figure2-bad: no branching false"
grep -q 'specification: "athread conformance: the C function thread_a is simulated by thread A of' figure2-bad.yml &&
  pass || fail "figure2-bad: specification"
grep -q 'value: "g == 1"' figure2-bad.yml && pass || fail "figure2-bad: the environment's g"

# --witness - writes the witness to standard output before the report.
"$ATHREAD" conform examples/figure2/figure2.athread examples/figure2/figure2-bad.c --witness - > stdout.txt 2> /dev/null
head -n 1 stdout.txt | grep -qx -- '- entry_type: "violation_sequence"' && pass || fail "--witness -: $(head -n 1 stdout.txt)"
grep -q '^verdict: does not conform' stdout.txt && pass || fail "--witness -: no verdict after the witness"

# --witness - with --json would mix the two on standard output: a usage error.
"$ATHREAD" conform examples/figure2/figure2.athread examples/figure2/figure2-bad.c --witness - --json > mix.out 2> mix.err
rc=$?
# (stdout holds only --json's answer to bad input)
[ "$rc" = 2 ] && grep -q '"verdict": "error"' mix.out && ! grep -q 'entry_type' mix.out &&
  grep -q 'both write to standard output' mix.err && pass || fail "--witness - --json: exit $rc"

# A run that conforms, or whose verdict is unknown, writes nothing and says so.
"$ATHREAD" conform examples/figure2/figure2.athread examples/figure2/figure2.c --witness good.yml > good.out 2> good.err
rc=$?
[ "$rc" = 0 ] && [ ! -e good.yml ] && pass || fail "conforming run: exit $rc, file $(ls good.yml 2>&1)"
grep -q 'note: --witness: every thread conforms; nothing written to good.yml' good.err && pass || fail "conforming: $(cat good.err)"
"$ATHREAD" conform examples/figure2/figure2.athread examples/figure2/figure2.c --engine bmc --bound 1 --witness unk.yml \
  > unk.out 2> unk.err
rc=$?
[ "$rc" = 3 ] && [ ! -e unk.yml ] && pass || fail "unknown run: exit $rc, file $(ls unk.yml 2>&1)"
grep -q 'note: --witness: the verdict is unknown; nothing written' unk.err && pass || fail "unknown: $(cat unk.err)"

# check on an unsafe abstract system checks no thread: nothing written.
"$ATHREAD" check examples/tutorial/dispatch-racy.athread examples/tutorial/dispatch.c --witness racy.yml > racy.out 2> racy.err
rc=$?
[ "$rc" = 1 ] && [ ! -e racy.yml ] && grep -q 'the threads were not checked; nothing written' racy.err && pass ||
  fail "check, unsafe system: exit $rc, $(cat racy.err)"

# A witness that cannot be written is an input error: no verdict, exit 2.
"$ATHREAD" conform examples/figure2/figure2.athread examples/figure2/figure2-bad.c --witness nodir/w.yml > nodir.out 2> nodir.err
rc=$?
[ "$rc" = 2 ] && [ ! -s nodir.out ] && pass || fail "unwritable: exit $rc, stdout $(head -c 80 nodir.out)"

# A file name YAML must quote (a quote, a colon, a '#', a tab, UTF-8) stays one scalar.
odd=$'examples/tutorial/we"ird: #na\tme \xc3\xa9.c'
cp examples/tutorial/dispatch-v1.c "$odd"
witness odd-name conform examples/tutorial/dispatch.athread "$odd" 1
$PY -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); assert d[0]["metadata"]["task"]["input_files"] == [sys.argv[2]]' \
  odd-name.yml "$odd" && pass || fail "odd-name: the file name did not survive YAML"

# Broken witnesses fail the validator: each edit breaks one rule.
broken() {
  local what=$1 script=$2
  sed "$script" figure2-bad.yml > broken.yml
  if cmp -s figure2-bad.yml broken.yml; then fail "broken ($what): the edit changed nothing"; return; fi
  if $VALIDATE broken.yml 30 37 > /dev/null 2>&1; then fail "broken ($what): validates"; else pass; fi
}
broken "no target" '/type: "target"/s/target/assumption/'
broken "an action the format lacks" '0,/action: "follow"/s/follow/jump/'
broken "a wrong hash" 's/\("examples\/figure2\/figure2-bad.c": "\)[0-9a-f]/\10/'
broken "no data model" '/data_model:/d'
broken "an entry type" 's/violation_sequence/invariant_set/'
broken "a line off by one" 's/line: 37/line: 38/'
broken "not YAML" '0,/value: "g == 1"/s/"g == 1"/"g == 1/'
broken "format version" 's/format_version: "2.0"/format_version: "1.0"/'
broken "a line that is no line" 's/line: 30/line: 0/'
broken "a branching not at if/while" '0,/line: 31/s/line: 31/line: 30/'
if $VALIDATE figure2-bad.yml 30 38 > /dev/null 2>&1; then fail "steps at other lines validate"; else pass; fi

summary "witness"
[ "$failed" = 0 ]
