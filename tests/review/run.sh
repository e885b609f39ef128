#!/usr/bin/env bash
# tests/review/run.sh -- athread review: the structure of the page for every
# example (each section, one SVG and one section per thread, a
# counterexample exactly when compose says unsafe, the data parses, nothing
# loaded from elsewhere: no http(s) reference, no src=, no <link>), the
# error paths (exit 2, the message, no file written, an old file untouched),
# a thread of 120 states, and the pages in headless Chromium (browser.py: no
# console error, the stepper marks what the JSON trace says, zoom, fit and
# drag, keyboard, print media, marks that do not rely on colour).
# Usage: tests/review/run.sh
set -u
source "$(dirname "$0")/../setup"
source "$TESTS_DIR/review/lib.sh"
# Graphviz never frees some of its caches: memory checkers get its suppressions.
[ -n "$VALGRIND" ] && VALGRIND="$VALGRIND --suppressions=$TESTS_DIR/viz/graphviz.supp"
root=$(cd "$TESTS_DIR/.." && pwd)
cd "$SCRATCH"

# The number of threads a spec declares.
threads_of() { grep -c '^[[:space:]]*thread [A-Za-z_]' "$1"; }

# structure SPEC: the page of SPEC has every part the issue asks for.
structure() {
  local spec=$1 name page
  name=$(basename "$spec" .athread)
  page=$name.html
  $VALGRIND "$ATHREAD" review "$spec" -o "$page" > out.stdout 2> out.stderr
  [ $? = 0 ] && [ -s "$page" ] && [ ! -s out.stdout ]; check "$name" "exit 0, the page written, nothing on stdout"
  for id in overview composition; do
    grep -q "<section id=\"$id\"" "$page"; check "$name" "has the $id section"
  done
  [ "$(grep -c '<svg' "$page")" = $(($(threads_of "$spec") + 1)) ]; check "$name" "one SVG per thread, one of the system"
  python3 - "$page" << 'PY'
import re, sys
page = open(sys.argv[1]).read()
overview = page[page.index('<section id="overview"'):page.index('</section>', page.index('<section id="overview"'))]
assert '<div class="diagram system"' in overview and overview.count('<svg') == 1, "the system diagram in the overview"
assert '>initially</text>' in overview, "the system diagram has viz's legend"
for thread in re.findall(r'<section id="thread-.*?</section>', page, re.S):
    assert thread.count('<svg') == 1 and '>initially</text>' not in thread, "a thread's diagram without the legend"
PY
  check "$name" "the system's diagram (with the legend) in the overview, the threads' without it"
  [ "$(grep -c '<section id="thread-' "$page")" = "$(threads_of "$spec")" ]; check "$name" "one section per thread"
  ! grep -qiE 'https?://' "$page"; check "$name" "no http:// or https:// in the page"
  ! grep -qiE '<link|<script[^>]* src=|<img|<iframe|url\(' "$page"; check "$name" "loads no other file"
  [ "$(grep -c '<script' "$page")" = 2 ]; check "$name" "the data and the script, nothing else"
  grep -q 'Made by athread [0-9.]* with <code>athread review ' "$page"; check "$name" "the version and the command"
  grep -q 'Assumptions of every verdict:</strong> each edge' "$page"; check "$name" "the assumptions"
  local verdict
  verdict=$("$ATHREAD" compose --json "$spec" 2> /dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])')
  grep -q "<p class=\"verdict verdict-$verdict\">" "$page"; check "$name" "the verdict of compose ($verdict)"
  if [ "$verdict" = unsafe ]; then grep -q '<section id="counterexample"' "$page"; else ! grep -q 'id="counterexample"' "$page"; fi
  check "$name" "a counterexample section exactly when unsafe"
  python3 - "$page" << 'PY'
import json, re, sys
page = open(sys.argv[1]).read()
data = json.loads(re.search(r'<script type="application/json" id="review-data">(.*?)</script>', page, re.S).group(1))
trace = data["compose"].get("trace")
steps = trace["steps"] if trace else []
assert page.count("<li data-step=") == len(steps), "every step listed"
for s in steps:  # each step's edge and target state have ids the script finds
    assert 'id="e_%s_%d"' % (s["thread"], s["edge"]) in page, s
    states = data["states"][s["thread"]]
    assert 'id="s_%s_%d"' % (s["thread"], states.index(s["to"])) in page, s
PY
  check "$name" "the data parses, every step is listed and its edge and state have ids"
}

