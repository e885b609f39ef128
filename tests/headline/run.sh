#!/usr/bin/env bash
# tests/headline/run.sh -- are the concrete Promela models of bench/headline
# faithful? For Bluetooth and battery, fixed and buggy, at N = 1 and 2:
#   - SPIN on bench/promela/SYSTEM-concrete.pml (-DBUGGY for the buggy C)
#     finds no assertion violation for the fixed code and one for the buggy;
#   - the C code conforms to its abstract threads (athread conform), and
#     athread compose on those abstract threads gives the same verdict.
# The abstract threads of battery-buggy.c are not among the examples; they
# are written below (battery.athread with the worker's dequeue moved before
# its release). Then `bash -n bench/headline` and a tiny run of it
# (MAX_N=1, limit 2 s) must print the table headers, the fitted bases and a
# speed-up line. Needs spin and gcc (scripts/deps.sh installs them).
# Ends with "headline: N passed, M failed".
set -u
source "$(dirname "$0")/../setup"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
export ATHREAD_INCLUDE=${ATHREAD_INCLUDE:-$ROOT/include}

for tool in spin gcc; do
  command -v $tool > /dev/null || { fail "$tool is not installed (scripts/deps.sh installs it)"; summary headline; exit 1; }
done

cat > "$SCRATCH/battery-buggy.athread" << 'EOF'
// The abstract threads of examples/battery/battery-buggy.c: battery.athread
// with the worker's last steps in the buggy order (dequeue, then release),
// and its bounds on InUseCount (C's integers).
const N = 2;
shared bool        WantToRemove     = false;
shared int[0..N+1] InUseCount       = 1;
shared bool        ReadyToRemove    = false;
shared int[0..1]   WorkerActive     = 0;
shared int[0..N]   NumQueuedWorkers = N;
shared bool        Removed          = false;
shared bool        Unloaded         = false;

thread Unload implements BatteryUnload {
  init state Start;
  state Removing assert InUseCount >= 1;
  state Signal, Waiting, Woken, Draining, Freeing, Done;
  Start    -> Removing do WantToRemove := true;
  Removing -> Signal   : InUseCount' == InUseCount - 1 && InUseCount' == 0;
  Removing -> Waiting  : InUseCount' == InUseCount - 1 && InUseCount' != 0;
  Signal   -> Waiting  do ReadyToRemove := true;
  Waiting  -> Woken    when ReadyToRemove;
  Woken    -> Draining do Removed := true;
  Draining -> Freeing  when NumQueuedWorkers == 0;
  Freeing  -> Done     do Unloaded := true;
}

thread Worker implements BatteryWorker {
  invariant InUseCount >= 0;
  init state Queued assert !Unloaded && NumQueuedWorkers >= 1 && InUseCount <= N;
  state Referenced, Waiting, Release
               assert !Unloaded && NumQueuedWorkers >= 1 && InUseCount >= 1;
  state Process assert !Unloaded && NumQueuedWorkers >= 1 && InUseCount >= 1
                       && WorkerActive == 1 && !Removed;
  state Dequeued assert !Unloaded && InUseCount >= 1;   // left the queue, still holds a reference
  state Signal assert !Unloaded;
  state Done;

  Queued     -> Referenced : InUseCount' == InUseCount + 1;
  Referenced -> Release    when WantToRemove;
  Referenced -> Waiting    when !WantToRemove;
  Waiting    -> Process    when WorkerActive == 0 do WorkerActive := 1;
  Process    -> Release    do WorkerActive := 0;
  Release    -> Dequeued   : NumQueuedWorkers' == NumQueuedWorkers - 1;   // THE BUG: dequeue first
  Dequeued   -> Signal     : InUseCount' == InUseCount - 1 && InUseCount' == 0;
  Dequeued   -> Done       : InUseCount' == InUseCount - 1 && InUseCount' != 0;
  Signal     -> Done       do ReadyToRemove := true;
}

system Battery {
  Unload;
  Worker[N];
  invariant count(Worker@Process) <= 1;
  invariant !Unloaded || count(Worker@Done) == N;
}
EOF

