#!/usr/bin/env bash
# tests/skeleton/lint-all.sh -- athread skeleton on real programs: every C
# file under examples/ that starts threads, the C files of the golden cases
# in tests/skeleton/, and the SV-COMP tasks of tests/svcomp/. Each draft must
# pass athread lint (no errors) and athread fmt --check, and -o must write
# the same text atomically.
set -u
source "$(dirname "$0")/../setup"
root=$(cd "$TESTS_DIR/.." && pwd)

# check NAME DIR FILE.c: skeleton in DIR, then lint and fmt --check of the draft.
check() {
  local name=$1 dir=$2 file=$3 draft=$SCRATCH/draft.athread
  if ! (cd "$dir" && $VALGRIND "$ATHREAD" skeleton "$file") > "$draft" 2> "$SCRATCH/err"; then
    fail "$name: skeleton failed"; head -n 5 "$SCRATCH/err"; return
  fi
  if ! "$ATHREAD" lint "$draft" > "$SCRATCH/lint" 2>&1 || grep -q 'error:' "$SCRATCH/lint"; then
    fail "$name: the draft does not lint"; head -n 8 "$SCRATCH/lint"; return
  fi
  if "$ATHREAD" fmt --check "$draft" 2> /dev/null; then pass; else fail "$name: the draft is not in canonical layout"; fi
}

# Golden cases whose C file skeleton accepts (exit 0).
cases=$SCRATCH/cases
mkdir -p "$cases"
for t in "$TESTS_DIR"/skeleton/*.test; do
  grep -q '^exit: 0$' "$t" && grep -q '^--- c$' "$t" || continue
  name=$(basename "$t" .test)
  awk '/^--- /{on = ($0 == "--- c"); next} on' "$t" > "$cases/$name.c"
  check "tests/skeleton/$name" "$cases" "$name.c"
done

# Examples that start threads.
while IFS= read -r f; do
  check "${f#"$root"/}" "$root" "$f"
done < <(grep -lE 'pthread_create|CreateThread|PsCreateSystemThread|kthread_run' "$root"/examples/*/*.c 2> /dev/null)

# SV-COMP tasks: the program each .yml names.
for yml in "$TESTS_DIR"/svcomp/*/*.yml; do
  dir=$(dirname "$yml")
  input=$(sed -n "s/^input_files: '\(.*\)'$/\1/p" "$yml")
  check "svcomp/$(basename "$dir")/$input" "$dir" "$input"
done

# -o writes exactly what stdout gets; a failed run leaves no file.
c=$cases/two-kinds.c
"$ATHREAD" skeleton "$c" > "$SCRATCH/stdout.athread"
if "$ATHREAD" skeleton "$c" -o "$SCRATCH/out.athread" && cmp -s "$SCRATCH/out.athread" "$SCRATCH/stdout.athread"; then pass
else fail "skeleton -o wrote something else than stdout"; fi
printf 'int x = ;\n' > "$SCRATCH/broken.c"
if ! "$ATHREAD" skeleton "$SCRATCH/broken.c" -o "$SCRATCH/none.athread" 2> /dev/null && [ ! -e "$SCRATCH/none.athread" ] &&
  [ -z "$(ls "$SCRATCH" | grep 'none.athread.')" ]; then pass
else fail "a failed skeleton -o left a file"; fi

summary skeleton-lint
[ $failed = 0 ]
