#!/usr/bin/env bash
# tests/review/code.sh -- athread review with C files, against athread's own
# commands as oracles: each thread's conformance verdict on the page is
# conform --json's, the edges listed (and drawn dashed) as never used are
# exactly conform --coverage's [-Wunused-edge] warnings, the C program's
# verdict is athread check's; a thread that does not conform has its
# counterexample with every step and the C source it steps through; the
# error paths of the C side (exit 2, nothing written). Then the pages in
# headless Chromium (browser_code.py: stepping marks the line and F).
# Usage: tests/review/code.sh
set -u
source "$(dirname "$0")/../setup"
source "$TESTS_DIR/review/lib.sh"
[ -n "$VALGRIND" ] && VALGRIND="$VALGRIND --suppressions=$TESTS_DIR/viz/graphviz.supp"
root=$(cd "$TESTS_DIR/.." && pwd)
export ATHREAD_INCLUDE=${ATHREAD_INCLUDE:-$root/include}
cd "$SCRATCH"

# pair NAME SPEC CFILE: the page of SPEC with CFILE agrees with conform and check.
pages=()
pair() {
  local name=$1 spec=$2 cfile=$3
  $VALGRIND "$ATHREAD" review "$spec" "$cfile" -o "$name.html" > out.stdout 2> "$name.stderr"
  [ $? = 0 ] && [ -s "$name.html" ] && [ ! -s out.stdout ]; check "$name" "exit 0, the page written, nothing on stdout" "$name.stderr"
  "$ATHREAD" conform --coverage --json "$spec" "$cfile" > "$name.conform.json" 2> "$name.conform.stderr"
  "$ATHREAD" check --json "$spec" "$cfile" > "$name.check.json" 2> /dev/null
  python3 - "$name.html" "$name.conform.json" "$name.conform.stderr" "$name.check.json" > "$name.py.out" 2>&1 << 'PY'
import html, json, re, sys
page = open(sys.argv[1]).read()
conform = json.load(open(sys.argv[2]))
check = json.load(open(sys.argv[4]))
warned = set(re.findall(r"warning: edge (\S+) -> (\S+) of (\S+) is never used", open(sys.argv[3]).read()))
data = json.loads(re.search(r'<script type="application/json" id="review-data">(.*?)</script>', page, re.S)
                  .group(1).replace("<\\/", "</"))
bad = []
def want(ok, what):
    if not ok: bad.append(what)
# the C program's verdict is check's
m = re.search(r'<section id="program"><h2>The C program</h2>\n<p class="verdict verdict-\w+">Verdict: <strong>([^<]*)</strong>: ([^<]*)\.</p>', page)
want(m and m.group(1) == check["verdict"], "program verdict %s, check says %s" % (m and m.group(1), check["verdict"]))
want(m and html.unescape(m.group(2)) == check["reason"], "program reason %r, check says %r" % (m and m.group(2), check["reason"]))
for t in conform["threads"]:
    name = t["thread"]
    m = re.search(r'<section id="thread-%s".*?<p class="conformance verdict-\w+">Conformance of the C function <code>([^<]*)</code>: <strong>([^<]*)</strong>' % name, page, re.S)
    want(m and m.group(1) == t["function"] and m.group(2) == t["verdict"],
         "thread %s: page says %s, conform says %s %s" % (name, m and m.groups(), t["function"], t["verdict"]))
    section = re.search(r'<section id="thread-%s".*?</section>' % name, page, re.S).group(0)
    listed = set(re.findall(r'<li data-edge="e_%s_\d+"><code>(\S+) -&gt; (\S+)</code>' % name, section))
    want(listed == {(a, b) for a, b, th in warned if th == name},
         "thread %s: unused edges listed %s, conform --coverage warns %s" % (name, listed, warned))
    for k in re.findall(r'<li data-edge="(e_%s_\d+)">' % name, section):
        edge = re.search(r'<g id="%s" class="edge">.*?</g>\n</g>' % k, section, re.S)
        want(edge and "stroke-dasharray" in edge.group(0), "%s: drawn dashed" % k)
    cex = t.get("counterexample")
    want(bool(cex) == ('id="ctrace-%s"' % name in page), "thread %s: a code counterexample exactly when conform has one" % name)
    if cex:
        box = re.search(r'<div class="ctrace" id="ctrace-%s".*?</ol>' % name, page, re.S).group(0)
        want(box.count("<li data-step=") == len(cex["steps"]), "thread %s: every step listed" % name)
        want(sum(len(s.get("moves", [])) for s in cex["steps"]) == box.count('<span class="env">environment: '),
             "thread %s: every move of the environment listed as such" % name)
        for s in cex["steps"]:
            want('<pre data-file="%s">' % html.escape(s["file"]) in box and 'data-line="%d"' % s["line"] in box,
                 "thread %s: the source pane has %s:%d" % (name, s["file"], s["line"]))
        want(html.escape(cex["failure"]["message"], quote=True) in box, "thread %s: the failure" % name)
        want(data["code"]["threads"][name]["counterexample"]["steps"] == cex["steps"], "thread %s: the data" % name)
print("\n".join(bad) if bad else "ok")
PY
  [ "$(cat "$name.py.out")" = ok ]; check "$name" "the page agrees with conform --coverage and check" "$name.py.out"
  ! grep -qiE 'https?://' "$name.html"; check "$name" "no http:// or https:// in the page"
  pages+=("$PWD/$name.html")
}

