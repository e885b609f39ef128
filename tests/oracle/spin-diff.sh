#!/usr/bin/env bash
# tests/oracle/spin-diff.sh [COUNT] [FIRST_SEED] -- the composer's correctness
# oracle: random systems (gen-system.py) checked three or four ways, which
# must all give the same verdict:
#   - the generator's own explicit-state search of its model (--batch);
#   - SPIN on the model of athread promela (spin -a; gcc; ./pan -E);
#   - athread compose --engine explicit, with and without symmetry reduction,
#     and athread compose --engine symbolic (exit 0 safe, 1 unsafe; unknown
#     counts as a failure: these systems are small and finite).
# The explicit runs are made with --threads 1 and --threads 3, whose outputs
# (verdict, counts, counterexample) must be the same but for the memory
# figures.
# Each spec must also pass athread lint -w. A mismatch prints the seed, the
# verdicts and the spec. Ends with "oracle: N passed, N failed".
# Environment: JOBS (parallel cases, default 2), PYTHON (default python3),
# PAN_CFLAGS (default -O0: these models are small, compiling pan dominates).
set -u

# ---------------------------------------------------------------- one case (run in parallel)

# verdict_of_pan FILE: safe / unsafe / "" from pan's output.
verdict_of_pan() {
  local e
  e=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$1" | head -n 1)
  if [ -z "$e" ]; then echo ""; elif [ "$e" = 0 ]; then echo safe; else echo unsafe; fi
}

# spin_verdict DIR: runs SPIN on DIR/model.pml; prints safe / unsafe, or ERROR: why.
spin_verdict() {
  local dir=$1 depth
  (cd "$dir" && spin -a model.pml > spin.out 2>&1) || { echo "ERROR: spin -a failed: $(head -n 3 "$dir/spin.out")"; return; }
  (cd "$dir" && gcc $PAN_CFLAGS -DSAFETY -o pan pan.c > gcc.out 2>&1) || { echo "ERROR: gcc pan.c failed: $(head -n 3 "$dir/gcc.out")"; return; }
  for depth in 100000 10000000; do
    (cd "$dir" && ./pan -E -m$depth -w18 > pan.out 2>&1)
    grep -q "max search depth too small" "$dir/pan.out" || break
  done
  grep -q "max search depth too small" "$dir/pan.out" && { echo "ERROR: pan: max search depth too small"; return; }
  local v
  v=$(verdict_of_pan "$dir/pan.out")
  [ -n "$v" ] && echo "$v" || echo "ERROR: pan printed no verdict: $(tail -n 3 "$dir/pan.out")"
}

# compose_verdict SPEC ARGS...: safe / unsafe / unknown, or ERROR: why.
# Keeps the output in SPEC.compose.out.
compose_verdict() {
  local spec=$1
  shift
  "$ATHREAD" compose "$spec" "$@" > "$spec.compose.out" 2> "$spec.compose.err"
  local rc=$?
  case $rc in
    0) echo safe ;;
    1) echo unsafe ;;
    3) echo unknown ;;
    *) echo "ERROR: athread compose $* exited $rc: $(head -n 2 "$spec.compose.err")" ;;
  esac
}

# without_memory FILE: the output in FILE without its memory figures (from
# the bytes per state on), which depend on the number of workers.
without_memory() { sed 's/, [0-9]* bytes\{0,1\} per .*$//' "$1"; }

# workers_agree SPEC ARGS...: compose_verdict with --threads 3, or ERROR:
# when --threads 1 prints anything else (the memory figures aside).
workers_agree() {
  local spec=$1 one three
  shift
  one=$(compose_verdict "$spec" "$@" --threads 1 --no-timing)
  without_memory "$spec.compose.out" > "$spec.one.out"
  three=$(compose_verdict "$spec" "$@" --threads 3 --no-timing)
  without_memory "$spec.compose.out" > "$spec.three.out"
  if [ "$one" != "$three" ] || ! cmp -s "$spec.one.out" "$spec.three.out"; then
    echo "ERROR: compose $* prints otherwise with --threads 1 and 3: $(diff "$spec.one.out" "$spec.three.out" | head -n 3 | tr '\n' ' ')"
  else
    echo "$three"
  fi
}

