#!/usr/bin/env bash
# tests/svcomp/conform.sh [--strict] [--timeout SEC] [TASK...] -- athread on
# SV-COMP ConcurrencySafety tasks (unreach-call) it did not write, and on
# its own regression tasks (the unreach-call tasks of tests/svcomp/tasks.txt;
# first tests/svcomp/fetch.sh puts the SV-COMP ones into its cache). For each
# task it runs `athread conform SPEC PROGRAM --int c --atomicity access` (C's
# integers, and every access to shared memory a step: the tasks are C, so a
# "true" must not rest on the paper's coarser semantics; ATHREAD_INCLUDE: include/ of
# this checkout unless set) and `athread compose SPEC` (plus the arguments of
# a `// svcomp-compose: ...` line of the spec), derives athread's verdict
# and prints one row: task, expected verdict, athread's verdict, time
# (both commands), and the reason.
#
# What athread's answer means for the C program:
#   true   every thread conforms to its abstract thread and the composition
#          is safe: by the theorem of the method, the program cannot reach
#          the error. This is the only claim about the C program, so the
#          only one that must never be wrong. Where the spec models main's
#          part instead of checking it (a `// svcomp-main: ...` line: its
#          writes before the first start as init predicates, its test after
#          the joins as a system invariant), the claim also rests on that
#          model, and the reason says so.
#   false  every thread conforms and the composition is unsafe: the design
#          written in the spec has a counterexample. The abstract threads
#          may do more than the code, so this is a bug candidate, not a
#          proof; it is still the expected answer of an unsafe task.
#   unknown  a thread does not conform (the counterexample runs the thread
#          against an environment that the spec's states allow, which other
#          threads may never produce: inconclusive for the C program until
#          the counterexample is replayed in C, which this runner does not
#          do), or a check reached its time limit.
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
set -u
source "$(dirname "$0")/../setup"
source "$TESTS_DIR/svcomp/lib.sh"
here=$TESTS_DIR/svcomp
export ATHREAD_INCLUDE=${ATHREAD_INCLUDE:-$(cd "$TESTS_DIR/.." && pwd)/include}
strict=0
timeout=60
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

# verdict SPEC PROGRAM: runs both commands; sets got and why.
verdict() {
  local spec=$1 prog=$2 args rc_c rc_s composed
  $VALGRIND "$ATHREAD" conform "$spec" "$prog" --int c --atomicity access --no-timing --timeout "$timeout" \
    > "$SCRATCH/conform.out" 2> "$SCRATCH/conform.err"
  rc_c=$?
  read -ra args <<< "$(directive "$spec" compose)"
  $VALGRIND "$ATHREAD" compose "$spec" "${args[@]}" --no-timing --timeout "$timeout" > "$SCRATCH/compose.out" 2> "$SCRATCH/compose.err"
  rc_s=$?
  case $rc_s in
    0 | 1 | 3) composed=$(head -n 1 "$SCRATCH/compose.out" | sed 's/^system [^:]*: //') ;;
    *) composed="failed (exit $rc_s): $(first_error "$SCRATCH/compose.err")" ;;
  esac
  case $rc_c/$rc_s in
    0/0) got=true; why="conforms; safe" ;;
    0/1) got=false; why="conforms; $composed" ;;
    0/3) got=unknown; why="conforms; compose: $composed" ;;
    0/*) got=-; why="conforms; compose $composed" ;;
    1/*) got=unknown; why="does not conform: $(grep -m1 'reason:' "$SCRATCH/conform.out" | sed 's/^ *reason: //')" ;;
    3/*) got=unknown; why="conform: $(grep -m1 'unknown' "$SCRATCH/conform.out")" ;;
    2/*) got=-; why="refused: $(first_error "$SCRATCH/conform.err"); compose: $composed" ;;
    *) got=-; why="conform failed (exit $rc_c): $(first_error "$SCRATCH/conform.err")" ;;
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