ex=$root/examples
pair figure2 "$ex/figure2/figure2.athread" "$ex/figure2/figure2.c"
pair figure2-bad "$ex/figure2/figure2.athread" "$ex/figure2/figure2-bad.c"
pair bluetooth "$ex/bluetooth/bluetooth.athread" "$ex/bluetooth/bluetooth.c"
pair bluetooth-buggy "$ex/bluetooth/bluetooth.athread" "$ex/bluetooth/bluetooth-buggy.c"
pair battery-buggy "$ex/battery/battery.athread" "$ex/battery/battery-buggy.c"
pair dispatch "$ex/tutorial/dispatch.athread" "$ex/tutorial/dispatch.c"
pair dispatch-v1 "$ex/tutorial/dispatch.athread" "$ex/tutorial/dispatch-v1.c"
pair unused "$TESTS_DIR/review/code/unused.athread" "$ex/figure2/figure2.c"

# --thread binds a thread the spec leaves without 'implements'.
sed 's/ implements thread_b//' "$ex/figure2/figure2.athread" > nobind.athread
"$ATHREAD" review nobind.athread "$ex/figure2/figure2.c" -o nobind.html 2> /dev/null
grep -q '<strong>not checked</strong>: no C function implements B' nobind.html; check "--thread" "a thread without C code says so"
grep -q 'Verdict: <strong>unknown</strong>: thread B has no C code' nobind.html; check "--thread" "and the C program is unknown"
"$ATHREAD" review nobind.athread "$ex/figure2/figure2.c" --thread B=thread_b -o bound.html 2> /dev/null
grep -q 'Conformance of the C function <code>thread_b</code>: <strong>conforms</strong>' bound.html
check "--thread" "--thread B=thread_b checks B"

# With --for-all the C program's verdict says it is at the spec's N.
"$ATHREAD" review "$ex/bluetooth/bluetooth.athread" "$ex/bluetooth/bluetooth.c" --for-all N -o forall.html 2> /dev/null
grep -q 'This verdict is for the system as the spec declares it, not for every N' forall.html
check "--for-all" "the C program's verdict says which N it is for"

