#!/usr/bin/env bash
# tests/svcomp/races-survey.sh [--timeout SEC] -- a survey for the coming
# `athread races`, not a test (make test does not run it; it always exits 0
# unless the manifest cannot be read): for every no-data-race task of
# tests/svcomp/tasks.txt, what athread can do today with the program. One
# row a task, then a line of totals:
#   TASK EXPECTED LINES SKELETON THREADS CONFORM RACES [WHY]
# SKELETON is `ok` when athread skeleton (libclang) drafts a spec, `error`
# when it does not (WHY: its first error). THREADS is the draft's thread
# kinds / thread instances of its system (`-` without a draft; `*` for an
# instance count that is not a number). CONFORM runs athread conform on the
# one-state draft, only to see whether conform's C front end takes the
# threads' code: `accepted` (it translated the code: the verdict, mostly
# "does not conform" as a one-state draft must, is meaningless here),
# `rejected` (exit 2, WHY: the first error), `unknown` (exit 3, a timeout),
# `internal` (exit 4), `-` without a draft. RACES is what `athread races`
# says: `no-race` (exit 0; `WRONG` when the task is racy), `unknown` (exit
# 3), `error` (2) or `internal` (4). The files come from the cache
# that tests/svcomp/fetch.sh fills (`missing` when a task is not there).
# Environment: ATHREAD, ATHREAD_INCLUDE (include/ of this checkout unless
# set), SVCOMP_TASKS, SVCOMP_CACHE, as for the other drivers.
set -u
source "$(dirname "$0")/../setup"
source "$TESTS_DIR/svcomp/lib.sh"
export ATHREAD_INCLUDE=${ATHREAD_INCLUDE:-$(cd "$TESTS_DIR/.." && pwd)/include}
timeout=20
if [ "${1:-}" = --timeout ]; then timeout=$2; shift 2; fi

# first_error FILE: the first error line of a diagnostics file, without the
# file name (the task's row names it), or its first line.
first_error() {
  local line
  line=$(grep -m1 'error' "$1" || head -n 1 "$1")
  line=${line#*.[ci]:}
  printf '%s' "${line:-no message}"
}

# threads DRAFT: thread kinds / instances of the draft's system.
threads() {
  awk '/^thread /{k++} /^system /{on=1; next} on && /^}/{on=0}
       on && /^  [A-Za-z_]/ { if (match($0, /\[[0-9]+\]/)) n += substr($0, RSTART+1, RLENGTH-2); else if (/\[/) star=1; else n++ }
       END { printf "%d/%s", k, star ? "*" : n + 0 }' "$1"
}

# conform_column DRAFT PROGRAM: the CONFORM column, and WHY after a tab.
conform_column() {
  (cd "$(dirname "$2")" && "$ATHREAD" conform "$1" "$(basename "$2")" --timeout "$timeout") \
    > "$SCRATCH/conform.out" 2> "$SCRATCH/conform.err"
  case $? in
    0 | 1) printf 'accepted' ;;
    2) printf 'rejected\t%s' "$(first_error "$SCRATCH/conform.err")" ;;
    3) printf 'unknown\t%s' "$(grep -m1 '^verdict' "$SCRATCH/conform.out")" ;;
    *) printf 'internal\t%s' "$(first_error "$SCRATCH/conform.err")" ;;
  esac
}

# races_column EXPECTED PROGRAM: the RACES, LAYER and SECONDS columns.
races_column() {
  local start end rc
  start=$(date +%s.%N)
  (cd "$(dirname "$2")" && "$ATHREAD" races "$(basename "$2")") > /dev/null 2>&1
  rc=$?
  end=$(date +%s.%N)
  case $rc in
    0) [ "$1" = false ] && printf 'WRONG    lockset' || printf 'no-race  lockset' ;;
    1) [ "$1" = true ] && printf 'WRONG    search ' || printf 'race     search ' ;;
    3) printf 'unknown  -      ' ;;
    2) printf 'error    -      ' ;;
    *) printf 'internal -      ' ;;
  esac
  awk -v a="$start" -v b="$end" 'BEGIN { printf " %7.2f", b - a }'
}

# survey TASK EXPECTED PROGRAM: prints the task's row.
survey() {
  local draft=$SCRATCH/draft.athread lines col why
  lines=$(grep -c '' "$3")
  if ! (cd "$(dirname "$3")" && "$ATHREAD" skeleton "$(basename "$3")") > "$draft" 2> "$SCRATCH/skeleton.err"; then
    printf '%-47s %-8s %5d %-8s %-7s %-9s %-8s %-7s %7s %s\n' "$1" "$2" "$lines" error - - - - - "$(first_error "$SCRATCH/skeleton.err")"
    return
  fi
  col=$(conform_column "$draft" "$3")
  why=""
  case $col in *$'\t'*) why=${col#*$'\t'}; col=${col%%$'\t'*} ;; esac
  printf '%-47s %-8s %5d %-8s %-7s %-9s %s %s\n' "$1" "$2" "$lines" ok "$(threads "$draft")" "$col" \
    "$(races_column "$2" "$3")" "$why"
}

[ -r "$SVCOMP_TASKS" ] || { echo "races-survey: cannot read $SVCOMP_TASKS" >&2; exit 2; }
svcomp_fetch 2> /dev/null
printf '%-47s %-8s %5s %-8s %-7s %-9s %-8s %-7s %7s %s\n' TASK EXPECTED LINES SKELETON THREADS CONFORM RACES LAYER SECONDS WHY
while read -r -u 3 task input property expected _ _ where _; do
  case $task in '#'* | '') continue ;; esac
  [ "$property" = no-data-race ] || continue
  if ! prog=$(svcomp_program "$task" "$input" "$where"); then
    printf '%-47s %-8s %5s %s\n' "$task" "$expected" - "missing (not in the cache: tests/svcomp/fetch.sh)"
    continue
  fi
  survey "$task" "$expected" "$prog"
done 3< "$SVCOMP_TASKS" | tee "$SCRATCH/rows"
# The totals: tasks, and how many of them each column's answers cover.
awk '{ n++; if ($3 == "-") miss++; else { sk[$4]++; if ($4 == "ok") { cf[$6]++; rc[$7]++ } } }
     END { printf "races-survey: %d tasks, %d missing; skeleton: %d ok, %d error; conform: %d accepted, %d rejected, %d unknown, %d internal; races: %d no-race, %d race, %d WRONG, %d unknown, %d error\n",
           n, miss, sk["ok"], sk["error"], cf["accepted"], cf["rejected"], cf["unknown"], cf["internal"], rc["no-race"], rc["race"], rc["WRONG"], rc["unknown"], rc["error"] }' "$SCRATCH/rows"
exit 0
