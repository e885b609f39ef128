# tests/review/lib.sh -- what the review suites share (sourced after
# tests/setup): check, and browser_suite, which runs a Selenium script over
# pages and adds its counts to the suite's.

# check NAME CONDITION-TEXT [FILE]: pass or fail on the last command's status
# (so no $(...) in the arguments: it would reset $?); on failure, the head
# of FILE too.
check() {
  if [ $? = 0 ]; then pass; else
    fail "$1: $2"
    [ -n "${3:-}" ] && head -n 5 "$3"
  fi
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
