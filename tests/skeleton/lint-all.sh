#!/usr/bin/env bash
# tests/skeleton/lint-all.sh -- athread skeleton on real programs: every C
# file under examples/ that starts threads, the C files of the golden cases
# in tests/skeleton/, and the program of every task of tests/svcomp/tasks.txt
# (the SV-COMP ones from the cache that tests/svcomp/fetch.sh fills; a task
# it cannot get fails, unless ATHREAD_SVCOMP_OPTIONAL=1: see
# tests/svcomp/lib.sh). Each draft must pass athread lint (no errors) and
# athread fmt --check, and -o must write the same text atomically.
set -u
source "$(dirname "$0")/../setup"
source "$TESTS_DIR/svcomp/lib.sh"
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

# The tasks of tests/svcomp/tasks.txt.
svcomp_fetch
skipped=0
while read -r -u 3 task input _ _ _ _ where _; do
  case $task in '#'* | '') continue ;; esac
  if ! prog=$(svcomp_program "$task" "$input" "$where"); then
    why="svcomp/$task: not in the cache, and tests/svcomp/fetch.sh could not get it"
    if svcomp_optional; then skipped=$((skipped + 1)); echo "SKIP: $why (ATHREAD_SVCOMP_OPTIONAL=1)"
    else fail "$why (no network? ATHREAD_SVCOMP_OPTIONAL=1 skips it)"; fi
    continue
  fi
  check "svcomp/${task%/*}/$input" "$(dirname "$prog")" "$input"
done 3< "$SVCOMP_TASKS"
[ $skipped = 0 ] || echo "skeleton-lint: $skipped SV-COMP tasks skipped, not tested"

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
