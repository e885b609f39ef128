#!/usr/bin/env bash
# tests/diagnostics/validate.sh -- every --diagnostics-format sarif log that
# athread writes here validates against the SARIF 2.1.0 schema
# (tests/sarif/sarif-schema-2.1.0.json), every --diagnostics-format json log
# and every --json failure object against docs/diagnostics.schema.json, with
# Debian's python3-jsonschema (/usr/bin/python3: the python3 on PATH may not
# see Debian's packages). The documents: the golden cases of
# tests/diagnostics, the cases of tests/bad and tests/good (lint, fmt) and of
# tests/conform-bad (conform, with --json), and a few paths and inputs of
# their own. Each validator is shown a broken document first and must reject
# it, so that a validator that accepts everything fails here.
set -u
source "$(dirname "$0")/../setup"
PYTHON=${PYTHON:-/usr/bin/python3}
VALIDATE="$TESTS_DIR/diagnostics/validate.py"
SARIF_SCHEMA="$TESTS_DIR/sarif/sarif-schema-2.1.0.json"
JSON_SCHEMA="$TESTS_DIR/../docs/diagnostics.schema.json"
mkdir -p "$SCRATCH/sarif" "$SCRATCH/json" "$SCRATCH/cases"

section() { awk -v want="--- $2" '/^--- /{on = ($0 == want); next} on' "$1"; }

# run NAME ARGS...: athread ARGS in $SCRATCH/cases, its stderr as the sarif log
# NAME (or, with --diagnostics-format json, the json log NAME) and a JSON
# stdout as a json document too.
run() {
  local name=$1 kind=sarif
  shift
  [[ " $* " == *" json "* ]] && kind=json
  (cd "$SCRATCH/cases" && $VALGRIND "$ATHREAD" "$@" > "$name.stdout" 2> "$SCRATCH/$kind/$name.json" < /dev/null)
  if [ "$(head -c 1 "$SCRATCH/cases/$name.stdout")" = "{" ]; then mv "$SCRATCH/cases/$name.stdout" "$SCRATCH/json/$name.stdout.json"; fi
}

# ---------------------------------------------------------------- the validators reject broken documents
# must_reject SCHEMA FILE WHAT: the validator must fail on FILE.
must_reject() {
  local out
  out=$("$PYTHON" "$VALIDATE" "$1" "$2" 2>&1)
  if [ $? = 1 ] && [ -n "$out" ]; then pass; else fail "the validator accepts $3: $out"; fi
}
cd "$SCRATCH/cases" || exit 1
printf 'shared int g;\nthread A { init state S assert h > 0; }\n' > broken.athread
"$ATHREAD" lint broken.athread --diagnostics-format sarif 2> good.sarif
sed 's/"startLine": 2/"startLine": 0/' good.sarif > zero-line.sarif
must_reject "$SARIF_SCHEMA" zero-line.sarif "a SARIF region at line 0"
sed 's/"level": "error"/"level": "fatal"/' good.sarif > bad-level.sarif
must_reject "$SARIF_SCHEMA" bad-level.sarif "a SARIF result of level fatal"
"$ATHREAD" lint broken.athread --diagnostics-format json 2> good.json
sed '/"notes"/d; s/"column": 32,/"column": 32/' good.json > no-notes.json
must_reject "$JSON_SCHEMA" no-notes.json "a diagnostic without its notes"
sed 's/"line": 2,/"line": "2",/' good.json > string-line.json
must_reject "$JSON_SCHEMA" string-line.json "a line that is a string"
sed '/"line"/d' good.json > half-place.json
must_reject "$JSON_SCHEMA" half-place.json "a column without a line"
cd - > /dev/null || exit 1

# ---------------------------------------------------------------- the documents
for case_file in "$TESTS_DIR"/diagnostics/*.test; do
  name=$(basename "$case_file" .test)
  args=$(sed -n 's/^args: //p' "$case_file")
  for part in stdout stderr; do
    section "$case_file" $part > "$SCRATCH/cases/$name.$part"
    [ "$(head -c 1 "$SCRATCH/cases/$name.$part")" = "{" ] || continue
    kind=json
    [ $part = stderr ] && [[ $args == *sarif* ]] && kind=sarif
    cp "$SCRATCH/cases/$name.$part" "$SCRATCH/$kind/golden-$name.$part.json"
  done
done
# case_args CASE NAME: the case's arguments, SPEC and CFILE replaced (golden.sh's way).
case_args() {
  local args
  args=$(sed -n 's/^args: //p' "$1")
  args=${args//SPEC/$2.athread}
  echo "${args//CFILE/$2.c}"
}
for case_file in "$TESTS_DIR"/bad/*.test "$TESTS_DIR"/good/*.test "$TESTS_DIR"/conform-bad/*.test; do
  name=$(basename "$case_file" .test)
  section "$case_file" spec > "$SCRATCH/cases/$name.athread"
  section "$case_file" c > "$SCRATCH/cases/$name.c"
  read -r -a argv <<< "$(case_args "$case_file" "$name")"
  [ "${argv[0]}" = conform ] && argv+=(--json)
  run "$name" "${argv[@]}" --diagnostics-format sarif
  [ "${argv[0]}" = conform ] || run "$name" "${argv[@]}" --diagnostics-format json
done
cd "$SCRATCH/cases" || exit 1
# A path with a space and non-ASCII bytes, an absolute path, standard input,
# and more errors than the limit prints.
printf 'shared int g\n' > $'with space-\xc3\xa9.athread'
run odd-path lint 'with space-é.athread' --diagnostics-format sarif
run absolute-path lint "$SCRATCH/cases/with space-é.athread" --diagnostics-format sarif
(cd "$SCRATCH/cases" && "$ATHREAD" lint - --diagnostics-format sarif < 'with space-é.athread' 2> "$SCRATCH/sarif/stdin.json")
awk 'BEGIN { print "shared int g;"; print "thread A { init state S;"; for (i = 0; i < 30; i++) print "  S -> S when h" i ";"; print "}" }' > many.athread
run too-many-errors lint many.athread --diagnostics-format sarif
run too-many-errors lint many.athread --diagnostics-format json
run usage-error viz --diagnostics-format sarif
cd - > /dev/null || exit 1
if grep -q '"uri": "with%20space-%C3%A9.athread"' "$SCRATCH/sarif/odd-path.json" &&
  grep -q '"uri": "file:///' "$SCRATCH/sarif/absolute-path.json" && grep -q '"uri": "%3Cstdin%3E"' "$SCRATCH/sarif/stdin.json"; then
  pass
else
  fail "SARIF artifact URIs are not percent-encoded URI references"
fi
if grep -q '"message": "too many errors (limit 20); stopping"' "$SCRATCH/json/too-many-errors.json"; then pass; else fail "json: no note of the error limit"; fi

# ---------------------------------------------------------------- validate
# validate SCHEMA DIR: one pass per document, one failure per invalid one.
validate() {
  local files=("$2"/*.json) out
  out=$("$PYTHON" "$VALIDATE" "$1" "${files[@]}" 2>&1)
  local rc=$? bad
  if [ $rc = 2 ]; then fail "$out"; return; fi
  bad=$(grep -c '' <<< "$out")
  [ -z "$out" ] && bad=0
  while read -r line; do [ -n "$line" ] && fail "$line"; done <<< "$out"
  passed=$((passed + ${#files[@]} - bad))
}
validate "$SARIF_SCHEMA" "$SCRATCH/sarif"
validate "$JSON_SCHEMA" "$SCRATCH/json"
summary diagnostics
[ $failed = 0 ]
