#!/usr/bin/env bash
# tests/oracle/race-diff.sh [COUNT] [FIRST_SEED] -- athread races against
# the race oracle (gen-race.py: random pthread programs and the verdict of an
# exhaustive interleaving search that shares no code with athread). athread
# races must never say "no data race" (exit 0) where the oracle finds a race,
# nor "data race" (exit 1) where it finds none: each such case is a failure.
# Exit 3 (unknown) is allowed; any other exit is a failure. Prints the counts:
# no-race proved, races found, unknown (of which race-free by the oracle),
# wrong; then "race-oracle: N passed, N failed".
# Environment: PYTHON (default python3), ATHREAD, ATHREAD_INCLUDE.
set -u
source "$(dirname "$0")/../setup"
count=${1:-100} first=${2:-1}
PYTHON=${PYTHON:-python3}
GEN=$TESTS_DIR/oracle/gen-race.py
cd "$SCRATCH"
"$PYTHON" "$GEN" "$first" --count "$count" > all.c || { fail "gen-race.py failed"; summary race-oracle; exit 1; }
"$PYTHON" "$GEN" "$first" --verdict --count "$count" > verdicts || { fail "gen-race.py --verdict failed"; summary race-oracle; exit 1; }
# one file per seed: the programs are separated by "/* seed N */" lines
awk '/^\/\* seed [0-9]+ \*\/$/ { f = "case" $3 ".c"; next } f { print > f }' all.c
[ "$count" = 1 ] && cp all.c "case$first.c"
proved=0 found=0 unknown=0 unknown_free=0 wrong=0
while read -r seed verdict _; do
  "$ATHREAD" races "case$seed.c" > "case$seed.out" 2> "case$seed.err"
  rc=$?
  case $rc in
  0)
    if [ "$verdict" = race ]; then
      wrong=$((wrong + 1))
      fail "seed $seed: athread races says no data race, the oracle finds a race ($GEN $seed)"
    else
      proved=$((proved + 1)) && pass
    fi
    ;;
  1)
    if [ "$verdict" = no-race ]; then
      wrong=$((wrong + 1))
      fail "seed $seed: athread races reports a data race, the oracle finds none ($GEN $seed)"
    elif ! grep -q '(replayed)' "case$seed.out"; then
      fail "seed $seed: a data race without a replayed trace"
    else
      found=$((found + 1)) && pass
    fi
    ;;
  3)
    unknown=$((unknown + 1))
    [ "$verdict" = no-race ] && unknown_free=$((unknown_free + 1))
    pass
    ;;
  *) fail "seed $seed: exit $rc: $(head -n 3 "case$seed.err")" ;;
  esac
done < verdicts
races=$(grep -c ' race ' verdicts)
echo "race-oracle: $count programs from seed $first ($races with a race): no-race proved $proved," \
  "races found $found, unknown $unknown ($unknown_free of them race-free), wrong $wrong"
summary race-oracle
[ "$failed" = 0 ]