# check --html: the same verdicts on stdout as without it, and the page of
# the run (the threads not checked when the system is unsafe).
html_check() {
  local name=$1 spec=$2 cfile=$3
  "$ATHREAD" check --no-timing "$spec" "$cfile" > plain.out 2> /dev/null
  local want=$?
  "$ATHREAD" check --no-timing "$spec" "$cfile" --html "$name.html" > html.out 2> /dev/null
  [ $? = $want ] && cmp -s plain.out html.out; check "check --html, $name" "the same exit code and output as without --html"
  local verdict
  verdict=$(sed -n 's/^verdict: \([^:]*\):.*/\1/p' plain.out)
  grep -q "Verdict: <strong>$verdict</strong>" "$name.html"; check "check --html, $name" "the page says $verdict"
  grep -q '<section id="program">' "$name.html" && grep -q '<section id="composition">' "$name.html"
  check "check --html, $name" "the composition and the C program on the page"
}
html_check figure2-bad "$ex/figure2/figure2.athread" "$ex/figure2/figure2-bad.c"
html_check dispatch "$ex/tutorial/dispatch.athread" "$ex/tutorial/dispatch.c"
html_check unsafe "$TESTS_DIR/review/code/unused.athread" "$ex/figure2/figure2.c"
grep -q 'Conformance: <strong>not checked</strong>: athread check checks the threads only when the abstract system is safe' unsafe.html
check "check --html, unsafe" "the threads are not checked, and the page says why"
"$ATHREAD" check "$ex/figure2/figure2.athread" "$ex/figure2/figure2.c" --html no-such-dir/p.html > out.stdout 2> out.stderr
[ $? = 2 ] && [ ! -s out.stdout ] && grep -q 'no-such-dir' out.stderr
check "check --html, unwritable" "exit 2, no verdict printed, the path named" out.stderr
"$ATHREAD" check "$ex/figure2/figure2.athread" "$ex/figure2/figure2.c" --html - > out.stdout 2> out.stderr
[ $? = 2 ] && grep -q -- '--html needs a file' out.stderr; check "check --html -" "a usage error" out.stderr
"$ATHREAD" check "$ex/mutex/mutex.athread" "$ex/figure2/figure2.c" --for-all n --html x.html > out.stdout 2> out.stderr
[ $? = 2 ] && grep -q -- "--html does not show --for-all's result yet" out.stderr && [ ! -e x.html ]
check "check --html --for-all" "a usage error" out.stderr

printf 'int g;\nvoid thread_a(void) { g = ; }\n' > broken.c
expect c-missing 2 'nope\.c' -- "$ex/figure2/figure2.athread" nope.c -o old.html
expect c-syntax 2 'broken\.c:2:[0-9]+: error' -- "$ex/figure2/figure2.athread" broken.c -o old.html
expect c-function 2 "thread_zz" -- "$ex/figure2/figure2.athread" "$ex/figure2/figure2.c" --thread A=thread_zz -o old.html
expect bad-thread 2 "--thread names 'Q', which is not a thread" -- "$ex/figure2/figure2.athread" "$ex/figure2/figure2.c" --thread Q=thread_a -o old.html
expect binding 2 '--thread expects THREAD=FUNCTION' -- "$ex/figure2/figure2.athread" "$ex/figure2/figure2.c" --thread A -o old.html

# Under valgrind (when installed, and not an ASan build): no leak or memory
# error outside Graphviz in the C side (conform_run, coverage, the page).
if [ -z "$VALGRIND" ] && command -v valgrind > /dev/null && ! ldd "$ATHREAD" 2> /dev/null | grep -q libasan; then
  valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=9 \
    --suppressions="$TESTS_DIR/viz/graphviz.supp" "$ATHREAD" review "$ex/figure2/figure2.athread" \
    "$ex/figure2/figure2-bad.c" -o vg.html 2> vg.err
  check "valgrind, review with C files" "a leak or memory error outside Graphviz" vg.err
fi

# The pages in a real browser, when Chromium and Selenium are installed.
browser_suite browser_code.py "${pages[@]}"

summary "review with C files"
[ $failed = 0 ]
