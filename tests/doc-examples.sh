#!/usr/bin/env bash
# tests/doc-examples.sh -- every ```athread block of README.md and docs/*.md
# is a complete spec: extract each, lint it (clean, no warnings), and check
# that fmt output re-lints and that the block is already canonical.
set -u
source "$(dirname "$0")/setup"
root=$(cd "$TESTS_DIR/.." && pwd)
for doc in "$root"/README.md "$root"/docs/*.md; do
  [ -f "$doc" ] || continue
  awk -v dir="$SCRATCH" -v base="$(basename "$doc" .md)" '
    /^```athread$/ { n++; file = sprintf("%s/%s-%d.athread", dir, base, n); on = 1; next }
    /^```$/ { on = 0 }
    on { print > file }' "$doc"
done
for spec in "$SCRATCH"/*.athread; do
  [ -f "$spec" ] || continue
  if out=$($VALGRIND "$ATHREAD" lint "$spec" 2>&1) && [ -z "$out" ]; then pass; else fail "$(basename "$spec"): $out"; fi
  if "$ATHREAD" fmt "$spec" > "$spec.fmt" && $VALGRIND "$ATHREAD" lint -w "$spec.fmt" 2>/dev/null; then pass; else fail "$(basename "$spec"): fmt output does not lint"; fi
  if "$ATHREAD" fmt --check "$spec" > /dev/null; then pass; else fail "$(basename "$spec"): not in fmt's canonical layout"; fi
done
# The error shown in README.md is exactly what tests/readme/driver.test pins.
shown=$(awk '/^--- stderr$/{on=1; next} on' "$TESTS_DIR/readme/driver.test")
readme=$(cat "$root/README.md")
if [[ $readme == *"$shown"* ]]; then pass; else fail "README.md does not show the output pinned by tests/readme/driver.test"; fi
# The compose run shown in README.md is exactly what tests/readme/bluetooth-buggy.test pins
# (up to the spec's directory, which the README's spec:L:C locations name and the test's do not,
# and so up to the width of the trace's columns).
spec_names() { sed -E 's#[^ ]*/([^/ ]+\.athread:)#\1#g' | tr -s ' '; }
shown=$(awk '/^--- stdout$/{on=1; next} /^--- stderr$/{on=0} on' "$TESTS_DIR/readme/bluetooth-buggy.test" | spec_names)
if [[ $(spec_names <<< "$readme") == *"$shown"* ]]; then pass; else fail "README.md does not show the output pinned by tests/readme/bluetooth-buggy.test"; fi
# The symbolic run shown in README.md is what tests/compose/symbolic-figure2.test pins.
shown=$(awk '/^--- stdout$/{on=1; next} /^--- stderr$/{on=0} on' "$TESTS_DIR/compose/symbolic-figure2.test")
if [[ $readme == *"$shown"* ]]; then pass; else fail "README.md does not show the output pinned by tests/compose/symbolic-figure2.test"; fi
# The struct example of README.md is exactly tests/conform/struct-field-binds.test's spec and C.
for part in spec c; do
  shown=$(awk -v want="--- $part" '/^--- /{on = ($0 == want); next} on' "$TESTS_DIR/conform/struct-field-binds.test")
  if [[ $readme == *"$shown"* ]]; then pass; else fail "README.md does not show the $part of tests/conform/struct-field-binds.test"; fi
done
summary docs
[ $failed = 0 ]