for spec in "$root"/examples/*/*.athread; do structure "$spec"; done

# 100+ states per thread: a ring of 120 states, two instances; the edge out
# of S90 breaks the invariant, so the counterexample walks 91 states down a
# drawing taller than any screen. Every state and edge has its id, and the
# browser checks below step, zoom, fit and pan it.
big_spec() {
  local i
  printf 'shared int[0..1] x = 0;\nthread Ring {\n  init state S0;\n'
  for i in $(seq 1 119); do printf '  state S%d;\n' "$i"; done
  for i in $(seq 0 119); do
    if [ "$i" = 90 ]; then printf '  S90 -> S91 "x := 1" do x := 1;\n'
    else printf '  S%d -> S%d "s%d" when true;\n' "$i" $(((i + 1) % 120)) "$i"; fi
  done
  printf '}\nsystem Big {\n  Ring[2];\n  invariant x == 0;\n}\n'
}
big_spec > big.athread
structure "$PWD/big.athread"
[ "$(grep -oE 'id="s_Ring_([0-9]|[1-9][0-9]|1[01][0-9])" class="node"' big.html | sort -u | wc -l)" = 120 ]
check "120 states" "every state has its id, s_Ring_0 to s_Ring_119"
[ "$(grep -oE 'id="e_Ring_([0-9]|[1-9][0-9]|1[01][0-9])" class="edge"' big.html | sort -u | wc -l)" = 120 ]
check "120 states" "every edge has its id, e_Ring_0 to e_Ring_119"
[ "$(grep -c '<li data-step=' big.html)" = 91 ]; check "120 states" "the 91 steps are listed"

# --set reaches the spec: the const's value and "(from --set)" on the page.
"$ATHREAD" review "$root/examples/mutex/mutex.athread" --set n=4 -o set.html 2> /dev/null
grep -q '<td>4 (from --set)</td>' set.html; check "--set" "the overridden const is shown"

# The overview's table: each const and shared variable with its type and
# range and its initial values, evaluated (not the declaration's text).
"$ATHREAD" review "$TESTS_DIR/review/decls.athread" -o decls.html 2> /dev/null
while IFS= read -r row; do
  grep -qF -- "$row" decls.html; check "decls" "the row $row"
done << 'ROWS'
<tr><td><code>N</code></td><td>const</td><td>3</td></tr>
<tr><td><code>LO</code></td><td>const</td><td>-2</td></tr>
<tr><td><code>ready</code></td><td><code>bool</code></td><td>any value of its type that the init predicates allow</td></tr>
<tr><td><code>level</code></td><td><code>array of 3 int[-2..4]</code></td><td>{1, 3, -2}</td></tr>
<tr><td><code>total</code></td><td><code>int</code> (C: <code>dev.total[1]</code>)</td><td>6</td></tr>
<tr><td><code>flags</code></td><td><code>array of 2 int[0..1]</code></td><td>1 in every element</td></tr>
<tr><td><code>free_</code></td><td><code>int</code></td><td>any value of its type that the init predicates allow</td></tr>
<p class="inits">Initially also (the system's <code>init</code>): <code>ready &amp;&amp; free_ &gt; total</code>.</p>
ROWS
! grep -q 'class="inits"' set.html; check "decls" "no init line without init predicates"
grep -qF '<tr><td><code>data</code></td><td><code>int[0..2]</code></td><td>any value of its type</td></tr>' set.html
check "decls" "a variable with no initializer and no init predicate: any value"
"$ATHREAD" review "$TESTS_DIR/review/decls.athread" --set LO=-1 -o decls-set.html 2> /dev/null
grep -qF '<td><code>array of 3 int[-1..4]</code></td><td>{1, 3, -1}</td>' decls-set.html \
  && grep -qF '<tr><td><code>LO</code></td><td>const</td><td>-1 (from --set)</td></tr>' decls-set.html
check "decls --set" "the range and the initial values follow --set"

# Two threads of 201 states each: each thread is drawn, the whole system has
# too many states for dot (viz's limit is 400 nodes), so the page says so
# instead of failing.
for t in A B; do
  echo "thread $t {"
  echo "  init state S0;"
  for i in $(seq 1 200); do echo "  state S$i;"; done
  for i in $(seq 0 199); do echo "  S$i -> S$((i + 1)) : true;"; done
  echo "}"
done > wide.athread
"$ATHREAD" review wide.athread -o wide.html 2> wide.stderr
[ $? = 0 ] && [ ! -s wide.stderr ] && [ "$(grep -c '<svg' wide.html)" = 2 ]
check "large system" "exit 0, no message, one SVG per thread" wide.stderr
grep -q '<p class="note">The system has too many states to draw together; each thread is drawn below.</p>' wide.html
check "large system" "the page says why there is no system diagram"

# What the composition never uses (compose's [-Wnever-reached] and
# [-Wnever-taken] after a safe verdict) is listed, and its edges are dashed.
printf 'shared int[0..3] x = 0;\nthread T {\n  init state A;\n  state B;\n  state C;\n  A -> B : x'"'"' == 1;\n  B -> C : x == 3;\n}\nsystem S { T; }\n' > vacuous.athread
"$ATHREAD" compose vacuous.athread 2> vacuous.warnings > /dev/null
"$ATHREAD" review vacuous.athread -o vacuous.html 2> /dev/null
python3 - vacuous.html vacuous.warnings << 'PY'
import re, sys
page, warned = open(sys.argv[1]).read(), open(sys.argv[2]).read()
states = set(re.findall(r"state (\w+) of T is never reached", warned))
edges = set(re.findall(r"edge (\w+) -> (\w+) of T is never taken", warned))
assert states and edges, warned
assert set(re.findall(r'<li data-state="s_T_\d+">state <code>(\w+)</code>: never reached', page)) == states
listed = re.findall(r'<li data-edge="(e_T_\d+)">edge <code>(\w+) -&gt; (\w+)</code>: never taken', page)
assert {(a, b) for _, a, b in listed} == edges
for e, _, _ in listed:
    assert re.search(r'<g id="%s" class="edge">.*?stroke-dasharray' % e, page, re.S), e
PY
check "vacuity" "the states and edges compose warns of are listed, the edges dashed"
grep -q 'Composition: every state is reached and every edge out of one is taken' mutex.html
check "vacuity" "a spec that uses everything says so"

# --max-states limits the composition check: the page says unknown and why.
"$ATHREAD" review "$root/examples/peterson/peterson-broken.athread" --max-states 3 -o limit.html 2> /dev/null
[ $? = 0 ] && grep -q '<p class="verdict verdict-unknown">Verdict: <strong>unknown</strong>: the state limit (--max-states) was reached' limit.html
check "--max-states" "the page says unknown: the state limit"
! grep -q 'id="counterexample"' limit.html; check "--max-states" "no counterexample on an unknown verdict"

# --for-all N: the verdict for every N beside the spec's own, as compose
# --for-all gives it (verdict, engine, the N not used, the counter
# abstraction, assumptions; unsafe: the steps for the N found).
tut=$root/examples/tutorial
"$ATHREAD" review "$tut/dispatch-racy.athread" --for-all N -o racy.html 2> /dev/null
[ $? = 0 ]; check "--for-all unsafe" "exit 0"
"$ATHREAD" compose --for-all N --json --no-timing "$tut/dispatch-racy.athread" > racy.json 2> /dev/null
python3 - racy.html racy.json << 'PY'
import json, re, sys
page, want = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
part = page[page.index('<h3 id="for-all">'):page.index('</section>', page.index('<h3 id="for-all">'))]
assert part.startswith('<h3 id="for-all">For every N &ge; 1 (<code>--for-all N</code>)</h3>'), part[:200]
assert '<p class="verdict verdict-unsafe for-all">Verdict: <strong>unsafe</strong> for N = %d: %s</p>' % (
    want["for_all"]["n"], want["trace"]["violation"]["message"].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")) in part, part
assert "<li>engine: for-all (%s)</li>" % want["engine_reason"] in part
assert "<li>not used: N = 2 in the spec; the search covers every N &ge; 1</li>" in part
assert "<li>counter abstraction: one counter per state of %s</li>" % want["for_all"]["counted"] in part
assert "found by bounded model checking of the counter system: depth %d," % want["statistics"]["depth"] in part
assert "<strong>Assumptions:</strong> %s.</p>" % want["assumptions"]["text"] in part
assert "--set N=%d</code>" % want["for_all"]["n"] in part
steps = re.findall(r'<li data-step="\d+"><span class="who">([^<]*)</span>', part[part.index('<ol class="for-all-steps">'):])
assert steps == [s["instance"] for s in want["trace"]["steps"]], (steps, want["trace"]["steps"])
PY
check "--for-all unsafe" "verdict, engine, N, counter abstraction, assumptions and steps as compose --for-all says"
"$ATHREAD" compose --json --no-timing "$tut/dispatch-racy.athread" > racy-own.json 2> /dev/null
python3 - racy.html racy-own.json << 'PY'
import json, sys
page, own = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
steps = page[page.index('<ol class="steps">'):page.index('</ol>', page.index('<ol class="steps">'))]
assert 'class="stepper"' in page and steps.count('<li data-step=') == len(own["trace"]["steps"])
PY
check "--for-all unsafe" "the spec's own counterexample stays (its stepper and steps), the all-N steps besides"
"$ATHREAD" review "$tut/dispatch.athread" --for-all N --set N=3 -o all.html 2> /dev/null
grep -q '<p class="verdict verdict-safe for-all">Verdict: <strong>safe</strong> for every N &ge; 1</p>' all.html \
  && grep -q '<li>not used: N = 3 from --set; the proof covers every N &ge; 1</li>' all.html \
  && grep -q '<li>the inductive invariant over the counters passed three independent Z3 checks ([0-9]* atoms)</li>' all.html \
  && ! grep -q 'for-all-steps' all.html
check "--for-all safe" "safe for every N, the N from --set not used, the invariant's checks, no steps"
"$ATHREAD" review "$root/examples/battery/battery.athread" --for-all N --timeout 0.01 -o unknown.html 2> /dev/null
grep -q '<p class="verdict verdict-unknown for-all">Verdict: <strong>unknown</strong> for every N &ge; 1: the time limit (--timeout) was reached</p>' unknown.html
check "--for-all unknown" "unknown for every N, and why"
! grep -q 'id="for-all"' "$SCRATCH/dispatch-racy.html"; check "no --for-all" "no all-N part"
# Both checks on Z3 (the symbolic engine, then the counter system): Z3's
# tables are released once, after both.
$VALGRIND "$ATHREAD" review "$TESTS_DIR/review/unbounded.athread" --for-all N -o z3.html 2> z3.err
[ $? = 0 ] && grep -q '<li>engine: symbolic (' z3.html \
  && grep -q '<p class="verdict verdict-safe for-all">Verdict: <strong>safe</strong> for every N &ge; 1</p>' z3.html
check "--for-all after the symbolic engine" "exit 0, both verdicts on the page" z3.err

# Without -o the page goes to stdout.
"$ATHREAD" review "$root/examples/mutex/mutex.athread" > stdout.html 2> /dev/null
grep -q '^<!DOCTYPE html>' stdout.html; check "stdout" "the page on stdout without -o"

printf 'thread T {\n  init state A\n}\n' > bad.athread
expect missing 2 'cannot (open|read)' -- nope.athread -o old.html
expect syntax 2 "bad.athread:[0-9]+:[0-9]+: error" -- bad.athread -o old.html
expect no-spec 2 'expected a specification' -- -o old.html
expect option 2 "unknown option '--nope'" -- --nope "$root/examples/mutex/mutex.athread" -o old.html
expect set 2 'mutex.athread.*(no const|not a const|declares no)' -- "$root/examples/mutex/mutex.athread" --set zz=1 -o old.html
expect timeout 2 "--timeout expects a non-negative number, got 'x'" -- "$root/examples/mutex/mutex.athread" --timeout x -o old.html
expect for-all-const 2 "no const named 'X'" -- "$root/examples/mutex/mutex.athread" --for-all X -o old.html
expect for-all-tid 2 "--for-all N needs a symmetric thread" -- "$root/examples/bakery/bakery.athread" --for-all N -o old.html
expect output 2 'no-such-dir' -- "$root/examples/mutex/mutex.athread" -o no-such-dir/page.html

# Under valgrind (when installed): no leak or memory error outside Graphviz.
# Several diagrams in one run once read freed memory in Graphviz's text plugin
# (a context per drawing); viz_session shares one.
supp=$TESTS_DIR/viz/graphviz.supp
if [ -z "$VALGRIND" ] && command -v valgrind > /dev/null && ! ldd "$ATHREAD" 2> /dev/null | grep -q libasan; then
  for spec in peterson/peterson-broken bluetooth/bluetooth-buggy; do
    # from the root, with the spec named as a user types it
    (cd "$root" && valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=9 \
      --suppressions="$supp" "$ATHREAD" review "examples/$spec.athread" -o "$SCRATCH/vg.html") 2> vg.err
    check "valgrind, review $spec" "a leak or memory error outside Graphviz" vg.err
  done
  valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=9 \
    --suppressions="$supp" "$ATHREAD" review bad.athread -o vg.html 2> vg.err
  [ $? = 2 ]; check "valgrind, review of a bad spec" "a leak or memory error" vg.err
  # the all-N check (Z3), and a system too large for dot (its drawing refused through a quiet sink)
  valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=9 \
    --suppressions="$supp" "$ATHREAD" review "$tut/dispatch-racy.athread" --for-all N -o vg.html 2> vg.err
  check "valgrind, review --for-all" "a leak or memory error" vg.err
  valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=9 \
    --suppressions="$supp" "$ATHREAD" review wide.athread -o vg.html 2> vg.err
  check "valgrind, review of a system too large to draw" "a leak or memory error" vg.err
fi

# The pages in a real browser (tests/review/browser.py), when Chromium and
# Selenium are installed (scripts/deps.sh installs them).
pages=()
for spec in "$root"/examples/*/*.athread big.athread; do pages+=("$PWD/$(basename "$spec" .athread).html"); done
pages+=("$PWD/racy.html" "$PWD/all.html") # --for-all's part leaves the stepper as it was
browser_suite browser.py "${pages[@]}"

summary "review"
[ $failed = 0 ]
