#!/usr/bin/env bash
# tests/svcomp/conform.sh [--strict] [--timeout SEC] [TASK...] -- athread on
# SV-COMP ConcurrencySafety tasks (unreach-call) it did not write, and on
# its own regression tasks (the unreach-call tasks of tests/svcomp/tasks.txt;
# first tests/svcomp/fetch.sh puts the SV-COMP ones into its cache). For each
# task it runs `athread check SPEC PROGRAM` at its defaults (C's integers,
# every access to shared memory a step, and between two steps the other
# threads take edges of the spec where the abstract system can take them:
# the tasks are C, so a "true" must not rest on the paper's coarser
# semantics; ATHREAD_INCLUDE: include/ of this checkout unless set), derives
# athread's verdict and prints one row: task, expected verdict, athread's
# verdict, time (every command run for the task), and the reason.
# Two kinds of spec need more than one check:
#   - a spec with a `// svcomp-compose: --for-all N` line: main starts
#     unboundedly many threads, and check is about the spec's N only (its
#     environment is the reachable states of that system). A "true" for
#     the task needs `check SPEC PROGRAM --for-all N`: the system safe
#     for every N (counter abstraction) and every thread conforming with N
#     a variable of C(T, T#), from 1 to the bound it states (C's integers
#     are bounded), while the other threads move where the counter
#     system's invariants allow. Check's verdict at N is in the reason.
#   - when check finds the abstract system unsafe it checks no thread; the
#     runner then runs `conform SPEC PROGRAM --env havoc` and, if the code
#     does not conform there, `conform SPEC PROGRAM` (the environment of the
#     spec's edges, as the system cannot be used) to tell a design with a
#     counterexample that the code implements (false) from one it does not
#     (unknown).
#
# What athread's answer means for the C program:
#   true   check says safe (every thread conforms and the composition is
#          safe: by the theorem of the method, the program cannot reach the
#          error), for every N where main starts unboundedly many threads.
#          This is the only claim about the C program, so the only one that
#          must never be wrong. Where the spec models main's part instead of
#          checking it (a `// svcomp-main: ...` line: its writes before the
#          first start as init predicates), the claim also rests on that
#          model, and the reason says so. A test of main after its joins,
#          modelled as a system invariant over the threads' last states,
#          gives at most unknown: athread does not check in which abstract
#          state a thread's C function returns (regress/counter-race
#          returns in its first state after a lost update).
#   false  the composition is unsafe and every thread conforms: the design
#          written in the spec has a counterexample. The abstract threads
#          may do more than the code, so this is a bug candidate, not a
#          proof; it is still the expected answer of an unsafe task.
#   unknown  a thread does not conform (the counterexample runs the thread
#          against an environment of the spec's moves, which other threads
#          may never make: inconclusive for the C program until the
#          counterexample is replayed in C, which this runner does not do),
#          a check reached its time limit, or a "true" of the spec's N that
#          is not one for every N or rests on a model of main's joins.
#   -      athread gave no answer: the C front end or the spec was refused
#          (the reason is the first error), or the program is missing:
#          fetch.sh could not get it (no network and no cache; fetch.sh
#          says why on stderr).
# Judgement: "WRONG SAFE" (athread true, task false) fails the run; "wrong
# unsafe" (athread false, task true) is reported but does not fail it (the
# spec is too coarse, no claim about the C program is wrong); a missing
# program fails the run unless ATHREAD_SVCOMP_OPTIONAL=1 (see
# tests/svcomp/lib.sh); with --strict a task that athread gives no answer
# for fails the run too.
# Exit status: 0, or 1 as above, 2 on a usage error.
# --timeout defaults to $SVCOMP_TIMEOUT, else 60 s: the ASan run of the suite sets 20.
set -u
source "$(dirname "$0")/../setup"
source "$TESTS_DIR/svcomp/lib.sh"
here=$TESTS_DIR/svcomp
export ATHREAD_INCLUDE=${ATHREAD_INCLUDE:-$(cd "$TESTS_DIR/.." && pwd)/include}
strict=0
timeout=${SVCOMP_TIMEOUT:-60}
while [ $# -gt 0 ]; do
  case $1 in
    --strict) strict=1 ;;
    --timeout) timeout=${2:?--timeout needs seconds}; shift ;;
    -h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "usage: $0 [--strict] [--timeout SEC] [TASK...]" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
status=0
rows_ok=0
rows_bad=0
rows_skipped=0

# now_ms: the time in milliseconds.
now_ms() { date +%s%3N; }

# first_error FILE: the first error of athread's stderr, without the
# directories of its file name and without the word "error".
first_error() {
  grep -m1 'error:' "$1" | sed -E 's|^([^:]*/)?([^/:]+:[0-9]+:[0-9]+): error: |\2: |; s|^athread: ||'
}

# directive SPEC NAME: the text of the spec's `// svcomp-NAME: ...` line.
directive() { sed -n "s|^// svcomp-$2: ||p" "$1" | head -n 1; }

# run NAME ARGS...: runs athread with ARGS (and the runner's options),
# output in $SCRATCH/NAME.out and .err; sets rc.
run() {
  local name=$1
  shift
  $VALGRIND "$ATHREAD" "$@" --no-timing --timeout "$timeout" > "$SCRATCH/$name.out" 2> "$SCRATCH/$name.err"
  rc=$?
}

# said NAME PATTERN: the first line of NAME's output that has PATTERN (a
# regular expression), without its indentation, PATTERN, and the
# directories of the file names in it.
said() { grep -m1 -e "$2" "$SCRATCH/$1.out" | sed -E "s/^ *//; s/$2//; s|/([^/ :]+/)*([^/ :]+:[0-9]+)|\2|g"; }

