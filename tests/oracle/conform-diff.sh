#!/usr/bin/env bash
# tests/oracle/conform-diff.sh [COUNT] [FIRST_SEED] -- the conformance checker's
# correctness oracle: random (spec, C code) pairs from gen-conform.py, whose
# own brute-force search (an interpreter of the code's atomic steps against the
# abstract thread, sharing nothing with athread's instrumenter) gives the
# expected verdict; athread conform --json must give the same one (exit 0 and
# "conforms", or exit 1 and "does not conform"). Every counterexample athread
# reports is then replayed in the oracle's own interpreter (gen-conform.py
# --replay-batch: the environment values, the statement at each reported line,
# the after values, locals and candidates, and the failure itself); each
# replayed counterexample is one more pass, each other one a failure with the
# reason. Cases the generator's search
# cannot finish are skipped. Unknown (exit 3) is a failure, unless fewer than
# UNKNOWN_PERCENT (default 2) % of the cases are unknown: then they are only
# reported. With --int c a division or remainder by a variable inside a loop
# is nonlinear arithmetic, which Spacer does not decide: such a case ends
# unknown after the bounded search, honestly, so run-all.sh allows 6% there. A mismatch prints
# the seed, both verdicts and the case's files. Ends with
# "conform-oracle: N passed, N failed".
# Environment: JOBS (parallel cases, default 2), PYTHON (default python3),
# The oracle's environment is the paper's (any values between two steps),
# so athread runs with --env havoc; the system's environment is tested end
# to end by theorem.sh. CONFORM_TIMEOUT (athread's --timeout per case,
# default 60 s), ATOMICITY
# (statement, the oracle's default, or access: passed to both athread conform and the
# oracle as --atomicity), INT (math, the default, or c: passed to both as
# --int; with c every variable has a C type and the oracle's own interpreter
# follows C's integers: wrap-around, conversions, & | ^ ~ << >>, and signed
# overflow, division by zero and bad shifts as violations).
set -u

if [ "${1:-}" = --one ]; then
  # one case, run in parallel by the driver: DIR/caseN.{json,err,rc}
  dir=$2 n=$3
  timeout $((CONFORM_TIMEOUT + 30)) "$ATHREAD" conform "$dir/case$n.athread" "$dir/case$n.c" --json \
    --timeout "$CONFORM_TIMEOUT" --atomicity "$ATOMICITY" --int "$INT" --env havoc > "$dir/case$n.json" 2> "$dir/case$n.err"
  echo $? > "$dir/case$n.rc"
  exit 0
fi

source "$(dirname "$0")/../setup"
count=${1:-300}
first=${2:-1}
export JOBS=${JOBS:-2} CONFORM_TIMEOUT=${CONFORM_TIMEOUT:-60} ATOMICITY=${ATOMICITY:-statement} INT=${INT:-math} ATHREAD
UNKNOWN_PERCENT=${UNKNOWN_PERCENT:-2}
PYTHON=${PYTHON:-python3}
start=$(date +%s)

if ! command -v "$PYTHON" > /dev/null; then
  fail "$PYTHON is not installed"
  summary conform-oracle
  exit 1
fi

dir=$SCRATCH/cases
mkdir -p "$dir"
if ! "$PYTHON" "$TESTS_DIR/oracle/gen-conform.py" --batch "$dir" "$first" "$count" --atomicity "$ATOMICITY" --int "$INT"; then
  fail "gen-conform.py --batch failed"
  summary conform-oracle
  exit 1
fi

awk '$2 != "skip" { sub(/^case/, "", $1); print $1 }' "$dir/expected" | xargs -P "$JOBS" -n 1 "$0" --one "$dir"

# athread_verdict N: conforms / violates / unknown, or ERROR: why.
athread_verdict() {
  local n=$1 rc json
  rc=$(cat "$dir/case$n.rc" 2> /dev/null)
  json=$(grep -o '"verdict": *"[^"]*"' "$dir/case$n.json" | head -n 1 | sed 's/.*: *"\(.*\)"/\1/')
  case "$rc/$json" in
    "0/conforms") echo conforms ;;
    "1/does not conform") echo violates ;;
    3/*) echo unknown ;;
    *) echo "ERROR: exit ${rc:-none}, verdict '${json}': $(head -n 2 "$dir/case$n.err" | tr '\n' ' ')" ;;
  esac
}

show_case() {
  echo "---- case $1: tests/oracle/gen-conform.py $1 --atomicity $ATOMICITY --int $INT (prints the oracle's path)"
  cat "$dir/case$1.athread"; echo
  cat "$dir/case$1.c"
  echo "---- athread conform --json:"
  head -c 3000 "$dir/case$1.json"
  echo "----"
}

conforms=0 violates=0 skipped=0 unknown=0 unknown_cases=""
while read -r name expected; do
  n=${name#case}
  if [ "$expected" = skip ]; then
    skipped=$((skipped + 1))
    continue
  fi
  got=$(athread_verdict "$n")
  if [ "$got" = "$expected" ]; then
    pass
    [ "$got" = conforms ] && conforms=$((conforms + 1)) || violates=$((violates + 1))
  elif [ "$got" = unknown ]; then
    unknown=$((unknown + 1))
    unknown_cases+=" $n"
  else
    fail "case $n: the oracle says $expected, athread conform says $got"
    show_case "$n"
  fi
done < "$dir/expected"

if [ $unknown -gt 0 ]; then
  if [ $((unknown * 100)) -lt $((count * UNKNOWN_PERCENT)) ]; then
    echo "note: athread conform said unknown for $unknown case(s) (under $UNKNOWN_PERCENT%, not counted as failures):$unknown_cases"
  else
    for n in $unknown_cases; do
      fail "case $n: the oracle says $(awk -v c="case$n" '$1 == c { print $2 }' "$dir/expected"), athread conform says unknown"
      show_case "$n"
    done
  fi
fi
# replay every counterexample (one Python process for all of them). Not
# under --atomicity access: athread joins a statement over locals to the
# step before it (atomicity.c), which the oracle's replayer, statement by
# statement, does not model; there the verdicts are still compared, and
# athread replays each of its counterexamples itself (conformance/replay.c).
replayed=0 not_replayed=0
if [ "$ATOMICITY" = access ]; then
  : > "$dir/replay"
  echo "note: under --atomicity access the oracle does not replay athread's counterexamples (joined local statements)"
elif ! "$PYTHON" "$TESTS_DIR/oracle/gen-conform.py" --replay-batch "$dir" --atomicity "$ATOMICITY" --int "$INT" > "$dir/replay" 2> "$dir/replay.err"; then
  fail "gen-conform.py --replay-batch failed: $(head -n 5 "$dir/replay.err" | tr '\n' ' ')"
fi
while read -r name status why; do
  n=${name#case}
  if [ "$status" = "replayed:" ]; then
    pass
    replayed=$((replayed + 1))
  else
    not_replayed=$((not_replayed + 1))
    fail "case $n: athread's counterexample does not replay in the oracle: $why"
    show_case "$n"
  fi
done < "$dir/replay"

echo "conform oracle ($ATOMICITY, --int $INT): $count cases from seed $first: $conforms conform, $violates violate, $skipped skipped, $unknown unknown; $replayed counterexamples replayed, $not_replayed not; $(($(date +%s) - start)) s"
summary conform-oracle
[ $failed = 0 ]
