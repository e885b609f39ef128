#!/usr/bin/env bash
# fuzz/run.sh smoke|long HARNESS... -- runs the libFuzzer harnesses that
# `make fuzz-build` put in $FUZZ_BUILD/fuzz (called by make fuzz-smoke and
# make fuzz; run from the repository root).
#   smoke  replays every file of tests/fuzz-regress/HARNESS/ through its
#          harness, then fuzzes each harness FUZZ_SECONDS from the seeds
#          (fuzz/seeds.sh) into a scratch corpus; fails on any crash, leak,
#          timeout or out-of-memory.
#   long   fuzzes each harness FUZZ_SECONDS, growing the corpus kept in
#          $FUZZ_BUILD/corpus/HARNESS; with FUZZ_JOBS > 1, libFuzzer -jobs
#          runs that many FUZZ_SECONDS runs on FUZZ_WORKERS processes (default
#          FUZZ_JOBS). Crashes go to $FUZZ_BUILD/crashes/HARNESS/, logs to
#          $FUZZ_BUILD/logs/.
# Ends with "fuzz: N passed, N failed" (one per replay and per run).
set -u
mode=${1:?usage: fuzz/run.sh smoke|long HARNESS...}
shift
FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_JOBS=${FUZZ_JOBS:-1}
FUZZ_WORKERS=${FUZZ_WORKERS:-}
options=(-max_len=16384 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
passed=0
failed=0
# check NAME LOG COMMAND...: runs the command (output to LOG), counts the result.
check() {
  local name=$1 log=$2 rc
  shift 2
  "$@" > "$log" 2>&1 < /dev/null
  rc=$?
  if [ $rc = 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $name (exit $rc; the end of $log:)"
    tail -n 40 "$log"
  fi
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
# Fresh seeds for every smoke run; long runs (several may run at once) write
# theirs once and keep them.
mkdir -p "$FUZZ_BUILD/logs"
build=$(cd "$FUZZ_BUILD" && pwd) # absolute: libFuzzer -jobs runs in the logs directory
seeds=$build/seeds
[ "$mode" = smoke ] && seeds=$build/smoke-seeds
if [ "$mode" = smoke ] || [ ! -d "$seeds/trace" ]; then
  ATHREAD=$build/bin/athread fuzz/seeds.sh "$seeds" || exit 1
fi
for h in "$@"; do
  bin=$build/fuzz/fuzz-$h
  dict=$PWD/fuzz/dict/$h.dict
  log=$build/logs/$mode-$h.log
  mkdir -p "$build/crashes/$h"
  if [ "$mode" = smoke ]; then
    regress=(tests/fuzz-regress/"$h"/*)
    [ -e "${regress[0]}" ] && check "replay tests/fuzz-regress/$h" "$log.replay" "$bin" "${options[@]}" "${regress[@]}"
    corpus=$build/smoke-corpus/$h
    rm -rf "$corpus"
    mkdir -p "$corpus"
    echo "fuzz-$h: ${FUZZ_SECONDS}s (log $log)"
    check "fuzz-$h" "$log" "$bin" "${options[@]}" -dict="$dict" -max_total_time="$FUZZ_SECONDS" \
      -artifact_prefix="$build/crashes/$h/" "$corpus" "$seeds/$h"
  else
    corpus=$build/corpus/$h
    mkdir -p "$corpus"
    parallel=()
    [ "$FUZZ_JOBS" -gt 1 ] && parallel=(-jobs="$FUZZ_JOBS" -workers="${FUZZ_WORKERS:-$FUZZ_JOBS}")
    echo "fuzz-$h: ${FUZZ_SECONDS}s, $FUZZ_JOBS job(s) (log $log; with jobs also $build/logs/fuzz-N.log)"
    check "fuzz-$h" "$log" env -C "$build/logs" "$bin" "${options[@]}" "${parallel[@]}" -dict="$dict" \
      -max_total_time="$FUZZ_SECONDS" -artifact_prefix="$build/crashes/$h/" "$corpus" "$seeds/$h"
  fi
  grep -h "DONE\|^stat::\(number_of_executed_units\|new_units_added\|peak_rss_mb\)" "$log" | sed "s/^/  fuzz-$h: /"
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" = 0 ]
