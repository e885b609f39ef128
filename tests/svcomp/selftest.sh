#!/usr/bin/env bash
# tests/svcomp/selftest.sh -- the scripts that get and run the tasks of
# tests/svcomp/tasks.txt, without network: fetch.sh against a file://
# mirror (a download, the cache reused offline, a damaged cached file
# replaced or reported, a verdict for the wrong property), and
# conform.sh and tests/skeleton/lint-all.sh on a task that cannot be got
# (a failure, unless ATHREAD_SVCOMP_OPTIONAL=1). The task is athread's own
# regress/counter-race under another name, described by a manifest of its
# own (SVCOMP_TASKS), so the real cache is never touched.
set -u
source "$(dirname "$0")/../setup"
here=$TESTS_DIR/svcomp
commit=0123456789abcdef0123456789abcdef01234567
mirror=$SCRATCH/mirror
export SVCOMP_CACHE=$SCRATCH/cache SVCOMP_TASKS=$SCRATCH/tasks.txt
unset ATHREAD_SVCOMP_OPTIONAL
export ATHREAD_SVCOMP_DOWNLOAD=1

# manifest PROPERTY: a manifest of the one task demo/counter.
manifest() {
  printf 'demo/counter counter.c %s false 23 athread fetch %s %s %s\n' \
    "$1" $commit "$(wc -c < "$here/regress/counter-race.c")" $commit > "$SVCOMP_TASKS"
}

# expect NAME STATUS PATTERN FILE: the last command's status was STATUS
# and FILE holds a line matching PATTERN.
expect() {
  if [ "$rc" = "$2" ] && grep -q -e "$3" "$4"; then pass; else
    fail "$1 (exit $rc, wanted $2; no line /$3/ in:)"; sed 's/^/  /' "$4" | head -n 5
  fi
}

# fetch [ONLINE]: fetch.sh from the mirror, or from nowhere; sets rc.
fetch() {
  local raw=file://$SCRATCH/nowhere
  [ -n "${1:-}" ] && raw=file://$mirror
  SVCOMP_RAW=$raw "$here/fetch.sh" > "$SCRATCH/out" 2>&1
  rc=$?
}

mkdir -p "$mirror/$commit/c/demo"
cp "$here/regress/counter-race.c" "$mirror/$commit/c/demo/counter.c"
sed 's/counter-race\.c/counter.c/' "$here/regress/counter-race.yml" > "$mirror/$commit/c/demo/counter.yml"
manifest unreach-call

fetch
expect "fetch.sh offline, empty cache" 1 '^demo/counter: not in the cache, and cannot download file://' "$SCRATCH/out"
fetch online
expect "fetch.sh downloads from the mirror" 0 '^ok  *demo/counter$' "$SCRATCH/out"
if cmp -s "$SVCOMP_CACHE/demo/counter.c" "$here/regress/counter-race.c"; then pass; else fail "fetch.sh cached other bytes"; fi
fetch
expect "fetch.sh offline keeps a cached task that passes its checks" 0 '^ok  *demo/counter$' "$SCRATCH/out"
head -c 100 "$here/regress/counter-race.c" > "$SVCOMP_CACHE/demo/counter.c"
fetch
expect "fetch.sh offline reports a damaged cached file" 1 'the cached counter.c does not have' "$SCRATCH/out"
fetch online
expect "fetch.sh replaces a damaged cached file" 0 '^ok  *demo/counter$' "$SCRATCH/out"
manifest no-data-race
fetch online
expect "fetch.sh checks the verdict of the manifest's property" 1 'counter.yml does not expect false for no-data-race' "$SCRATCH/out"

manifest unreach-call
rm -rf "$SVCOMP_CACHE"
SVCOMP_RAW=file://$SCRATCH/nowhere "$here/conform.sh" > "$SCRATCH/out" 2> /dev/null
rc=$?
expect "conform.sh fails on a task it cannot get" 1 '^demo/counter .* missing: fetch.sh could not get it$' "$SCRATCH/out"
ATHREAD_SVCOMP_OPTIONAL=1 SVCOMP_RAW=file://$SCRATCH/nowhere "$here/conform.sh" > "$SCRATCH/out" 2> /dev/null
rc=$?
expect "conform.sh with ATHREAD_SVCOMP_OPTIONAL=1" 0 'not counted (ATHREAD_SVCOMP_OPTIONAL=1)$' "$SCRATCH/out"
SVCOMP_RAW=file://$SCRATCH/nowhere "$TESTS_DIR/skeleton/lint-all.sh" > "$SCRATCH/out" 2> /dev/null
rc=$?
expect "lint-all.sh fails on a task it cannot get" 1 '^FAIL: svcomp/demo/counter: not in the cache' "$SCRATCH/out"
ATHREAD_SVCOMP_OPTIONAL=1 SVCOMP_RAW=file://$SCRATCH/nowhere "$TESTS_DIR/skeleton/lint-all.sh" > "$SCRATCH/out" 2> /dev/null
rc=$?
expect "lint-all.sh with ATHREAD_SVCOMP_OPTIONAL=1" 0 '^SKIP: svcomp/demo/counter: .*(ATHREAD_SVCOMP_OPTIONAL=1)$' "$SCRATCH/out"

summary svcomp-scripts
[ $failed = 0 ]
