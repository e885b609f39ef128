#!/bin/sh
# tests/oracle/race-selftest.sh -- checks the race oracle (gen-race.py) itself,
# before `athread races` is diffed against it (issue 20).
#   race-selftest.sh [COUNT]   (default 300 seeds from 1)
# (a) every program compiles with gcc (and clang if present) -Wall -Werror;
# (b) hand-written programs get their known verdicts;
# (c) both verdicts occur, 25-75% racy;
# (d) TSan on ~20 programs: a TSan report on a program the oracle calls
#     no-race fails; TSan missing a race is not an error (it is dynamic).
set -u
here=$(cd "$(dirname "$0")" && pwd)
gen="$here/gen-race.py"
count=${1:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

compile_all() {
  i=1
  while [ "$i" -le "$count" ]; do
    python3 "$gen" "$i" > "$tmp/p$i.c"
    gcc -std=c11 -Wall -Werror -fsyntax-only -pthread "$tmp/p$i.c" || { echo "FAIL gcc seed $i"; fail=1; }
    if command -v clang >/dev/null; then
      clang -std=c11 -Wall -Werror -fsyntax-only -pthread "$tmp/p$i.c" || { echo "FAIL clang seed $i"; fail=1; }
    fi
    i=$((i + 1))
  done
}

proportion() {
  python3 "$gen" 1 --verdict --count "$count" > "$tmp/verdicts"
  racy=$(grep -c ' race ' "$tmp/verdicts")
  echo "verdicts: $racy race, $((count - racy)) no-race of $count"
  [ $((racy * 4)) -ge "$count" ] && [ $((racy * 4)) -le $((count * 3)) ] \
    || { echo "FAIL racy proportion out of 25-75%"; fail=1; }
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
    gcc -fsanitize=thread -O1 -pthread "$tmp/p$i.c" -o "$tmp/x$i" || { fail=1; continue; }
    for _ in 1 2 3; do
      TSAN_OPTIONS=halt_on_error=1 timeout -s KILL 10 "$tmp/x$i" > /dev/null 2> "$tmp/tsan$i" || true
      if grep -q 'data race' "$tmp/tsan$i"; then
        flagged=$((flagged + 1))
        if grep -q "^$i no-race" "$tmp/verdicts"; then echo "FAIL TSan race on no-race seed $i"; fail=1; fi
        break
      fi
    done
  done
  echo "TSan: $flagged of the sampled programs reported, none contradicting the oracle unless FAIL above"
}

compile_all
python3 "$gen" --self-test || fail=1
proportion
tsan_check
[ "$fail" = 0 ] && echo "race-selftest: ok"
exit "$fail"
