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
# figures. For a safe system, the explicit engine's state count must be the
# generator's: without symmetry all reachable states, with symmetry (the
# counted search) their number up to permutations of interchangeable
# instances.
# Each spec must also pass athread lint -w. A mismatch prints the seed, the
# verdicts and the spec. Ends with "oracle: N passed, N failed".
# Environment: JOBS (parallel cases, default 2), PYTHON (default python3),
# PAN_CFLAGS (default -O0: these models are small, compiling pan dominates).
set -u
source "$(dirname "$0")/diff-lib.sh"

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

# states_in FILE: the state count of a compose output.
states_in() { sed -n 's/^\([0-9][0-9]*\) states\{0,1\}, .*/\1/p' "$1"; }

# counts_agree SEED SPEC: problems with the state counts of a safe system's
# explicit runs (SPEC.sym.out, SPEC.plain.out) against the generator's.
counts_agree() {
  local all orbits
  read -r all orbits <<< "$(awk -v s="$1" '$1 == s { print $3, $4 }' "$SCRATCH/verdicts")"
  [ "$(states_in "$2.plain.out")" = "$all" ] ||
    echo -n "compose --no-symmetry stores $(states_in "$2.plain.out") states, the generator reaches $all; "
  [ "$(states_in "$2.sym.out")" = "$orbits" ] ||
    echo -n "compose stores $(states_in "$2.sym.out") states, the generator's up to symmetry are $orbits; "
}

one_case() {
  local seed=$1
  local spec=$SCRATCH/specs/seed-$seed.athread dir=$SCRATCH/run/$seed
  local expected problems="" spin c1 c2
  mkdir -p "$dir"
  expected=$(oracle_expected "$seed")
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
  mv "$spec.three.out" "$spec.sym.out"
  c2=$(workers_agree "$spec" --engine explicit --no-symmetry)
  mv "$spec.three.out" "$spec.plain.out"
  [ "$expected" != safe ] || [ "$c1" != safe ] || [ "$c2" != safe ] || problems+=$(counts_agree "$seed" "$spec")
  c3=$(compose_verdict "$spec" --engine symbolic --timeout 60)
  verdicts+=", compose $c1, compose --no-symmetry $c2, compose --engine symbolic $c3"
  for c in "$c1" "$c2" "$c3"; do
    case $c in
      ERROR*) problems+="$c; " ;;
      *) [ "$c" = "$spin" ] || problems+="compose says $c, SPIN says $spin; " ;;
    esac
  done
  oracle_record "$seed" "$spin" "$problems" "$verdicts"
}

oracle_dispatch "$@"

# ---------------------------------------------------------------- driver

export PAN_CFLAGS=${PAN_CFLAGS:--O0}
oracle_start oracle spin 200 "$@"
oracle_run $(seq "$first" $((first + count - 1)))

unsafe=0
for seed in $(seq "$first" $((first + count - 1))); do
  oracle_collect "$seed" "seed $seed" "seed $seed: tests/oracle/gen-system.py $seed" "$SCRATCH/specs/seed-$seed.athread"
done
echo "oracle: $count systems from seed $first, $unsafe unsafe ($((100 * unsafe / (count > 0 ? count : 1)))%), $(($(date +%s) - start)) s"
summary oracle
[ $failed = 0 ]
