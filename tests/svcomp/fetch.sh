#!/usr/bin/env bash
# tests/svcomp/fetch.sh -- puts the SV-COMP tasks that tests/svcomp/tasks.txt
# marks `fetch` into tests/svcomp/cache/FOLDER/: the program and its .yml
# from sosy-lab/sv-benchmarks (folder c/FOLDER), each at the commit the
# manifest names, so that every checkout runs the same bytes. These files are
# not kept in the repository (see LICENSE.md). A file already in the cache is
# kept when it passes the checks. Checks: the program has the manifest's
# size, and the .yml names the program and the manifest's unreach-call
# verdict. Exit status: 0 when every task is in the cache, 1 otherwise.
set -u
here=$(cd "$(dirname "$0")" && pwd)
raw=${SVCOMP_RAW:-https://raw.githubusercontent.com/sosy-lab/sv-benchmarks}
bad=0

# get COMMIT FOLDER FILE: the file into the cache, unless it is there already.
get() {
  local out=$here/cache/$2/$3
  [ -s "$out" ] && return 0
  mkdir -p "$here/cache/$2"
  curl -fsSL --max-time 60 -o "$out.tmp" "$raw/$1/c/$2/$3" && mv "$out.tmp" "$out" || { rm -f "$out.tmp"; return 1; }
}

# check TASK INPUT EXPECTED BYTES: the cached files agree with the manifest.
check() {
  local dir=$here/cache/${1%/*} name=${1##*/}
  [ "$(wc -c < "$dir/$2")" = "$4" ] || { echo "$1: $2 does not have $4 bytes" >&2; return 1; }
  grep -q "^input_files: '$2'" "$dir/$name.yml" || { echo "$1: $name.yml does not name $2" >&2; return 1; }
  grep -A1 'unreach-call.prp' "$dir/$name.yml" | grep -q "expected_verdict: $3" ||
    { echo "$1: $name.yml does not expect $3" >&2; return 1; }
}

while read -r task input expected _ _ where commit bytes ymlcommit; do
  case $task in '#'* | '') continue ;; esac
  [ "$where" = fetch ] || continue
  folder=${task%/*} name=${task##*/}
  if get "$commit" "$folder" "$input" && get "$ymlcommit" "$folder" "$name.yml" &&
    check "$task" "$input" "$expected" "$bytes"; then
    echo "ok       $task"
  else
    echo "missing  $task"
    bad=1
  fi
done < "$here/tasks.txt"
exit $bad