# spin_verdict MODEL N [-DBUGGY]: safe / unsafe (an assertion violation) /
# ERROR: why. The state spaces are tiny, so pan is compiled without -O2.
spin_verdict() {
  local dir
  dir=$(mktemp -d "$SCRATCH/spin.XXXXXX")
  cp "$ROOT/$1" "$dir/model.pml"
  (cd "$dir" && spin -DN="$2" ${3:-} -a model.pml > spin.out 2>&1) || { echo "ERROR: spin -a: $(head -n 2 "$dir/spin.out" | tr '\n' ' ')"; return; }
  (cd "$dir" && gcc -DSAFETY -w -o pan pan.c > gcc.out 2>&1) || { echo "ERROR: gcc: $(head -n 2 "$dir/gcc.out" | tr '\n' ' ')"; return; }
  (cd "$dir" && ./pan -E > pan.out 2>&1)
  if grep -q "max search depth too small" "$dir/pan.out"; then echo "ERROR: pan's depth bound was hit"
  elif grep -q "errors: 0" "$dir/pan.out"; then echo safe
  elif grep -q "assertion violated" "$dir/pan.out"; then echo unsafe
  else echo "ERROR: pan: $(tail -n 3 "$dir/pan.out" | tr '\n' ' ')"; fi
}

# athread_verdict compose|conform ARGS...: safe|conforms / unsafe|does-not-conform / ERROR.
athread_verdict() {
  local cmd=$1 out rc
  shift
  out=$($VALGRIND "$ATHREAD" "$cmd" "$@" 2>&1)
  rc=$?
  case $rc:$cmd in
    0:compose) echo safe ;;
    1:compose) echo unsafe ;;
    0:conform) echo conforms ;;
    1:conform) echo does-not-conform ;;
    *) echo "ERROR: athread $cmd $* exited with $rc: $(head -n 2 <<< "$out" | tr '\n' ' ')" ;;
  esac
}

# system : concrete model : variant flag : C file : abstract spec : expected verdict
cases=(
  "bluetooth:bench/promela/bluetooth-concrete.pml::examples/bluetooth/bluetooth.c:$ROOT/examples/bluetooth/bluetooth.athread:safe"
  "bluetooth-buggy:bench/promela/bluetooth-concrete.pml:-DBUGGY:examples/bluetooth/bluetooth-buggy.c:$ROOT/examples/bluetooth/bluetooth-buggy.athread:unsafe"
  "battery:bench/promela/battery-concrete.pml::examples/battery/battery.c:$ROOT/examples/battery/battery.athread:safe"
  "battery-buggy:bench/promela/battery-concrete.pml:-DBUGGY:examples/battery/battery-buggy.c:$SCRATCH/battery-buggy.athread:unsafe"
)
for c in "${cases[@]}"; do
  IFS=: read -r name model flag code spec expect <<< "$c"
  v=$(athread_verdict conform "$spec" "$ROOT/$code")
  [ "$v" = conforms ] && pass || fail "$name: athread conform $(basename "$spec") $code: $v (expected conforms)"
  for n in 1 2; do
    sv=$(spin_verdict "$model" "$n" "$flag")
    av=$(athread_verdict compose "$spec" --set "N=$n")
    [ "$sv" = "$expect" ] && pass || fail "$name N=$n: SPIN on $model ${flag:+$flag }says $sv (expected $expect)"
    [ "$av" = "$sv" ] && pass || fail "$name N=$n: athread compose says $av, SPIN on the concrete model says $sv"
  done
done

# The bench script itself: syntax, then a tiny run.
bash -n "$ROOT/bench/headline" && pass || fail "bash -n bench/headline"
out=$(MAX_N=1 ATHREAD="$ATHREAD" "$ROOT/bench/headline" 2 2>&1)
for want in "== Bluetooth:" "== Battery:" "SPIN on the concrete model" "SPIN on the abstract program" \
            "athread compose" "fitted exponential bases" "compose --for-all N"; do
  [ "$(grep -cF -- "$want" <<< "$out")" -ge 1 ] && pass || fail "bench/headline 2: no line with '$want'"
done
[ "$(grep -c '^speed-up at n = 1 ' <<< "$out")" = 2 ] && pass || fail "bench/headline 2: expected a 'speed-up at n = 1' line per system"
[ "$(grep -c '^  1 | ' <<< "$out")" = 2 ] && pass || fail "bench/headline 2: expected a table row for n = 1 per system"
[ "$(grep -c 'athread conform (once): conforms' <<< "$out")" = 2 ] && pass || fail "bench/headline 2: conform did not say 'conforms' for both systems"
[ $failed = 0 ] || sed 's/^/  | /' <<< "$out"

summary headline
