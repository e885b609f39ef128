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
# THEOREM_TIMEOUT (athread's --timeout per run, default 20 s; times
# ORACLE_SLOWDOWN, default 1, which asan-test sets for its slower build), ATOMICITY
# (statement, the default, or access: athread gets --atomicity access
# and the concrete search makes every read and every write of a shared
# variable outside atomic sections a step of its own, in every order C
# allows), INT (math, the default, or c: --int c, and the concrete search
# uses C's types), CHECK (1, the default: one command, `athread check SPEC FILE`, gives
# the program's verdict, exit 0 safe, and `athread compose` runs too, for the
# cross-check of the abstract system; 0: athread conform and athread compose,
# both exit 0 for safe), ENV (athread's --env under CHECK=1: system, the
# default, or havoc), SHAPES (the share of the cases made by gen-theorem.py's
# ShapeGen: locks, compare-and-swap loops, near misses; default 0),
# UNKNOWN_PERCENT (the share of unknowns that is a failure, default 2),
# FORALL (1: the cases count a thread by a const N, `T[N]` in the system,
# athread check and compose run with --for-all N, and "safe" claims every
# N >= 1; the reference checks N = 1, 2, 3 only (more for tiny programs), so
# a wrong "safe for every N" is caught only where it fails at such an N;
# athread compose's "unsafe for N = K" is checked at that K; an exit 2, a
# spec --for-all refuses, is a failure: the generator must stay within what
# it accepts; the kept regressions run are those whose .expect says
# "applies: FORALL=1", and only under FORALL=1).
# The judge ends with the figures: programs, reference-safe and -unsafe,
# athread-safe, how many the reference proves safe athread proves too, wrong
# safes (a failure each), unknowns.
# INFER (1: the spec is not the generator's but the one `athread infer`
# drafts from the C program; athread compose's verdict is not compared with
# the generator's abstract system then, and a draft infer refuses counts as
# rejected).
# Ends with "theorem: N passed, N failed".
set -u

if [ "${1:-}" = --one ]; then
  # one case, run in parallel by the driver: DIR/NAME.{check or conform,compose}.{out,rc}
  dir=$2 name=$3
  if [ "$INFER" = 1 ]; then
    # the spec drafted from the code replaces the generator's (its compose run is not compared)
    "$ATHREAD" infer "$dir/$name.athread" "$dir/$name.c" --all --atomicity "$ATOMICITY" -o "$dir/$name.athread" > "$dir/$name.infer.out" 2>&1
    echo $? > "$dir/$name.infer.rc"
  fi
  for cmd in $FIRST compose; do
    case $cmd in
      conform) set -- conform "$dir/$name.athread" "$dir/$name.c" --atomicity "$ATOMICITY" --int "$INT" ;;
      check) set -- check "$dir/$name.athread" "$dir/$name.c" --atomicity "$ATOMICITY" --int "$INT" --env "$ENV" ;;
      compose) set -- compose "$dir/$name.athread" ;;
    esac
    [ "$FORALL" = 1 ] && set -- "$@" --for-all N
    timeout -k 10 $((THEOREM_TIMEOUT + 30)) "$ATHREAD" "$@" --timeout "$THEOREM_TIMEOUT" > "$dir/$name.$cmd.out" 2>&1
    echo $? > "$dir/$name.$cmd.rc"
  done
  exit 0
fi

source "$(dirname "$0")/../setup"
count=${1:-300}
first=${2:-1}
export JOBS=${JOBS:-2} THEOREM_TIMEOUT=$((${THEOREM_TIMEOUT:-20} * ${ORACLE_SLOWDOWN:-1})) ATHREAD ATOMICITY=${ATOMICITY:-statement} INT=${INT:-math}
export CHECK=${CHECK:-1} ENV=${ENV:-system} SHAPES=${SHAPES:-0} FORALL=${FORALL:-0} INFER=${INFER:-0}
FIRST=conform
[ "$CHECK" = 1 ] && FIRST=check
export FIRST
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

# Does athread say "safe" (DIR/NAME: its exit codes)? Under CHECK=1 athread
# check exits 0, else athread conform and athread compose both do.
athread_safe() {
  [ "$(cat "$1.$FIRST.rc")" = 0 ] && { [ "$FIRST" = check ] || [ "$(cat "$1.compose.rc")" = 0 ]; }
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
  # under FORALL only the regressions kept in it (their specs have T[N]): the others are the other modes'
  [ "$FORALL" = 1 ] && ! grep -q '^applies: FORALL=1' "$expect" && continue
  cp "$spec" "$regress/$name.c" "$SCRATCH/regress/"
  "$0" --one "$SCRATCH/regress" "$name"
  first_rc=$(cat "$SCRATCH/regress/$name.$FIRST.rc") compose=$(cat "$SCRATCH/regress/$name.compose.rc")
  if ! applies "$expect"; then
    if ! grep -q '^elsewhere: conforms and safe' "$expect" || athread_safe "$SCRATCH/regress/$name"; then
      pass
    else
      fail "regression $name (not unsafe here): athread exit codes $FIRST $first_rc, compose $compose, expected safe"
      head -n 10 "$SCRATCH/regress/$name.$FIRST.out" "$SCRATCH/regress/$name.compose.out"
    fi
  elif athread_safe "$SCRATCH/regress/$name"; then
    fail "regression $name: athread says every thread conforms and the system is safe, but the program is not: $(head -n 1 "$regress/$name.expect")"
  elif [ "$first_rc" = 2 ] || [ "$compose" = 2 ] || [ "$first_rc" -gt 3 ] || [ "$compose" -gt 3 ]; then
    fail "regression $name: athread exit codes $FIRST $first_rc, compose $compose"
    head -n 5 "$SCRATCH/regress/$name.$FIRST.out" "$SCRATCH/regress/$name.compose.out"
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
      echo "---- athread $FIRST:"; head -n 40 "$dir/$name.$FIRST.out"
      echo "---- athread compose:"; head -n 20 "$dir/$name.compose.out" ;;
  esac
done < <(grep '^case[0-9]* ' "$dir/judged")
if [ $unknown -gt 0 ]; then
  if [ $((unknown * 100)) -lt $((count * ${UNKNOWN_PERCENT:-2})) ]; then
    echo "note: athread said unknown for $unknown case(s) (under ${UNKNOWN_PERCENT:-2}%, not counted as failures):$unknown_cases"
  else
    fail "athread said unknown for $unknown of $count cases:$unknown_cases"
  fi
fi
grep '^figures: ' "$dir/judged"
echo "$(tail -n 1 "$dir/judged"); $(($(date +%s) - start)) s"
summary theorem
[ $failed = 0 ]
