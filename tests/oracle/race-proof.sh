#!/usr/bin/env bash
# tests/oracle/race-proof.sh [COUNT] [FIRST_SEED] -- athread races with a spec
# (all three layers, above all the third: candidates proved race-free by the
# abstract threads once athread check says safe) against the data races of
# an explicit search of every concrete interleaving (race-proof.py, on
# gen-theorem.py's random programs with their specs, at C's atomicity: every
# read and write of a shared variable outside atomic sections a step; no
# code shared with athread). For each of COUNT cases from FIRST_SEED:
# athread races SPEC FILE.c --json and athread check SPEC FILE.c (the
# options the proof layer uses: --atomicity access --env system), then the
# judge. A failure: a cell athread calls race-free (any layer) or a lock
# that the search finds racy, a "race" cell the search finds race-free, a
# racy variable athread's "no data race" leaves out, and any exit of athread
# races but 0, 1, 3 (the generator must stay within the language it
# accepts). Each prints the seed, the spec, the program, the concrete
# witness state and its trace. Ends with the figures (cases, athread check
# safe, candidate cells given to the proof layer, cells it proved, cells
# racy by the reference, wrong race-free, wrong race), the time, and
# "race-proof: N passed, N failed".
# Environment: JOBS (parallel cases, default 2), PYTHON (default python3),
# SHAPES (the share of gen-theorem.py's lock / compare-and-swap shapes,
# default 0.5), ACCESS_DESIGN (the share of race-proof.py's AccessGen cases,
# whose specs are drawn from the design at C's atomicity, so that athread
# check says safe and the proof layer runs more often; default 0.5),
# RACE_LIMIT (states of the reference's search, default 100000: a case past
# it is skipped), INT (math, the default, or c), STAR (1: keep `if (*)` as
# gen-theorem.py writes it; by default it is written
# __VERIFIER_nondet_bool(), which athread races reads), RACES_TIMEOUT (s a
# run of athread races may take, default 150: its proof has 60 s; times
# ORACLE_SLOWDOWN), CHECK_TIMEOUT (athread check's --timeout, default 30).
set -u

if [ "${1:-}" = --one ]; then
  # one case, run in parallel by the driver: DIR/NAME.{races.json,races.err,races.rc,check.out,check.rc}
  dir=$2 name=$3
  timeout -k 10 "$RACES_TIMEOUT" "$ATHREAD" races "$dir/$name.athread" "$dir/$name.c" --json \
    > "$dir/$name.races.json" 2> "$dir/$name.races.err"
  echo $? > "$dir/$name.races.rc"
  timeout -k 10 $((CHECK_TIMEOUT + 30)) "$ATHREAD" check "$dir/$name.athread" "$dir/$name.c" --atomicity access \
    --env system --timeout "$CHECK_TIMEOUT" > "$dir/$name.check.out" 2>&1
  echo $? > "$dir/$name.check.rc"
  exit 0
fi

source "$(dirname "$0")/../setup"
count=${1:-100}
first=${2:-1}
export JOBS=${JOBS:-2} ATHREAD SHAPES=${SHAPES:-0.5} ACCESS_DESIGN=${ACCESS_DESIGN:-0.5} INT=${INT:-math} STAR=${STAR:-0}
export RACES_TIMEOUT=$((${RACES_TIMEOUT:-150} * ${ORACLE_SLOWDOWN:-1})) CHECK_TIMEOUT=$((${CHECK_TIMEOUT:-30} * ${ORACLE_SLOWDOWN:-1}))
PYTHON=${PYTHON:-python3}
start=$(date +%s)

if ! command -v "$PYTHON" > /dev/null; then
  fail "$PYTHON is not installed"
  summary race-proof
  exit 1
fi

dir=$SCRATCH/cases
mkdir -p "$dir"
if ! "$PYTHON" "$TESTS_DIR/oracle/race-proof.py" --batch "$dir" "$first" "$count"; then
  fail "race-proof.py --batch failed"
  summary race-proof
  exit 1
fi
seq "$first" $((first + count - 1)) | sed 's/^/case/' | xargs -P "$JOBS" -n 1 "$0" --one "$dir"

if ! "$PYTHON" "$TESTS_DIR/oracle/race-proof.py" --judge "$dir" "$first" "$count" > "$dir/judged" 2> "$dir/judge.err"; then
  fail "race-proof.py --judge failed: $(tail -n 5 "$dir/judge.err" | tr '\n' ' ')"
fi
while read -r name status rest; do
  case $status in
    ok: | skip:) pass ;;
    *)
      fail "$name ${status%:}: $rest"
      awk -v c="$name" '$1 == c { on = 1; next } /^case[0-9]+ / { on = 0 } on' "$dir/judged"
      echo "---- athread races (text):"
      timeout -k 10 "$RACES_TIMEOUT" "$ATHREAD" races "$dir/$name.athread" "$dir/$name.c" 2>&1 | head -n 60
      echo "---- athread check:"; head -n 30 "$dir/$name.check.out" ;;
  esac
done < <(grep '^case[0-9]* ' "$dir/judged")
# the notes (a race-free cell racy only in the liberal reading), with their witnesses
awk '/^case[0-9]+ / { c = $1; on = 0 } /^note: / { on = 1; print c ":" } on' "$dir/judged"
grep '^figures: ' "$dir/judged"
echo "$(tail -n 1 "$dir/judged"); $(($(date +%s) - start)) s"
summary race-proof
[ $failed = 0 ]
