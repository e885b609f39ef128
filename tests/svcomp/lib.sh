# tests/svcomp/lib.sh -- sourced by the drivers that run the tasks of
# tests/svcomp/tasks.txt (tests/svcomp/conform.sh, tests/skeleton/lint-all.sh),
# after tests/setup: where the manifest and the cache are, getting the
# fetched tasks, and the rule for a task that could not be got.
# A fetched task that tests/svcomp/fetch.sh cannot get (no network and no
# cache) is a failure of the driver run alone. ATHREAD_SVCOMP_OPTIONAL=1
# reports such a task and does not count it: tests/run-all.sh (make test,
# CI) sets it, with ATHREAD_SVCOMP_DOWNLOAD=0, as CI has no network and no
# cache, so CI runs none of the fetched tasks.
SVCOMP_DIR=$TESTS_DIR/svcomp
export SVCOMP_TASKS=${SVCOMP_TASKS:-$SVCOMP_DIR/tasks.txt}
export SVCOMP_CACHE=${SVCOMP_CACHE:-$SVCOMP_DIR/cache}

# svcomp_fetch [TASK...]: runs fetch.sh (its reasons go to stderr) and
# records which fetched tasks are in the cache.
svcomp_fetch() {
  "$SVCOMP_DIR/fetch.sh" "$@" > "$SCRATCH/svcomp-fetch.out"
}

# svcomp_program TASK INPUT WHERE: the path of the task's program, or
# nothing (status 1) when it is fetched and fetch.sh could not get it.
svcomp_program() {
  if [ "$3" != fetch ]; then echo "$SVCOMP_DIR/${1%/*}/$2"; return 0; fi
  awk -v t="$1" '$1 == "ok" && $2 == t { found = 1 } END { exit !found }' "$SCRATCH/svcomp-fetch.out" || return 1
  echo "$SVCOMP_CACHE/${1%/*}/$2"
}

# svcomp_optional: whether a task that could not be got is left uncounted.
svcomp_optional() { [ "${ATHREAD_SVCOMP_OPTIONAL:-0}" = 1 ]; }
