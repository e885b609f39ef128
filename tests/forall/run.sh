#!/usr/bin/env bash
# tests/forall/run.sh [COUNT] [FIRST_SEED] -- the oracle for compose --for-all:
# every example whose system has a thread with N instances (N a const), and
# COUNT random systems of gen-system.py --forall-batch (a symmetric thread
# with N instances), are checked with `compose --for-all N` and with
# `compose --set N=k --engine explicit` for k = 1..6:
#   - "safe for every N >= 1" while some explicit run at k is unsafe: FAIL;
#   - "unsafe for N = k" while the explicit run at that k is not unsafe: FAIL;
#   - an exit code other than 0, 1 or 3: FAIL.
# "unknown" passes (it claims nothing) but is counted in the last line.
# Ends with "forall: N passed, N failed". Environment: JOBS (default 2).
set -u

# verdict SPEC ARGS...: safe / unsafe / unknown, or ERROR: why.
verdict() {
  local spec=$1 out=$2
  shift 2
  "$ATHREAD" compose "$spec" "$@" > "$out" 2> "$out.err"
  case $? in
    0) echo safe ;;
    1) echo unsafe ;;
    3) echo unknown ;;
    *) echo "ERROR: compose $* exited with an unexpected code: $(head -n 2 "$out.err" | tr '\n' ' ')" ;;
  esac
}

# one_case NAME SPEC PARAM: writes PASS/FAIL/UNKNOWN NAME ... to results/NAME.
one_case() {
  local name=$1 spec=$2 param=$3 dir=$SCRATCH/run/$1
  mkdir -p "$dir"
  local fa n="" problems="" explicit="" k v
  fa=$(verdict "$spec" "$dir/forall.out" --for-all "$param" --timeout 30)
  case $fa in
    unsafe)
      n=$(sed -n "s/^system [^:]*: unsafe for $param = \([0-9][0-9]*\):.*/\1/p" "$dir/forall.out")
      [ -n "$n" ] || problems+="no 'unsafe for $param = k' line; " ;;
    safe) grep -q "safe for every $param >= 1" "$dir/forall.out" || problems+="no 'safe for every $param >= 1' line; " ;;
    ERROR*) problems+="$fa; " ;;
  esac
  for k in 1 2 3 4 5 6; do
    v=$(verdict "$spec" "$dir/explicit-$k.out" --set "$param=$k" --engine explicit --timeout 20)
    explicit+="$k:$v "
    case $v in ERROR*) problems+="explicit at $param=$k: $v; " ;; esac
    [ "$fa" = safe ] && [ "$v" = unsafe ] && problems+="for-all says safe, explicit at $param=$k says unsafe; "
    [ "$fa" = unsafe ] && [ "$k" = "$n" ] && [ "$v" != unsafe ] && problems+="for-all says unsafe for $param = $n, explicit there says $v; "
  done
  if [ -n "$problems" ]; then
    echo "FAIL $name (for-all $fa${n:+ for $param = $n}; explicit $explicit): $problems" > "$SCRATCH/results/$name"
  else
    echo "PASS $name $fa${n:+ $n}" > "$SCRATCH/results/$name"
  fi
}

if [ "${1:-}" = --one ]; then
  one_case "$2" "$3" "$4"
  exit 0
fi

# ---------------------------------------------------------------- driver

cd "$(dirname "$0")/../.."
source tests/setup
count=${1:-30}
first=${2:-1}
export JOBS=${JOBS:-2} SCRATCH ATHREAD
start=$(date +%s)
mkdir -p "$SCRATCH/specs" "$SCRATCH/run" "$SCRATCH/results"

# the cases: "NAME SPEC PARAM" lines
cases=$SCRATCH/cases
: > "$cases"
for spec in examples/*/*.athread; do
  grep -qw tid "$spec" && continue # not symmetric (arrays indexed by tid): --for-all does not apply
  # the consts that count a thread's instances: "Worker[N];" in the system
  for param in $(sed -n 's/^ *[A-Za-z_][A-Za-z0-9_]*\[\([A-Za-z_][A-Za-z0-9_]*\)\];.*/\1/p' "$spec" | sort -u); do
    grep -q "^const $param " "$spec" && echo "$(basename "$spec" .athread)-$param $PWD/$spec $param" >> "$cases"
  done
done
if ! python3 tests/oracle/gen-system.py --forall-batch "$SCRATCH/specs" "$first" "$count"; then
  fail "gen-system.py --forall-batch failed"
  summary forall
  exit 1
fi
for seed in $(seq "$first" $((first + count - 1))); do echo "seed-$seed $SCRATCH/specs/seed-$seed.athread N" >> "$cases"; done

xargs -P "$JOBS" -L 1 "$0" --one < "$cases"

safe=0 unsafe=0 unknown=0
while read -r name spec param; do
  result=$SCRATCH/results/$name
  if [ ! -s "$result" ]; then
    fail "$name: no result"
    continue
  fi
  read -r status _ v _ < "$result"
  if [ "$status" = PASS ]; then
    pass
    case $v in safe) safe=$((safe + 1)) ;; unsafe) unsafe=$((unsafe + 1)) ;; *) unknown=$((unknown + 1)) ;; esac
    case $name in seed-*) ;; *) echo "  $name: $(cut -d' ' -f3- "$result")" ;; esac
  else
    fail "$(cut -d' ' -f2- "$result")"
    case $name in seed-*) echo "---- $name: tests/oracle/gen-system.py --forall-batch DIR ${name#seed-} 1"; cat "$spec"; echo "----" ;; esac
  fi
done < "$cases"
# --no-timing promises output that depends on the input alone: the affine
# hints are sampled within a fixed amount of Z3 work, not of time, so two runs
# give the same certificate (the battery example's sampling used to be cut by
# the clock, and its certificate varied from run to run).
battery=examples/battery/battery.athread
first_run=$("$ATHREAD" compose "$battery" --for-all N --no-timing --certificate 2>&1)
second_run=$("$ATHREAD" compose "$battery" --for-all N --no-timing --certificate 2>&1)
if [ "$first_run" = "$second_run" ] && grep -q "safe for every N" <<< "$first_run"; then
  pass
else
  fail "battery --for-all: two runs with --no-timing differ"
fi

echo "forall: $(wc -l < "$cases") systems ($count generated from seed $first): $safe safe for every N, $unsafe unsafe, $unknown unknown, $(($(date +%s) - start)) s"
summary forall
[ $failed = 0 ]
