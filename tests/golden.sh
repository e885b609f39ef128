#!/usr/bin/env bash
# tests/golden.sh -- runs golden CLI cases (tests/**/*.test).
#
# A case file holds a one-line comment, header lines and sections:
#   # what the case checks
#   args: lint SPEC            (SPEC is replaced by the spec's file name)
#   exit: 2
#   --- spec
#   ...the .athread text, written to NAME.athread (NAME = the case's file name)
#   --- c
#   ...optional C code, written to NAME.c (CFILE in args is replaced by its name)
#   --- stdout
#   ...expected standard output
#   --- stderr
#   ...expected standard error
# Usage: tests/golden.sh [--update] [--keep-specs DIR] CASE.test...
#   --update rewrites each case's expected sections from what athread prints.
#   --keep-specs copies every extracted spec to DIR (for the round-trip test).
set -u
source "$(dirname "$0")/setup"
update=0
keep=""
while [ $# -gt 0 ]; do
  case $1 in
    --update) update=1; shift ;;
    --keep-specs) keep=$2; shift 2 ;;
    *) break ;;
  esac
done

# section FILE NAME: prints the lines of section NAME ("--- NAME" up to the next "--- ").
section() { awk -v want="--- $2" '/^--- /{on = ($0 == want); next} on' "$1"; }
header() { sed -n "s/^$2: //p" "$1" | head -n 1; }

for case_file in "$@"; do
  name=$(basename "$case_file" .test)
  dir=$SCRATCH/$name
  mkdir -p "$dir"
  section "$case_file" spec > "$dir/$name.athread"
  [ -n "$keep" ] && cp "$dir/$name.athread" "$keep/"
  grep -q '^--- c$' "$case_file" && section "$case_file" c > "$dir/$name.c"
  args=$(header "$case_file" args)
  want_exit=$(header "$case_file" exit)
  args=${args//SPEC/$name.athread}
  read -r -a argv <<< "${args//CFILE/$name.c}"
  (cd "$dir" && $VALGRIND "$ATHREAD" "${argv[@]}" > out.stdout 2> out.stderr < /dev/null; echo $? > out.exit)
  got_exit=$(cat "$dir/out.exit")
  if [ $update = 1 ]; then
    { sed -n '1,/^--- spec$/p' "$case_file" | sed "s/^exit: .*/exit: $got_exit/"
      section "$case_file" spec
      grep -q '^--- c$' "$case_file" && { echo "--- c"; section "$case_file" c; }
      echo "--- stdout"; cat "$dir/out.stdout"
      echo "--- stderr"; cat "$dir/out.stderr"; } > "$dir/updated"
    cp "$dir/updated" "$case_file"
    continue
  fi
  problems=""
  [ "$got_exit" = "$want_exit" ] || problems="exit $got_exit, expected $want_exit; "
  diff -u <(section "$case_file" stdout) "$dir/out.stdout" > "$dir/stdout.diff" || problems+="stdout differs; "
  diff -u <(section "$case_file" stderr) "$dir/out.stderr" > "$dir/stderr.diff" || problems+="stderr differs; "
  if [ -z "$problems" ]; then
    pass
  else
    fail "$case_file: $problems"
    cat "$dir/stdout.diff" "$dir/stderr.diff" | head -n 40
  fi
done
[ $update = 1 ] || summary golden
[ $failed = 0 ]