# verdict SPEC PROGRAM: athread check, and what a verdict of the spec's N
# or of an unsafe system needs besides (see the header); sets got and why.
verdict() {
  local spec=$1 prog=$2 args
  run check check "$spec" "$prog"
  case $rc in
    0) got=true; why="safe" ;;
    1) if grep -q '^verdict: not proved: the abstract system is unsafe' "$SCRATCH/check.out"; then
         unsafe_system "$spec" "$prog"
       else
         got=unknown; why="does not conform: $(said check 'reason: ')"
       fi ;;
    3) got=unknown; why="$(said check 'verdict: ')"
       grep -q '^verdict: unknown: the abstract system' "$SCRATCH/check.out" && why="$why: $(said check '^system [^:]*: unknown: ')" ;;
    2) got=-; why="refused: $(first_error "$SCRATCH/check.err")" ;;
    *) got=-; why="check failed (exit $rc): $(first_error "$SCRATCH/check.err")" ;;
  esac
  read -ra args <<< "$(directive "$spec" compose)"
  if [ "$got" = true ] && [ "${args[0]:-}" = --for-all ]; then for_all "$spec" "$prog" "${args[@]}"; fi
  if [ "$got" = true ] && directive "$spec" main | grep -q 'after the joins'; then
    got=unknown
    why="safe, but main's test after the joins is modelled as an invariant over the threads' last states, and athread does not check in which state a thread's code returns"
  fi
}

# unsafe_system SPEC PROGRAM: check found the system unsafe; whether the
# code conforms to the design that has the counterexample: under --env
# havoc first (it allows more, so a "conforms" there holds under the spec's
# edges too, and Spacer is often faster), then under the spec's edges.
unsafe_system() {
  local system
  system=$(said check '^system [^:]*: ')
  run conform conform "$1" "$2" --env havoc
  if [ $rc = 0 ]; then got=false; why="every thread conforms (--env havoc); $system"; return; fi
  run conform conform "$1" "$2"
  case $rc in
    0) got=false; why="every thread conforms; $system" ;;
    1) got=unknown; why="$system; does not conform: $(said conform 'reason: ')" ;;
    *) got=unknown; why="$system; conform: exit $rc $(grep -m1 unknown "$SCRATCH/conform.out")$(first_error "$SCRATCH/conform.err")" ;;
  esac
}

# for_all SPEC PROGRAM ARGS...: check said safe for the spec's N; a true for
# every N needs check ARGS (--for-all N): the system for every N, the code
# with N as a variable (up to the bound check states).
for_all() {
  local spec=$1 prog=$2 n
  shift 2
  n=$(sed -n 's|^const \([A-Za-z_][A-Za-z0-9_]*\) *= *\([0-9]*\);.*|\1 = \2|p' "$spec" | grep -m1 "^$2 ")
  run forall check "$spec" "$prog" "$@"
  case $rc in
    0) why="safe for $n; check $*: $(said forall 'verdict: ')" ;;
    1) got=unknown; why="safe for $n; check $*: $(said forall 'verdict: ') $(said forall 'reason: ')" ;;
    *) got=unknown; why="safe for $n; check $*: exit $rc $(said forall 'verdict: ')$(first_error "$SCRATCH/forall.err")" ;;
  esac
}

# mark EXPECTED GOT: the mark of a row whose verdict is wrong.
mark() {
  case $1/$2 in
    false/true) echo "WRONG SAFE" ;;
    true/false) echo "wrong unsafe" ;;
  esac
}

svcomp_fetch "$@"
printf '%-38s %-8s %-8s %8s  %s\n' task expected athread time reason
while read -r -u 3 task input property expected _ _ where _; do
  case $task in '#'* | '') continue ;; esac
  [ "$property" = unreach-call ] || continue
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qxF -e "$task" -e "${task##*/}"; then continue; fi
  spec=$here/specs/${task##*/}.athread
  start=$(now_ms)
  if ! prog=$(svcomp_program "$task" "$input" "$where"); then
    got=-; why="missing: fetch.sh could not get it"
    if svcomp_optional; then why="$why; not counted (ATHREAD_SVCOMP_OPTIONAL=1)"; else status=1; fi
  else
    verdict "$spec" "$prog"
  fi
  ms=$(($(now_ms) - start))
  main=$(directive "$spec" main)
  [ "$got" = true ] && [ -n "$main" ] && why="$why (main $main)"
  mark=$(mark "$expected" "$got")
  row_bad=0
  [ "$got" = true ] && [ "$expected" = false ] && row_bad=1
  [ "$got" = - ] && [ $strict = 1 ] && row_bad=1
  [ "${why#missing}" != "$why" ] && ! svcomp_optional && row_bad=1
  [ $row_bad = 1 ] && status=1
  if [ "${why#missing}" != "$why" ] && svcomp_optional; then rows_skipped=$((rows_skipped + 1))
  elif [ $row_bad = 0 ]; then rows_ok=$((rows_ok + 1))
  else rows_bad=$((rows_bad + 1)); fi
  printf '%-38s %-8s %-8s %6d ms  %s%s\n' "$task" "$expected" "$got" "$ms" "${mark:+$mark: }" "$why"
done 3< "$SVCOMP_TASKS"
[ $rows_skipped = 0 ] || echo "svcomp: $rows_skipped tasks not in the cache, not tested (tests/svcomp/fetch.sh gets them where there is network)"
echo "svcomp: $rows_ok passed, $rows_bad failed (a row fails on a wrong \"true\", a missing program, or with --strict no answer)"
exit $status
