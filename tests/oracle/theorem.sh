#!/usr/bin/env bash
# tests/oracle/theorem.sh [COUNT] [FIRST_SEED] -- the paper's theorem, end to
# end: for random concurrent programs with their specs (gen-theorem.py), when
# athread conform says every thread conforms and athread compose says the
# abstract system is safe, every interleaving of the concrete C threads must be
# safe too (an independent explicit search in gen-theorem.py, sharing no code
# with athread). First the kept regressions (tests/oracle/theorem-regress/:
# programs that are unsafe as C, for which athread must not say "conforms and
# safe"), then COUNT generated programs. Every case where athread says
# "conforms and safe" of an unsafe program is a failure that prints the seed,
# the program and the concrete trace (keep it: gen-theorem.py --keep SEED
# tests/oracle/theorem-regress). A disagreement between athread compose and the
# generator's search of the abstract system fails too. athread saying unknown
# is reported, and a failure only for 2% of the cases or more.
# Environment: JOBS (parallel cases, default 2), PYTHON (default python3),
# THEOREM_TIMEOUT (athread's --timeout per run, default 20 s), ATOMICITY
# (statement, the default, or access: athread conform gets --atomicity access
# and the concrete search makes every read and every write of a shared
# variable outside atomic sections a step of its own, in every order C
# allows), INT (math, the default, or c: --int c, and the concrete search
# uses C's types).
# Ends with "theorem: N passed, N failed".
set -u

if [ "${1:-}" = --one ]; then
  # one case, run in parallel by the driver: DIR/NAME.{conform,compose}.{out,rc}
  dir=$2 name=$3
  for cmd in conform compose; do
    if [ $cmd = conform ]; then
      set -- conform "$dir/$name.athread" "$dir/$name.c" --atomicity "$ATOMICITY" --int "$INT"
    else
      set -- compose "$dir/$name.athread"
    fi
    timeout $((THEOREM_TIMEOUT + 30)) "$ATHREAD" "$@" --timeout "$THEOREM_TIMEOUT" > "$dir/$name.$cmd.out" 2>&1
    echo $? > "$dir/$name.$cmd.rc"
  done
  exit 0
fi

source "$(dirname "$0")/../setup"
count=${1:-300}
first=${2:-1}
export JOBS=${JOBS:-2} THEOREM_TIMEOUT=${THEOREM_TIMEOUT:-20} ATHREAD ATOMICITY=${ATOMICITY:-statement} INT=${INT:-math}
PYTHON=${PYTHON:-python3}
start=$(date +%s)
regress=$TESTS_DIR/oracle/theorem-regress

if ! command -v "$PYTHON" > /dev/null; then
  fail "$PYTHON is not installed"
  summary theorem
  exit 1
fi

# Does the regression's .expect apply here? Each line "applies: VAR=VALUE"
# (ATOMICITY=access, INT=c) must match the environment; without such lines it
# applies in every mode (an unsafe program at statement atomicity stays
# unsafe with every access a step, and with C's integers).
applies() {
  local cond var
  for cond in $(sed -n 's/^applies: //p' "$1"); do
    var=${cond%%=*}
    [ "${!var}" = "${cond#*=}" ] || return 1
  done
}

# the kept regressions: each is unsafe as C where it applies (its .expect
# says how); athread must not answer "every thread conforms" and "safe"
# together. Where it does not apply and its .expect has "elsewhere: conforms
# and safe" (a program unsafe only at access atomicity), athread must answer
# just that, so that the regression stays a near miss.
mkdir -p "$SCRATCH/regress"
for spec in "$regress"/*.athread; do
  name=$(basename "$spec" .athread)
  expect=$regress/$name.expect
  cp "$spec" "$regress/$name.c" "$SCRATCH/regress/"
  "$0" --one "$SCRATCH/regress" "$name"
  conform=$(cat "$SCRATCH/regress/$name.conform.rc") compose=$(cat "$SCRATCH/regress/$name.compose.rc")
  if ! applies "$expect"; then
    if ! grep -q '^elsewhere: conforms and safe' "$expect" || [ "$conform/$compose" = 0/0 ]; then
      pass
    else
      fail "regression $name (not unsafe here): athread exit codes conform $conform, compose $compose, expected 0 and 0"
      head -n 10 "$SCRATCH/regress/$name.conform.out" "$SCRATCH/regress/$name.compose.out"
    fi
  elif [ "$conform/$compose" = 0/0 ]; then
    fail "regression $name: athread says every thread conforms and the system is safe, but the program is not: $(head -n 1 "$regress/$name.expect")"
  elif [ "$conform" = 2 ] || [ "$compose" = 2 ] || [ "$conform" -gt 3 ] || [ "$compose" -gt 3 ]; then
    fail "regression $name: athread exit codes conform $conform, compose $compose"
    head -n 5 "$SCRATCH/regress/$name.conform.out" "$SCRATCH/regress/$name.compose.out"
  else
    pass
  fi
done

dir=$SCRATCH/cases
mkdir -p "$dir"
if ! "$PYTHON" "$TESTS_DIR/oracle/gen-theorem.py" --batch "$dir" "$first" "$count"; then
  fail "gen-theorem.py --batch failed"
  summary theorem
  exit 1
fi
seq "$first" $((first + count - 1)) | sed 's/^/case/' | xargs -P "$JOBS" -n 1 "$0" --one "$dir"

if ! "$PYTHON" "$TESTS_DIR/oracle/gen-theorem.py" --judge "$dir" "$first" "$count" > "$dir/judged" 2> "$dir/judge.err"; then
  fail "gen-theorem.py --judge failed: $(tail -n 5 "$dir/judge.err" | tr '\n' ' ')"
fi
unknown=0 unknown_cases=""
while read -r name status rest; do
  case $status in
    all-safe: | rejected: | skip:) pass ;;
    unknown:) unknown=$((unknown + 1)); unknown_cases+=" ${name#case}" ;;
    VIOLATION: | COMPOSE-DIFFERS: | ERROR:)
      fail "$name ${status%:}: $rest"
      awk -v c="$name" '$1 == c { on = 1; next } /^case[0-9]+ / { on = 0 } on' "$dir/judged"
      echo "---- athread conform:"; head -n 40 "$dir/$name.conform.out"
      echo "---- athread compose:"; head -n 20 "$dir/$name.compose.out" ;;
  esac
done < <(grep '^case[0-9]* ' "$dir/judged")
if [ $unknown -gt 0 ]; then
  if [ $((unknown * 50)) -lt "$count" ]; then
    echo "note: athread said unknown for $unknown case(s) (under 2%, not counted as failures):$unknown_cases"
  else
    fail "athread said unknown for $unknown of $count cases:$unknown_cases"
  fi
fi
echo "$(tail -n 1 "$dir/judged"); $(($(date +%s) - start)) s"
summary theorem
[ $failed = 0 ]
