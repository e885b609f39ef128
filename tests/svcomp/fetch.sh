#!/usr/bin/env bash
# tests/svcomp/fetch.sh [TASK...] -- puts the SV-COMP tasks that
# tests/svcomp/tasks.txt marks `fetch` (or those of them named, as
# FOLDER/TASK or TASK) into tests/svcomp/cache/FOLDER/: the program and its
# .yml from sosy-lab/sv-benchmarks (folder c/FOLDER), each at the commit the
# manifest names, so that every checkout runs the same bytes. These files are
# not kept in the repository (see LICENSE.md). Checks: the program has the
# manifest's size, and the .yml names the program and gives the manifest's
# verdict for the manifest's property. A task whose cached files pass the
# checks is not downloaded again (a machine without network runs what its
# cache holds); otherwise both files are downloaded and checked again.
# Output: one line a task, `ok TASK` or `missing TASK`; why a task is
# missing goes to stderr. Exit status: 0 when every task is in the cache,
# 1 otherwise.
# Environment: ATHREAD_SVCOMP_DOWNLOAD=0 uses the cache only (make test: CI has no
# network); SVCOMP_RAW, the base URL (any URL curl reads, file:// too);
# SVCOMP_CACHE, the cache directory; SVCOMP_TASKS, the manifest.
set -u
here=$(cd "$(dirname "$0")" && pwd)
raw=${SVCOMP_RAW:-https://raw.githubusercontent.com/sosy-lab/sv-benchmarks}
cache=${SVCOMP_CACHE:-$here/cache}
tasks=${SVCOMP_TASKS:-$here/tasks.txt}
bad=0

# wanted TASK: whether the command line names the task, or names none.
wanted() {
  [ ${#names[@]} = 0 ] || printf '%s\n' "${names[@]}" | grep -qxF -e "$1" -e "${1##*/}"
}

# check TASK INPUT PROPERTY EXPECTED BYTES: whether the cached files agree
# with the manifest; when they do not, prints why.
check() {
  local dir=$cache/${1%/*} yml=$cache/$1.yml
  [ -f "$dir/$2" ] && [ -f "$yml" ] || { echo "not in the cache"; return 1; }
  [ "$(wc -c < "$dir/$2")" = "$5" ] || { echo "the cached $2 does not have $5 bytes"; return 1; }
  grep -q "^input_files: '$2'\$" "$yml" || { echo "the cached ${1##*/}.yml does not name $2"; return 1; }
  grep -A1 -F "/$3.prp" "$yml" | grep -q "expected_verdict: $4\$" ||
    { echo "the cached ${1##*/}.yml does not expect $4 for $3"; return 1; }
}

# download COMMIT FOLDER FILE: the file into the cache (replacing it only
# when the download succeeds); on failure sets `failed` to why.
download() {
  local out=$cache/$2/$3 url=$raw/$1/c/$2/$3 err
  [ "${ATHREAD_SVCOMP_DOWNLOAD:-1}" = 1 ] || { failed="downloads are off (ATHREAD_SVCOMP_DOWNLOAD=0)"; return 1; }
  mkdir -p "$cache/$2" || { failed="cannot create $cache/$2"; return 1; }
  if err=$(curl -fsS --connect-timeout 20 --max-time 120 -o "$out.tmp" "$url" 2>&1) && mv "$out.tmp" "$out"; then
    return 0
  fi
  rm -f "$out.tmp"
  failed="cannot download $url (${err:-mv failed})"
  return 1
}

# fetch TASK INPUT PROPERTY EXPECTED COMMIT BYTES YML-COMMIT: whether the
# task is in the cache afterwards; when it is not, says why on stderr.
fetch() {
  local why failed
  why=$(check "$1" "$2" "$3" "$4" "$6") && return 0
  if download "$5" "${1%/*}" "$2" && download "$7" "${1%/*}" "${1##*/}.yml"; then
    why=$(check "$1" "$2" "$3" "$4" "$6") && return 0
    echo "$1: downloaded, but $why" >&2
  else
    echo "$1: $why, and $failed" >&2
  fi
  return 1
}

names=("$@")
while read -r task input property expected _ _ where commit bytes ymlcommit; do
  case $task in '#'* | '') continue ;; esac
  [ "$where" = fetch ] && wanted "$task" || continue
  if fetch "$task" "$input" "$property" "$expected" "$commit" "$bytes" "$ymlcommit"; then
    echo "ok       $task"
  else
    echo "missing  $task"
    bad=1
  fi
done < "$tasks"
exit $bad
