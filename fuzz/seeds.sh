#!/usr/bin/env bash
# fuzz/seeds.sh OUT -- writes the seed corpora of the fuzz harnesses to
# OUT/spec, OUT/cfront and OUT/trace (nothing is committed; run from the
# repository root, ATHREAD names the binary that writes the trace seeds):
#   spec    every .athread of examples/ and the spec section of every tests/**/*.test
#   cfront  every C file of examples/ and the c section of every test, as it
#           is and as cpp writes it (line markers of the file itself renamed
#           to the harness's "fuzz.i")
#   trace   compose --trace-out of variants of bluetooth.athread (the
#           harness's spec) whose invariant fails, conform --json of its C
#           code, and the compose traces of the other examples (they do not
#           fit: the reader's checks)
set -u
out=${1:?usage: fuzz/seeds.sh OUT}
ATHREAD=${ATHREAD:-bin/athread}
rm -rf "$out"
mkdir -p "$out/spec" "$out/cfront" "$out/trace" "$out/tmp"

# section FILE NAME: the lines of section NAME ("--- NAME" up to the next "--- ").
section() { awk -v want="--- $2" '/^--- /{on = ($0 == want); next} on' "$1"; }

for f in examples/*/*.athread; do cp "$f" "$out/spec/$(basename "$f")"; done
for f in tests/*/*.test; do
  name=$(basename "$(dirname "$f")")-$(basename "$f" .test)
  section "$f" spec > "$out/spec/$name.athread"
  grep -q '^--- c$' "$f" && section "$f" c > "$out/cfront/$name.c"
done
for f in examples/*/*.c; do cp "$f" "$out/cfront/$(basename "$(dirname "$f")")-$(basename "$f")"; done
for f in "$out"/cfront/*.c; do
  cpp -D__ATHREAD__ -I include "$f" > "$out/tmp/cpp.i" 2> /dev/null || continue
  sed "s|^\(# [0-9]* \)\"$f\"|\1\"fuzz.i\"|" "$out/tmp/cpp.i" > "${f%.c}.i"
done

spec=examples/bluetooth/bluetooth.athread
n=0
for inv in '!stopped' 'pendingIO < 2' 'count(Worker@Done) < 2' '!stoppingEvent' 'count(Worker@Abort) == 0'; do
  n=$((n + 1))
  sed "s/invariant .*;/invariant $inv;/" "$spec" > "$out/tmp/bt$n.athread"
  "$ATHREAD" compose "$out/tmp/bt$n.athread" --trace-out "$out/trace/compose-bluetooth-$n.json" > /dev/null 2>&1
done
for c in examples/bluetooth/*.c; do
  "$ATHREAD" conform "$spec" "$c" -I include --json --no-timing > "$out/trace/conform-$(basename "$c" .c).json" 2> /dev/null
done
for s in examples/*/*.athread; do
  "$ATHREAD" compose "$s" --trace-out "$out/trace/compose-$(basename "$s" .athread).json" > /dev/null 2>&1
done
find "$out/trace" -empty -delete
rm -rf "$out/tmp"
echo "seeds: $(ls "$out/spec" | wc -l) spec, $(ls "$out/cfront" | wc -l) cfront, $(ls "$out/trace" | wc -l) trace in $out"