one_case() {
  local seed=$1
  local spec=$SCRATCH/specs/seed-$seed.athread dir=$SCRATCH/run/$seed
  local expected problems="" spin c1 c2
  mkdir -p "$dir"
  expected=$(awk -v s="$seed" '$1 == s { print $2 }' "$SCRATCH/verdicts")
  "$ATHREAD" lint -w "$spec" > "$dir/lint.out" 2>&1 || problems+="lint -w failed: $(head -n 1 "$dir/lint.out"); "
  if "$ATHREAD" promela "$spec" -o "$dir/model.pml" 2> "$dir/promela.err"; then
    spin=$(spin_verdict "$dir")
  else
    spin="ERROR: athread promela failed: $(head -n 1 "$dir/promela.err")"
  fi
  case $spin in ERROR*) problems+="$spin; " ;; esac
  [ "$expected" = unknown ] || [ "$spin" = "$expected" ] || problems+="SPIN says $spin, the generator's search says $expected; "
  local verdicts="generator $expected, spin $spin"
  c1=$(workers_agree "$spec" --engine explicit)
  c2=$(workers_agree "$spec" --engine explicit --no-symmetry)
  c3=$(compose_verdict "$spec" --engine symbolic --timeout 60)
  verdicts+=", compose $c1, compose --no-symmetry $c2, compose --engine symbolic $c3"
  for c in "$c1" "$c2" "$c3"; do
    case $c in
      ERROR*) problems+="$c; " ;;
      *) [ "$c" = "$spin" ] || problems+="compose says $c, SPIN says $spin; " ;;
    esac
  done
  if [ -z "$problems" ]; then
    echo "PASS $seed $spin" > "$SCRATCH/results/$seed"
  else
    echo "FAIL $seed ($verdicts): $problems" > "$SCRATCH/results/$seed"
  fi
}

if [ "${1:-}" = --one ]; then
  one_case "$2"
  exit 0
fi

# ---------------------------------------------------------------- driver

source "$(dirname "$0")/../setup"
count=${1:-200}
first=${2:-1}
export JOBS=${JOBS:-2} PAN_CFLAGS=${PAN_CFLAGS:--O0} SCRATCH ATHREAD
PYTHON=${PYTHON:-python3}
start=$(date +%s)

for tool in spin gcc "$PYTHON"; do
  if ! command -v "$tool" > /dev/null; then
    fail "$tool is not installed (make deps installs spin)"
    summary oracle
    exit 1
  fi
done

mkdir -p "$SCRATCH/specs" "$SCRATCH/run" "$SCRATCH/results"
if ! "$PYTHON" "$TESTS_DIR/oracle/gen-system.py" --batch "$SCRATCH/specs" "$first" "$count" > "$SCRATCH/verdicts"; then
  fail "gen-system.py --batch failed"
  summary oracle
  exit 1
fi

seq "$first" $((first + count - 1)) | xargs -P "$JOBS" -n 1 "$0" --one

unsafe=0
for seed in $(seq "$first" $((first + count - 1))); do
  result=$SCRATCH/results/$seed
  if [ ! -s "$result" ]; then
    fail "seed $seed: no result"
    continue
  fi
  read -r status _ verdict < "$result"
  if [ "$status" = PASS ]; then
    pass
    [ "$verdict" = unsafe ] && unsafe=$((unsafe + 1))
  else
    fail "seed $seed: $(cut -d' ' -f3- "$result")"
    echo "---- seed $seed: tests/oracle/gen-system.py $seed"
    cat "$SCRATCH/specs/seed-$seed.athread"
    echo "----"
  fi
done
echo "oracle: $count systems from seed $first, $unsafe unsafe ($((100 * unsafe / (count > 0 ? count : 1)))%), $(($(date +%s) - start)) s"
summary oracle
[ $failed = 0 ]
