#!/usr/bin/env bash
# tests/mutate.sh -- robustness smoke test: feeds athread lint and fmt with
# byte-level mutations of every spec we have (a fixed seed, so runs repeat)
# and fails on any exit code other than 0, 1 or 2, or on any sanitizer or
# crash report. The real fuzzing campaign is `make fuzz`.
set -u
source "$(dirname "$0")/setup"
root=$(cd "$TESTS_DIR/.." && pwd)
count=${MUTATIONS:-300}
seeds=("$root"/examples/*/*.athread)
for case_file in "$root"/tests/*/*.test; do
  awk '/^--- /{on = ($0 == "--- spec"); next} on' "$case_file" > "$SCRATCH/seed-$(basename "$case_file" .test).athread"
done
seeds+=("$SCRATCH"/seed-*.athread)
mkdir -p "$SCRATCH/mutants"
python3 - "$SCRATCH/mutants" "$count" "${seeds[@]}" <<'PY'
import random, sys
out, count, seeds = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
tokens = [b"'", b'"', b'/*', b'*/', b'{', b'}', b';', b'->', b':=', b'==>', b'(', b')', b'[', b']', b'@', b'count(',
          b'tid', b'state', b'init', b'\xff', b'\x00', b'0x', b'99999999999999999999', b'..', b'*', b'/', b'%', b'\n']
for i in range(count):
    data = bytearray(open(seeds[i % len(seeds)], 'rb').read())
    rng = random.Random(i)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(4)
        pos = rng.randrange(len(data) + 1)
        if op == 0 and data: del data[pos % len(data)]
        elif op == 1: data[pos:pos] = rng.choice(tokens)
        elif op == 2 and data: data[pos % len(data)] = rng.randrange(256)
        else:
            a, b = sorted((rng.randrange(len(data) + 1), rng.randrange(len(data) + 1)))
            data[pos:pos] = data[a:b]
    open('%s/m%04d.athread' % (out, i), 'wb').write(bytes(data))
PY
for mutant in "$SCRATCH"/mutants/*.athread; do
  for cmd in lint fmt; do
    "$ATHREAD" "$cmd" "$mutant" > /dev/null 2> "$SCRATCH/err"
    rc=$?
    if [ $rc -le 2 ] && ! grep -qE 'Sanitizer|runtime error' "$SCRATCH/err"; then
      pass
    else
      fail "$(basename "$mutant") ($cmd): exit $rc (kept as /tmp/athread-$(basename "$mutant"))"
      head -n 5 "$SCRATCH/err"
      cp "$mutant" "/tmp/athread-$(basename "$mutant")"
    fi
  done
done
summary mutate
[ $failed = 0 ]
