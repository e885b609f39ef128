#!/usr/bin/env bash
# tests/infer/run.sh -- athread infer end to end: every golden case of
# tests/infer/ that drafts a spec (exit 0) must give a draft that lints
# without a warning and is already in fmt's layout; a case with a
# `check: VERDICT` header is then checked against its own C code, and
# check's verdict line must begin with VERDICT ("safe", "not proved").
# Then what infer does with its options: -o writes the file (atomically,
# nothing on stdout), -D reaches clang, and the usage errors.
set -u
source "$(dirname "$0")/../setup"
cases=$(cd "$(dirname "$0")" && pwd)
cd "$SCRATCH"

section() { awk -v want="--- $2" '/^--- /{on = ($0 == want); next} on' "$1"; }
header() { sed -n "s/^$2: //p" "$1" | head -n 1; }

for case_file in "$cases"/*.test; do
  name=$(basename "$case_file" .test)
  [ "$(header "$case_file" exit)" = 0 ] || continue
  section "$case_file" c > "$name.c"
  if ! "$ATHREAD" infer "$name.c" -o "$name.athread" 2> err.txt; then
    fail "$name: infer failed: $(head -n 3 err.txt)"
    continue
  fi
  if "$ATHREAD" lint -Werror "$name.athread" > /dev/null 2>&1 && "$ATHREAD" fmt "$name.athread" | cmp -s - "$name.athread"; then
    pass
  else
    fail "$name: the draft does not lint cleanly, or is not in fmt's layout"
  fi
  want=$(header "$case_file" check)
  [ -n "$want" ] || continue
  "$ATHREAD" check "$name.athread" "$name.c" --no-timing --timeout 120 > check.out 2>&1
  got=$(sed -n 's/^verdict: //p' check.out)
  case $got in
    "$want"*) pass ;;
    *) fail "$name: check says '$got', expected '$want...'"; tail -n 5 check.out ;;
  esac
done

# -o: the draft in the file, nothing on stdout; -D reaches clang.
section "$cases/loop-counter.test" c | sed 's/k < 3/k < LIMIT/' > limit.c
if "$ATHREAD" infer limit.c -D LIMIT=2 -o limit.athread > out.txt 2>&1 && [ ! -s out.txt ] &&
  [ "$(grep -c 'do i := i + j' limit.athread)" = 2 ]; then
  pass
else
  fail "infer -D LIMIT=2 -o: expected two increments in limit.athread and nothing on stdout"
fi
# An output file that cannot be written: exit 2, no partial file.
if "$ATHREAD" infer limit.c -D LIMIT=2 -o no-such-dir/x.athread > /dev/null 2> err.txt; then
  fail "infer -o into a missing directory succeeded"
else
  [ $? = 2 ] && [ ! -e no-such-dir ] && grep -q 'error' err.txt && pass || fail "infer -o no-such-dir: expected exit 2 and an error"
fi
# Usage: no file, an unknown option.
"$ATHREAD" infer > /dev/null 2> err.txt
[ $? = 2 ] && grep -q 'no C file given' err.txt && pass || fail "infer without a file: expected exit 2 and 'no C file given'"
"$ATHREAD" infer --frobnicate limit.c > /dev/null 2> err.txt
[ $? = 2 ] && pass || fail "infer --frobnicate: expected exit 2"
"$ATHREAD" infer --help | grep -q '^usage: athread infer' && pass || fail "infer --help: no usage line"

summary infer
[ "$failed" = 0 ]
