#!/bin/sh
# tests/oracle/race-selftest.sh -- checks the race oracle (gen-race.py) itself,
# before `athread races` is diffed against it (issue 20).
#   race-selftest.sh [COUNT]   (default 300 seeds from 1)
# (a) every program compiles with gcc (and clang if present) -Wall -Werror;
# (b) hand-written programs get their known verdicts;
# (c) both verdicts occur, 25-75% racy;
# (d) TSan on ~20 programs: a TSan report on a program the oracle calls
#     no-race fails; TSan missing a race is not an error (it is dynamic).
# Ends with "race-selftest: N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
gen="$here/gen-race.py"
count=${1:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# check NAME STATUS: counts one check (STATUS 0: passed), naming a failure.
check() {
  if [ "$2" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi
}

# One generator call, and one compiler call per compiler, for all programs.
compile_all() {
  python3 "$gen" 1 --count "$count" --out "$tmp"
  files=$(i=1; while [ "$i" -le "$count" ]; do echo "$tmp/p$i.c"; i=$((i + 1)); done)
  for cc in gcc clang; do
    command -v "$cc" >/dev/null || continue
    # shellcheck disable=SC2086 # one word per file
    "$cc" -std=c11 -Wall -Werror -fsyntax-only -pthread $files
    check "$cc: the programs do not compile (errors above)" $?
  done
}

# Each hand-written case of the generator's self-test is a check.
known_cases() {
  python3 "$gen" --self-test > "$tmp/known"
  cat "$tmp/known"
  [ -s "$tmp/known" ] || check "the self-test printed nothing" 1
  pass=$((pass + $(grep -c '^ok ' "$tmp/known")))
  fail=$((fail + $(grep -c '^BAD ' "$tmp/known")))
}

proportion() {
  python3 "$gen" 1 --verdict --count "$count" > "$tmp/verdicts"
  racy=$(grep -c ' race ' "$tmp/verdicts")
  echo "verdicts: $racy race, $((count - racy)) no-race of $count"
  [ $((racy * 4)) -ge "$count" ] && [ $((racy * 4)) -le $((count * 3)) ]
  check "racy proportion out of 25-75%" $?
}

# tsan_one SEED: 0 unless TSan reports a race on a program the oracle calls no-race.
tsan_one() {
  for _ in 1 2 3; do
    TSAN_OPTIONS=halt_on_error=1 timeout -s KILL 10 "$tmp/x$1" > /dev/null 2> "$tmp/tsan$1" || true
    if grep -q 'data race' "$tmp/tsan$1"; then
      flagged=$((flagged + 1))
      ! grep -q "^$1 no-race" "$tmp/verdicts"
      return
    fi
  done
  return 0
}

tsan_check() {
  echo 'int main(void){return 0;}' > "$tmp/t.c"
  if ! gcc -fsanitize=thread -O1 -pthread "$tmp/t.c" -o "$tmp/t" 2>/dev/null || ! "$tmp/t" 2>/dev/null; then
    echo "SKIP (d): TSan does not build or run here"; return
  fi
  flagged=0
  for i in $(awk 'NR % 15 == 1 {print $1}' "$tmp/verdicts"); do
    # TSan hangs at exit when main ends by pthread_exit: those are skipped.
    grep -q pthread_exit "$tmp/p$i.c" && continue
    if gcc -fsanitize=thread -O1 -pthread "$tmp/p$i.c" -o "$tmp/x$i"; then
      tsan_one "$i"
      check "TSan reports a race on no-race seed $i" $?
    else
      check "TSan build of seed $i" 1
    fi
  done
  echo "TSan: $flagged of the sampled programs reported a race"
}

compile_all
known_cases
proportion
tsan_check
echo "race-selftest: $pass passed, $fail failed"
[ "$fail" = 0 ]
