#!/usr/bin/env bash
# tests/oracle/rumur-diff.sh [COUNT] [FIRST_SEED] -- athread compose against
# rumur on the same models: random systems (gen-system.py) and every example
# (examples/*/*.athread, at its small N), each checked
#   - by rumur on the model of athread murphi (symmetry: scalarsets, rumur
#     --scalarset-schedules off) and of athread murphi --no-symmetry (the
#     same model when nothing is interchangeable: then run once);
#   - by athread compose --engine explicit, with and without symmetry.
# All verdicts must agree (with the generator's own search too, for the random
# systems), and for a safe system the state counts without symmetry must be
# equal (rumur prints "N states"; an unsafe search stops at a different
# point in each tool, and the two symmetry reductions differ). A spec that
# athread murphi refuses (no exact Murphi counterpart) is skipped and counted.
# Ends with "rumur-oracle: N passed, N failed".
# Environment: JOBS (parallel cases, default 2), PYTHON (default python3),
# RUMUR_CFLAGS (default -O0: the models are small, compiling dominates).
set -u
source "$(dirname "$0")/diff-lib.sh"

# ---------------------------------------------------------------- one case (run in parallel)

# rumur_run DIR NAME: runs rumur on DIR/NAME.m; prints "safe STATES",
# "unsafe STATES", or "ERROR: why".
rumur_run() {
  local dir=$1 name=$2
  rumur --deadlock-detection off --scalarset-schedules off --value-type int32_t "$dir/$name.m" -o "$dir/$name.c" > "$dir/$name.rumur" 2>&1 ||
    { echo "ERROR: rumur failed: $(head -n 3 "$dir/$name.rumur" | tr '\n' ' ')"; return; }
  gcc $RUMUR_CFLAGS -w -mcx16 -o "$dir/$name" "$dir/$name.c" -lpthread > "$dir/$name.gcc" 2>&1 ||
    { echo "ERROR: gcc failed: $(head -n 3 "$dir/$name.gcc" | tr '\n' ' ')"; return; }
  "$dir/$name" > "$dir/$name.out" 2>&1
  local states
  states=$(sed -n 's/^[[:space:]]*\([0-9][0-9]*\) states, .*/\1/p' "$dir/$name.out" | tail -n 1)
  [ -n "$states" ] || { echo "ERROR: the verifier printed no state count: $(tail -n 2 "$dir/$name.out" | tr '\n' ' ')"; return; }
  if grep -q "No error found" "$dir/$name.out"; then echo "safe $states"
  elif grep -q "error(s) found" "$dir/$name.out"; then echo "unsafe $states"
  else echo "ERROR: the verifier printed no verdict"; fi
}

# compose_run SPEC ARGS...: "safe STATES" / "unsafe STATES", or "ERROR: why".
compose_run() {
  local spec=$1 out rc
  shift
  out=$("$ATHREAD" compose "$spec" --engine explicit --json "$@" 2> "$spec.compose.err")
  rc=$?
  case $rc in
    0 | 1) python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["verdict"], j["statistics"]["states"])' <<< "$out" ;;
    *) echo "ERROR: athread compose $* exited $rc: $(head -n 2 "$spec.compose.err" | tr '\n' ' ')" ;;
  esac
}

# one_case NAME: checks $SCRATCH/specs/NAME.athread; writes PASS/SKIP/FAIL to $SCRATCH/results/NAME.
one_case() {
  local name=$1
  local spec=$SCRATCH/specs/$name.athread dir=$SCRATCH/run/$name expected problems=""
  mkdir -p "$dir"
  expected=$(oracle_expected "${name#seed-}")
  if ! "$ATHREAD" murphi "$spec" -o "$dir/sym.m" 2> "$dir/murphi.err"; then
    if grep -q "cannot export to Murphi" "$dir/murphi.err"; then echo "SKIP $name" > "$SCRATCH/results/$name"
    else echo "FAIL $name: athread murphi failed: $(head -n 1 "$dir/murphi.err")" > "$SCRATCH/results/$name"; fi
    return
  fi
  "$ATHREAD" murphi "$spec" --no-symmetry -o "$dir/plain.m" 2>> "$dir/murphi.err" || problems+="murphi --no-symmetry failed; "
  local r1 r2 c1 c2
  r1=$(rumur_run "$dir" sym)
  # without a scalarset the two models are the same: one verifier does
  if cmp -s "$dir/sym.m" "$dir/plain.m"; then r2=$r1; else r2=$(rumur_run "$dir" plain); fi
  c1=$(compose_run "$spec")
  c2=$(compose_run "$spec" --no-symmetry)
  local verdicts="rumur $r1, rumur (no symmetry) $r2, compose $c1, compose --no-symmetry $c2"
  for v in "$r1" "$r2" "$c1" "$c2"; do
    case $v in ERROR*) problems+="$v; " ;; esac
  done
  if [ -z "$problems" ]; then
    local verdict=${c2%% *}
    for v in "$r1" "$r2" "$c1"; do [ "${v%% *}" = "$verdict" ] || problems+="verdicts differ; "; done
    [ -z "$expected" ] || [ "$expected" = unknown ] || [ "$expected" = "$verdict" ] || problems+="the generator's search says $expected; "
    [ "$verdict" != safe ] || [ "${r2#* }" = "${c2#* }" ] || problems+="states without symmetry differ; "
  fi
  oracle_record "$name" "${c2%% *}" "$problems" "$verdicts"
}

oracle_dispatch "$@"

# ---------------------------------------------------------------- driver

export RUMUR_CFLAGS=${RUMUR_CFLAGS:--O0}
oracle_start rumur-oracle rumur 20 "$@"
names=()
for seed in $(seq "$first" $((first + count - 1))); do names+=("seed-$seed"); done
# the examples, at the N they declare (small)
for example in "$TESTS_DIR"/../examples/*/*.athread; do
  name=example-$(basename "$example" .athread)
  cp "$example" "$SCRATCH/specs/$name.athread"
  names+=("$name")
done

oracle_run "${names[@]}"

unsafe=0 skipped=0
for name in "${names[@]}"; do
  oracle_collect "$name" "$name" "$name" "$SCRATCH/specs/$name.athread"
done
echo "rumur-oracle: ${#names[@]} systems ($count random from seed $first, the rest examples), $unsafe unsafe, $skipped not exportable, $(($(date +%s) - start)) s"
summary rumur-oracle
[ $failed = 0 ]
