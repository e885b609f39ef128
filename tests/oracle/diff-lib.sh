# tests/oracle/diff-lib.sh -- the driver that the composer's oracles against
# a peer model checker (spin-diff.sh: SPIN, rumur-diff.sh: rumur) share:
# checking the tools, generating the random systems, running the cases in
# parallel (each script's one_case, through "$0 --one NAME") and counting
# their results. Sourced by both; the peer and the comparison stay in each.
# A case writes one line to $SCRATCH/results/NAME: "PASS NAME VERDICT",
# "SKIP NAME" or "FAIL NAME (VERDICTS): PROBLEMS".

# oracle_dispatch ARGS...: in a worker (--one NAME), runs that one case and
# exits.
oracle_dispatch() {
  if [ "${1:-}" = --one ]; then
    one_case "$2"
    exit 0
  fi
}

# oracle_expected SEED: the generator's own verdict on random system SEED.
oracle_expected() { awk -v s="$1" '$1 == s { print $2 }' "$SCRATCH/verdicts"; }

# oracle_record NAME VERDICT PROBLEMS VERDICTS: the case's result line, PASS
# when there are no problems.
oracle_record() {
  if [ -z "$3" ]; then
    echo "PASS $1 $2" > "$SCRATCH/results/$1"
  else
    echo "FAIL $1 ($4): $3" > "$SCRATCH/results/$1"
  fi
}

# oracle_abort MESSAGE: fails, prints the summary of $suite and exits 1.
oracle_abort() {
  fail "$1"
  summary "$suite"
  exit 1
}

# oracle_start SUITE PEER DEFAULT_COUNT [COUNT [FIRST_SEED]]: sources
# tests/setup, sets suite, count, first, start and PYTHON, checks that PEER,
# gcc and python are installed, and generates the random systems (their
# verdicts in $SCRATCH/verdicts); aborts when it cannot.
oracle_start() {
  source "$(dirname "${BASH_SOURCE[0]}")/../setup"
  suite=$1 count=${4:-$3} first=${5:-1}
  export JOBS=${JOBS:-2} SCRATCH ATHREAD
  PYTHON=${PYTHON:-python3}
  start=$(date +%s)
  local tool
  for tool in "$2" gcc "$PYTHON"; do
    command -v "$tool" > /dev/null || oracle_abort "$tool is not installed (make deps installs $2)"
  done
  mkdir -p "$SCRATCH/specs" "$SCRATCH/run" "$SCRATCH/results"
  "$PYTHON" "$TESTS_DIR/oracle/gen-system.py" --batch "$SCRATCH/specs" "$first" "$count" > "$SCRATCH/verdicts" ||
    oracle_abort "gen-system.py --batch failed"
}

# oracle_run NAME...: the cases, JOBS at a time.
oracle_run() { printf '%s\n' "$@" | xargs -P "$JOBS" -n 1 "$0" --one; }

# oracle_collect NAME LABEL HEADER SPEC: counts case NAME's result (pass, or
# fail under LABEL; a skip in $skipped, an unsafe pass in $unsafe); a failure
# also prints SPEC under "---- HEADER".
oracle_collect() {
  local result=$SCRATCH/results/$1 status verdict
  if [ ! -s "$result" ]; then
    fail "$2: no result"
    return
  fi
  read -r status _ verdict < "$result"
  case $status in
    PASS) pass; [ "$verdict" = unsafe ] && unsafe=$((unsafe + 1)) ;;
    SKIP) skipped=$((skipped + 1)) ;;
    *)
      fail "$2: $(cut -d' ' -f3- "$result")"
      echo "---- $3"
      cat "$4"
      echo "----" ;;
  esac
}
