# tests/review/lib.sh -- what the review suites share (sourced after
# tests/setup): check, expect (an athread review that must fail), and
# browser_suite, which runs a Selenium script over pages and adds its counts
# to the suite's.

# check NAME CONDITION-TEXT [FILE]: pass or fail on the last command's status
# (so no $(...) in the arguments: it would reset $?); on failure, the head
# of FILE too.
check() {
  if [ $? = 0 ]; then pass; else
    fail "$1: $2"
    [ -n "${3:-}" ] && head -n 5 "$3"
  fi
}

# expect NAME EXIT STDERR-PATTERN -- ARGS...: athread review ARGS exits
# EXIT with stderr matching, writes no page (an old one is left as it was)
# and leaves no temporary file behind.
expect() {
  local name=$1 want_exit=$2 want_err=$3
  shift 4
  echo old > old.html
  $VALGRIND "$ATHREAD" review "$@" > out.stdout 2> out.stderr < /dev/null
  local got=$?
  [ $got = "$want_exit" ]; check "$name" "exit $want_exit (got $got)"
  grep -qE -e "$want_err" out.stderr; check "$name" "stderr matches '$want_err'" out.stderr
  [ ! -s out.stdout ] && [ "$(cat old.html)" = old ]; check "$name" "nothing written"
  ! ls | grep -q '^\.\?old\.html\..\|tmp'; check "$name" "no temporary file left behind"
}

# browser_suite SCRIPT PAGE...: runs tests/review/SCRIPT over the pages in
# headless Chromium when Chromium and Selenium are installed (scripts/deps.sh
# installs them), else says it skipped them. Not under ASan: the browser
# runs page.js, which the sanitizers do not see, and make test has run it
# on the same pages; under ASan the pages' making is what is checked.
browser_suite() {
  local script=$1 out p f
  shift
  if ldd "$ATHREAD" 2> /dev/null | grep -q libasan; then
    echo "SKIP: the browser checks (an ASan build: make test runs them)"
    return
  fi
  if ! [ -x /usr/bin/chromedriver ] || ! /usr/bin/python3 -c 'import selenium' 2> /dev/null; then
    echo "SKIP: the browser checks (no /usr/bin/chromedriver or python3-selenium; make deps installs them)"
    return
  fi
  out=$(/usr/bin/python3 "$TESTS_DIR/review/$script" "$@" 2>&1)
  echo "$out" | grep '^FAIL' | head -n 20
  p=$(sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' <<< "$out")
  f=$(sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' <<< "$out")
  if [ -z "$p" ]; then fail "$script printed no summary: $(tail -n 3 <<< "$out")"; else
    passed=$((passed + p)); failed=$((failed + f)); fi
}
