#!/usr/bin/env bash
# tests/viz/run.sh -- athread viz. Golden DOT for every example, for
# tests/viz/features.athread and for the trace overlays of compose and of
# conform (the DOT is the graph before layout, so it is the same on every
# machine); SVG parsed as XML and rendered twice (byte-identical); a PNG per
# example (magic bytes); a PDF; traces written by compose and conform just
# now; error cases (exit 2, the exact message, no file written or left
# behind); and, when valgrind is installed,
# no leak outside Graphviz (tests/viz/graphviz.supp says what Graphviz keeps).
# Usage: tests/viz/run.sh [--update]  (--update rewrites tests/viz/golden/*.dot
# from the current output; review the diff)
set -u
source "$(dirname "$0")/../setup"
root=$(cd "$TESTS_DIR/.." && pwd)
viz=$TESTS_DIR/viz
update=0
[ "${1:-}" = --update ] && update=1
# Graphviz never frees some of its caches: memory checkers get its suppressions.
[ -n "$VALGRIND" ] && VALGRIND="$VALGRIND --suppressions=$viz/graphviz.supp"
cd "$SCRATCH"

# golden NAME ARGS...: `athread viz ARGS` succeeds and prints tests/viz/golden/NAME.dot.
golden() {
  local name=$1
  shift
  $VALGRIND "$ATHREAD" viz "$@" > "$name.dot" 2> "$name.err"
  local got=$?
  if [ $got != 0 ]; then fail "$name: exit $got"; head -n 5 "$name.err"; return; fi
  if [ $update = 1 ]; then cp "$name.dot" "$viz/golden/$name.dot"; fi
  if cmp -s "$name.dot" "$viz/golden/$name.dot"; then pass; else
    fail "$name: the DOT differs from tests/viz/golden/$name.dot (tests/viz/run.sh --update rewrites it)"
    diff "$viz/golden/$name.dot" "$name.dot" | head -n 10
  fi
}

# expect NAME EXIT STDERR -- ARGS...: exit code and stderr exactly, stdout empty.
expect() {
  local name=$1 want_exit=$2 want_err=$3
  shift 4
  $VALGRIND "$ATHREAD" viz "$@" > out.stdout 2> out.stderr < /dev/null
  local got=$?
  if [ "$got" = "$want_exit" ] && [ ! -s out.stdout ] && [ "$(cat out.stderr)" = "$want_err" ]; then pass; else
    fail "$name: exit $got (expected $want_exit)"
    diff <(printf '%s\n' "$want_err") out.stderr | head -n 10
  fi
}

# check NAME COMMAND...: the command succeeds.
check() {
  local name=$1
  shift
  if "$@" > /dev/null 2> check.err; then pass; else fail "$name"; head -n 5 check.err; fi
}

is_svg() { python3 -c 'import sys, xml.dom.minidom; assert xml.dom.minidom.parse(sys.argv[1]).documentElement.tagName == "svg"' "$1"; }
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
is_pdf() { [ "$(head -c 5 "$1")" = "%PDF-" ]; }
# draw NAME ARGS...: NAME.svg twice (the same bytes), NAME.png.
draw() {
  local name=$1
  shift
  check "$name: svg" $VALGRIND "$ATHREAD" viz "$@" -o "$name.svg"
  check "$name: svg again" $VALGRIND "$ATHREAD" viz "$@" -o "$name.2.svg"
  if cmp -s "$name.svg" "$name.2.svg"; then pass; else fail "$name: two runs wrote different SVG"; fi
  if is_svg "$name.svg" 2> svg.err; then pass; else fail "$name: not a valid SVG document"; tail -n 3 svg.err; fi
  check "$name: png" $VALGRIND "$ATHREAD" viz "$@" -o "$name.png"
  if is_png "$name.png"; then pass; else fail "$name: not a PNG file"; fi
}

ex=$root/examples
bt=$ex/bluetooth/bluetooth.athread
bb=$ex/bluetooth/bluetooth-buggy.athread

# ---------------------------------------------------------------- every example
for spec in "$ex"/*/*.athread; do
  name=$(basename "$spec" .athread)
  golden "$name" "$spec"
  draw "$name" "$spec"
done
check "dot file" "$ATHREAD" viz "$bt" -o bt.dot
if cmp -s bt.dot bluetooth.dot; then pass; else fail "-o OUT.dot wrote other DOT than stdout"; fi
check "gv file" "$ATHREAD" viz "$bt" -o bt.gv
if cmp -s bt.gv bluetooth.dot; then pass; else fail "-o OUT.gv wrote other DOT than stdout"; fi
check "pdf" $VALGRIND "$ATHREAD" viz "$bt" -o bt.pdf
if is_pdf bt.pdf; then pass; else fail "-o OUT.pdf did not write a PDF"; fi
if [ -z "$(ls -A | grep -E '\.(dot|gv|svg|png|pdf)\.')" ]; then pass; else fail "temporary files left: $(ls -A | grep -E '\.(dot|gv|svg|png|pdf)\.')"; fi

# ---------------------------------------------------------------- options
features=$viz/features.athread
golden features "$features"
golden features-idle "$features" --idle
golden features-thread "$features" --thread Checker
golden features-set "$features" --set K=2
draw features "$features" --idle
if grep -q 'xlink:title="Ready &#45;&gt; Busy when level &lt; K &amp;&amp; counter &gt;= 0 &amp;&amp; counter &lt; 1000000' features.svg; then pass; else
  fail "the SVG tooltip does not hold the edge in full"
fi

# ---------------------------------------------------------------- counterexamples
golden bluetooth-buggy-trace "$bb" --trace "$viz/bluetooth-buggy.trace.json"
golden bluetooth-buggy-trace-worker "$bb" --trace "$viz/bluetooth-buggy.trace.json" --thread Worker
golden peterson-broken-trace "$ex/peterson/peterson-broken.athread" --trace "$viz/peterson-broken.trace.json"
golden figure2-noinit-trace "$ex/figure2/figure2-noinit.athread" --trace "$viz/figure2-noinit.trace.json"
# the races of athread races --json, each its own cluster: no spec needed (one given is not read)
golden dispatch-threads-racy-race --trace "$viz/dispatch-threads-racy.races.json"
golden dispatch-threads-racy-race --trace - < "$viz/dispatch-threads-racy.races.json"
golden bluetooth-buggy-race "$bt" --trace "$viz/bluetooth-buggy.races.json"
draw bluetooth-buggy-race --trace "$viz/bluetooth-buggy.races.json"
# A made-up race: locks held, an atomic access, a backslash in the C text (no Graphviz escape), a long statement.
python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
race = next(c for c in r["cells"] if c["verdict"] == "race")
race["first"].update(locks=["device", "queue.lock"], atomic=True)
race["trace"][1].update(text="printf(\"sent %d\\n\", sent); /* a statement longer than a box */")
r["cells"] = [race]
json.dump(r, open("made-up.races.json", "w"))' "$viz/dispatch-threads-racy.races.json"
golden race-made-up --trace made-up.races.json
draw bluetooth-buggy-trace "$bb" --trace "$viz/bluetooth-buggy.trace.json"
# A long made-up trace: 45 steps over one edge (the edge lists 6, the legend 40).
python3 -c 'import json
step = lambda k: {"instance": "Mutex[1]", "thread": "Mutex", "from": "NonCritical", "to": "NonCritical", "edge": 0,
                  "state": {"shared": {"lock": False, "step": 0, "data": k % 3}}}
json.dump({"command": "compose", "verdict": "unsafe", "trace": {
  "initial": {"shared": {"lock": False, "step": 0, "data": 0},
              "instances": {"Mutex[1]": "NonCritical", "Mutex[2]": "NonCritical", "Mutex[3]": "NonCritical"}},
  "steps": [step(k + 1) for k in range(45)],
  "violation": {"kind": "system invariant", "expression": "count(Mutex@Critical) <= 1", "message": "made up"}}},
  open("long.json", "w"))'
golden mutex-long-trace "$ex/mutex/mutex.athread" --trace long.json
# -T FORMAT (as dot -T): to stdout, over -o's extension, and DOT by name.
check "-T svg to stdout" sh -c '"$0" viz -T svg "$1" > t.svg' "$ATHREAD" "$bt"
if is_svg t.svg 2> /dev/null; then pass; else fail "viz -T svg did not print SVG"; fi
check "--format PNG to stdout" sh -c '"$0" viz --format PNG "$1" > t.png' "$ATHREAD" "$bt"
if is_png t.png; then pass; else fail "viz --format PNG did not print PNG"; fi
check "-T pdf over the extension" $VALGRIND "$ATHREAD" viz -T pdf -o t.out "$bt"
if is_pdf t.out; then pass; else fail "viz -T pdf -o t.out did not write PDF"; fi
check "-T dot" sh -c '"$0" viz -T dot "$1" > t.dot' "$ATHREAD" "$bt"
if cmp -s t.dot "$viz/golden/bluetooth.dot"; then pass; else fail "viz -T dot differs from the default DOT"; fi
if script -qec "$ATHREAD viz -T png $bt" /dev/null 2>&1 | grep -q "not writing png to a terminal"; then pass; else
  fail "viz -T png wrote to a terminal"
fi
for spec in "$bb" "$ex/peterson/peterson-broken.athread"; do
  name=$(basename "$spec" .athread)
  "$ATHREAD" compose "$spec" --trace-out "$name.json" > /dev/null
  check "$name: a trace compose just wrote" $VALGRIND "$ATHREAD" viz "$spec" --trace "$name.json" -o "$name-fresh.svg"
done
"$ATHREAD" races "$ex/tutorial/dispatch-threads-racy.c" --json > racy.json
check "a race report athread races just wrote" $VALGRIND "$ATHREAD" viz --trace racy.json -o racy-fresh.svg

# ---------------------------------------------------------------- usage and output errors
expect bad-extension 2 "athread: error: cannot tell the format of 'out.jpg': the output must end in .dot, .gv, .svg, .png or .pdf (or give -T FORMAT) (try 'athread viz --help')" -- "$bt" -o out.jpg
expect no-extension 2 "athread: error: cannot tell the format of 'out': the output must end in .dot, .gv, .svg, .png or .pdf (or give -T FORMAT) (try 'athread viz --help')" -- "$bt" -o out
expect bad-format 2 "athread: error: -T 'jpg': the format must be dot, gv, svg, png or pdf (try 'athread viz --help')" -- "$bt" -T jpg
expect bad-format-long 2 "athread: error: -T '': the format must be dot, gv, svg, png or pdf (try 'athread viz --help')" -- "$bt" --format=
if [ ! -e out.jpg ] && [ ! -e out ]; then pass; else fail "a bad extension still wrote a file"; fi
expect unwritable 2 "/nonexistent/dir/x.svg: error: cannot create output file: No such file or directory" -- "$bt" -o /nonexistent/dir/x.svg
expect unknown-thread 2 "athread: error: --thread Wroker: bluetooth.athread declares no thread 'Wroker'; did you mean 'Worker'?" -- "$bt" --thread Wroker
expect unknown-thread-far 2 "athread: error: --thread Zzz: bluetooth.athread declares no thread 'Zzz'" -- "$bt" --thread Zzz
expect no-spec 2 "athread: error: expected exactly one specification (try 'athread viz --help')" --
expect race-none 2 "$viz/dispatch-threads.races.json: error: no race to draw: the report of athread races has no cell with verdict \"race\"" -- --trace "$viz/dispatch-threads.races.json" -o keep.svg
expect race-no-spec-other 2 "$viz/bluetooth-buggy.trace.json: error: not a report of athread races --json (a trace of compose or conform needs its specification: athread viz SPEC --trace FILE)" -- --trace "$viz/bluetooth-buggy.trace.json"
printf '{"command": "races", "cells": [' > truncated.races.json
expect race-truncated 2 "truncated.races.json:1:31: error: not JSON: ']' expected near end of file" -- --trace truncated.races.json
expect bad-option 2 "athread: error: unknown option '--layout' (try 'athread viz --help')" -- "$bt" --layout neato
printf 'thread A { init state S; S -> T : true; }\n' > broken.athread
expect spec-error 2 "broken.athread:1:31: error: unknown state 'T' in thread 'A'; did you mean 'S'?
thread A { init state S; S -> T : true; }
                              ^" -- broken.athread -o broken.svg
if [ ! -e broken.svg ]; then pass; else fail "a bad spec still wrote the output"; fi
awk 'BEGIN { print "thread Big {"; print "  init state S0;"; for (i = 1; i < 450; i++) print "  state S" i ";"; for (i = 1; i < 450; i++) print "  S" i-1 " -> S" i " : true;"; print "}" }' > big.athread
expect too-large 2 "athread: error: the diagram has 451 nodes, too many for dot (the limit is 400): draw one thread with --thread, or write DOT (-o OUT.dot)" -- big.athread -o big.svg
check "too large for dot, fine as DOT" "$ATHREAD" viz big.athread -o big.dot
if [ "$("$ATHREAD" viz --help | head -n 1)" = "usage: athread viz SPEC.athread [OPTIONS]" ]; then pass; else fail "viz --help"; fi

# ---------------------------------------------------------------- traces that do not fit
# bad_trace NAME PYTHON: the bluetooth-buggy trace, changed by PYTHON (on t, the JSON).
bad_trace() {
  python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(t, open(sys.argv[3], "w"))' "$viz/bluetooth-buggy.trace.json" "$2" "$1.json"
}
steps='t["trace"]["steps"]'
bad_trace unknown-instance "${steps}[0][\"instance\"] = \"Nobody[1]\""
bad_trace wrong-thread "${steps}[0][\"thread\"] = \"Stopper\""
bad_trace edge-index "${steps}[2][\"edge\"] = 9"
bad_trace edge-target "${steps}[1][\"to\"] = \"Stopped\""
bad_trace out-of-order "${steps}[1], ${steps}[2] = ${steps}[2], ${steps}[1]"
bad_trace unknown-state 't["trace"]["initial"]["instances"]["Stopper"] = "Begin"'
bad_trace not-init-state 't["trace"]["initial"]["instances"]["Stopper"] = "Flagged"'
bad_trace unknown-variable 't["trace"]["initial"]["shared"]["extra"] = 1'
bad_trace wrong-type "${steps}[3][\"state\"][\"shared\"][\"pendingIO\"] = True"
bad_trace missing-variable 'del t["trace"]["initial"]["shared"]["stopped"]'
bad_trace no-steps 'del t["trace"]["steps"]'
bad_trace safe 't["verdict"] = "safe"'
bad_trace other-command 't["command"] = "lint"'
bad_trace no-trace 'del t["trace"]'
bad_trace no-initial 'del t["trace"]["initial"]'
bad_trace no-initial-shared 'del t["trace"]["initial"]["shared"]'
bad_trace no-initial-instances 'del t["trace"]["initial"]["instances"]'
bad_trace no-violation 'del t["trace"]["violation"]'
bad_trace violation-message 'del t["trace"]["violation"]["message"]'
bad_trace violation-expression 'del t["trace"]["violation"]["expression"]'
bad_trace violation-instance 't["trace"]["violation"]["instance"] = 1'
bad_trace violation-unknown 't["trace"]["violation"]["instance"] = "Worker[7]"'
bad_trace missing-instance 'del t["trace"]["initial"]["instances"]["Stopper"]'
bad_trace initial-not-name 't["trace"]["initial"]["instances"]["Stopper"] = 1'
bad_trace step-not-object "${steps}[0] = 1"
bad_trace step-instance "del ${steps}[0][\"instance\"]"
bad_trace step-thread "del ${steps}[0][\"thread\"]"
bad_trace step-state "del ${steps}[0][\"state\"]"
bad_trace step-shared "del ${steps}[0][\"state\"][\"shared\"]"
bad_trace step-edge "del ${steps}[0][\"edge\"]"
bad_trace step-from "del ${steps}[0][\"from\"]"
bad_trace step-to "del ${steps}[0][\"to\"]"
bad_trace edge-negative "${steps}[0][\"edge\"] = -1"
bad_trace edge-source "${steps}[0][\"from\"] = \"Flagged\""
bad_trace index-not-number "${steps}[0][\"instance\"] = \"Worker[x]\""
bad_trace index-trailing "${steps}[0][\"instance\"] = \"Worker[1]x\""
bad_trace index-single "${steps}[0][\"instance\"] = \"Stopper[1]\""
bad_trace index-missing "${steps}[0][\"instance\"] = \"Worker\""
bad_trace index-zero "${steps}[0][\"instance\"] = \"Worker[0]\""
bad_trace bool-as-int 't["trace"]["initial"]["shared"]["stopped"] = 1'
bad_trace above-range 't["trace"]["initial"]["shared"]["pendingIO"] = 99'
bad_trace below-range 't["trace"]["initial"]["shared"]["pendingIO"] = -1'
printf '{"command": "compose", "trace": ' > truncated.json
printf '[1, 2]\n' > array.json
cp "$viz/peterson-broken.trace.json" other-spec.json
cp "$bt" keep.svg
# trace NAME MESSAGE [ARGS...]: viz --trace NAME.json fails with "NAME.json: error: MESSAGE"
# and leaves keep.svg as it was.
trace() {
  local name=$1 msg=$2
  shift 2
  expect "trace-$name" 2 "$name.json: error: $msg" -- "$bb" --trace "$name.json" -o keep.svg "$@"
}
trace unknown-instance "step 1: 'Nobody[1]' is not an instance of the system (was the trace written for another spec, or with other --set values?)"
trace wrong-thread "step 1: Worker[1] is an instance of Worker, not of 'Stopper'"
trace edge-index "step 3: thread Stopper has no edge 9 (it has 6, numbered from 0)"
trace edge-target "step 2: edge 0 of Stopper goes from Start to Flagged, not from Start to Stopped"
trace out-of-order "step 2: Stopper is in state Start, so it cannot take edge Flagged -> Signal"
trace unknown-state "the initial state of Stopper is not a state of thread Stopper"
trace not-init-state "Stopper starts in Flagged, which is not an init state of Stopper"
trace unknown-variable "'extra' is not a shared variable of the spec"
trace wrong-type "step 4: the value of 'pendingIO' is not an integer"
trace missing-variable "the state has no value for 'stopped'"
trace no-steps "the trace has no array \"steps\""
trace safe "the verdict is safe: there is no counterexample to draw"
trace other-command "not a counterexample written by 'athread compose --trace-out' or 'athread conform --json' (no \"command\": \"compose\" or \"conform\")"
trace truncated "not valid JSON (line 1, column 32): unexpected token near end of file"
trace array "not a trace: the JSON is not an object"
trace other-spec "'T1' is not an instance of the system (was the trace written for another spec, or with other --set values?)"
trace no-trace "the file has no object \"trace\""
trace no-initial "the trace has no object \"initial\""
trace no-initial-shared "the initial state has no object \"shared\""
trace no-initial-instances "the initial state has no object \"instances\""
trace no-violation "the trace has no object \"violation\""
trace violation-message "the violation has no string \"message\""
trace violation-expression "the violation has no string \"expression\""
trace violation-instance "the violation's \"instance\" is not a string"
trace violation-unknown "'Worker[7]' is not an instance of the system (was the trace written for another spec, or with other --set values?)"
trace missing-instance "the initial state does not say where every instance is"
trace initial-not-name "the initial state of Stopper is not a state of thread Stopper"
trace step-not-object "step 1: the step is not an object"
trace step-instance "step 1: the step has no string \"instance\""
trace step-thread "step 1: the step has no string \"thread\""
trace step-state "step 1: the step has no object \"state\""
trace step-shared "step 1: the step's state has no object \"shared\""
trace step-edge "step 1: the step has no integer \"edge\""
trace step-from "step 1: the step has no string \"from\""
trace step-to "step 1: the step has no string \"to\""
trace edge-negative "step 1: thread Worker has no edge -1 (it has 6, numbered from 0)"
trace edge-source "step 1: edge 0 of Worker goes from Start to Checked, not from Flagged to Checked"
for name in index-not-number:'Worker[x]' index-trailing:'Worker[1]x' index-single:'Stopper[1]' index-missing:'Worker' index-zero:'Worker[0]'; do
  trace "${name%%:*}" "step 1: '${name#*:}' is not an instance of the system (was the trace written for another spec, or with other --set values?)"
done
trace bool-as-int "the value of 'stopped' is not a bool"
trace above-range "the value 99 of 'pendingIO' is outside its range 0..3"
trace below-range "the value -1 of 'pendingIO' is outside its range 0..3"
trace missing "cannot open file: No such file or directory"
cp "$viz/bluetooth-buggy.trace.json" fewer-workers.json # with N=1 the one worker is "Worker"
trace fewer-workers "'Worker[1]' is not an instance of the system (was the trace written for another spec, or with other --set values?)" --set N=1
if cmp -s keep.svg "$bt" && [ -z "$(ls -A | grep 'keep.svg.')" ]; then pass; else fail "a trace that does not fit touched the output file"; fi

# ---------------------------------------------------------------- conformance counterexamples
# Written by `athread conform SPEC C --json --no-timing`: figure2.athread
# with figure2-bad.c, bluetooth.athread with bluetooth-buggy.c. Hand-written
# in the same shape: figure2-hand has one thread that does not conform,
# figure2-both two (one a failed assertion).
f2=$ex/figure2/figure2.athread
golden figure2-bad-conform "$f2" --trace "$viz/figure2-bad.conform.json"
golden bluetooth-buggy-conform "$bt" --trace "$viz/bluetooth-buggy.conform.json"
golden figure2-hand-conform "$f2" --trace "$viz/figure2-hand.conform.json"
golden figure2-both-conform "$f2" --trace "$viz/figure2-both.conform.json"
golden figure2-both-conform-b "$f2" --trace "$viz/figure2-both.conform.json" --thread B
draw figure2-both-conform "$f2" --trace "$viz/figure2-both.conform.json"
# A long made-up counterexample: 45 steps, F alternating between X1 and
# {X1, X2} (runs in the state labels), the legend's first steps left out.
python3 -c 'import json
cands = lambda k: ["X1"] if k % 6 < 3 else ["X1", "X2"]
step = lambda k: {"kind": "step", "file": "/some/dir/long.c", "line": 10 + k % 3, "statement": "g = g + 1; /* " + "very " * 8 + "long */",
                  "environment": {"g": k}, "candidates_before": cands(k - 1), "after": {"g": k + 1}, "locals": {}, "candidates": cands(k)}
steps = [step(k + 1) for k in range(45)]
del steps[-1]["candidates"]
json.dump({"command": "conform", "threads": [{"thread": "A", "verdict": "does not conform", "counterexample": {
  "initial_candidates": ["X1"], "steps": steps,
  "failure": {"kind": "range", "step": 45, "variable": "g", "message": "made up"}}}]}, open("long-conform.json", "w"))'
golden figure2-long-conform "$f2" --trace long-conform.json
# (ATHREAD_INCLUDE: a binary outside bin/, like build-asan's, does not find include/ by itself)
ATHREAD_INCLUDE=$root/include "$ATHREAD" conform "$f2" "$ex/figure2/figure2-bad.c" --json > fresh-conform.json 2> conform.err
code=$?
if [ $code = 1 ]; then
  check "a counterexample conform just wrote" $VALGRIND "$ATHREAD" viz "$f2" --trace fresh-conform.json -o fresh-conform.svg
  if is_svg fresh-conform.svg 2> svg.err; then pass; else fail "fresh conform overlay: not a valid SVG document"; fi
elif grep -q 'not built yet' conform.err; then
  printf 'note: athread conform is not built; the overlay of a fresh conform counterexample is not tested\n'
else
  fail "conform figure2-bad.c --json: exit $code (expected 1)"
  head -n 5 conform.err
fi

# bad_conform NAME PYTHON: figure2-both.conform.json, changed by PYTHON (on t, the JSON).
bad_conform() {
  python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))
a, b = t["threads"]
ca, cb = a["counterexample"], b["counterexample"]
exec(sys.argv[2])
json.dump(t, open(sys.argv[3], "w"))' "$viz/figure2-both.conform.json" "$2" "$1.json"
}
bad_conform c-unknown-thread 'b["thread"] = "C"'
bad_conform c-twice 'b["thread"] = "A"'
bad_conform c-unknown-initial 'ca["initial_candidates"] = ["X9"]'
bad_conform c-unknown-candidate 'cb["steps"][1]["candidates"] = ["Y3"]'
bad_conform c-other-thread-state 'ca["steps"][0]["candidates_before"] = ["Y1"]'
bad_conform c-unknown-variable 'ca["steps"][2]["after"]["h"] = 1'
bad_conform c-wrong-type 'cb["steps"][0]["environment"]["g"] = True'
bad_conform c-bad-kind 'cb["steps"][2]["kind"] = "assert"'
bad_conform c-no-steps 'del ca["steps"]'
bad_conform c-failure-step 'cb["failure"]["step"] = 4'
bad_conform c-failure-kind 'cb["failure"]["kind"] = "crash"'
bad_conform c-all-conform 'del a["counterexample"]; del b["counterexample"]; a["verdict"] = b["verdict"] = "conforms"; t["not_checked"] = ["B"]; t["threads"] = [a]'
bad_conform c-no-threads 'del t["threads"]'
bad_conform c-one 'del b["counterexample"]; b["verdict"] = "conforms"'
bad_conform c-step-not-object 'cb["steps"][0] = 1'
bad_conform c-no-kind 'del cb["steps"][0]["kind"]'
bad_conform c-no-environment 'del cb["steps"][0]["environment"]'
bad_conform c-locals 'cb["steps"][0]["locals"] = 1'
bad_conform c-local-value 'cb["steps"][0]["locals"] = {"x": "s"}'
bad_conform c-failure-variable 'cb["failure"]["variable"] = "zz"'
bad_conform c-failure-message 'del cb["failure"]["message"]'
bad_conform c-failure-no-kind 'del cb["failure"]["kind"]'
bad_conform c-failure-negative 'cb["failure"]["step"] = -1'
bad_conform c-failure-string 'cb["failure"]["step"] = "1"'
bad_conform c-no-failure 'del cb["failure"]'
bad_conform c-initial-string 'ca["initial_candidates"] = "X1"'
bad_conform c-candidate-number 'cb["steps"][0]["candidates"] = [1]'
bad_conform c-entry 't["threads"][0] = 1'
bad_conform c-counterexample 'a["counterexample"] = 1'
bad_conform c-no-verdict 'del a["verdict"]'
bad_conform c-no-thread 'del a["thread"]'
bad_conform c-not-checked 't["not_checked"] = "B"'
bad_conform c-not-checked-number 't["not_checked"] = [1]'
bad_conform c-not-checked-unknown 't["not_checked"] = ["Z"]'
bad_conform c-empty 't["threads"] = []'
printf '{"command": "conform", "threads": [' > c-truncated.json
# ctrace NAME MESSAGE [ARGS...]: viz --trace NAME.json over figure2 fails with
# "NAME.json: error: MESSAGE" and leaves keep.svg as it was.
ctrace() {
  local name=$1 msg=$2
  shift 2
  expect "conform-$name" 2 "$name.json: error: $msg" -- "$f2" --trace "$name.json" -o keep.svg "$@"
}
ctrace c-unknown-thread "'C' is not a thread of the spec (was the trace written for another spec?)"
ctrace c-twice "thread A is checked twice"
ctrace c-unknown-initial "thread A: 'X9' in \"initial_candidates\" is not a state of thread A"
ctrace c-unknown-candidate "thread B, step 2: 'Y3' in \"candidates\" is not a state of thread B"
ctrace c-other-thread-state "thread A, step 1: 'Y1' in \"candidates_before\" is not a state of thread A"
ctrace c-unknown-variable "thread A, step 3: 'h' in \"after\" is not a shared variable of the spec"
ctrace c-wrong-type "thread B, step 1: the value of 'g' in \"environment\" is not an integer"
ctrace c-bad-kind "thread B, step 3: the step's \"kind\" is 'assert', not \"step\" or \"check\""
ctrace c-no-steps "thread A: the counterexample has no array \"steps\""
ctrace c-failure-step "thread B: the failure's \"step\" is not a step number from 0 to 3"
ctrace c-failure-kind "thread B: the failure's kind 'crash' is not \"not simulated\", \"range\", \"assertion\", \"exit\", \"index\" or \"null\""
ctrace c-all-conform "no thread has a counterexample to draw (A conforms; not checked: B)"
ctrace c-no-threads "the file has no array \"threads\""
ctrace c-truncated "not valid JSON (line 1, column 35): ']' expected near end of file"
ctrace c-step-not-object "thread B, step 1: the step is not an object"
ctrace c-no-kind "thread B, step 1: the step has no string \"kind\""
ctrace c-no-environment "thread B, step 1: the step has no object \"environment\""
ctrace c-locals "thread B, step 1: the step's \"locals\" is not an object"
ctrace c-local-value "thread B, step 1: the value of local 'x' is not an integer or a bool"
ctrace c-failure-variable "thread B: the failure's variable 'zz' is not a shared variable of the spec"
ctrace c-failure-message "thread B: the failure has no string \"message\""
ctrace c-failure-no-kind "thread B: the failure has no string \"kind\""
ctrace c-failure-negative "thread B: the failure's \"step\" is not a step number from 0 to 3"
ctrace c-failure-string "thread B: the failure's \"step\" is not a step number from 0 to 3"
ctrace c-no-failure "thread B: the counterexample has no object \"failure\""
ctrace c-initial-string "thread A: \"initial_candidates\" is not an array of state names"
ctrace c-candidate-number "thread B, step 1: \"candidates\" is not an array of state names"
ctrace c-entry "an entry of \"threads\" is not an object"
ctrace c-counterexample "thread A: the \"counterexample\" is not an object"
ctrace c-no-verdict "an entry of \"threads\" has no string \"verdict\""
ctrace c-no-thread "an entry of \"threads\" has no string \"thread\""
ctrace c-not-checked "\"not_checked\" is not an array of thread names"
ctrace c-not-checked-number "\"not_checked\" is not an array of thread names"
ctrace c-not-checked-unknown "'Z' in \"not_checked\" is not a thread of the spec"
ctrace c-empty "no thread has a counterexample to draw (the file checks no thread)"
ctrace c-one "--thread B: the trace has no counterexample for thread B (A does not conform; B conforms)" --thread B
expect conform-on-other-spec 2 "$viz/figure2-bad.conform.json: error: 'A' is not a thread of the spec (was the trace written for another spec?)" -- "$bt" --trace "$viz/figure2-bad.conform.json" -o keep.svg
if cmp -s keep.svg "$bt" && [ -z "$(ls -A | grep 'keep.svg.')" ]; then pass; else fail "a conformance trace that does not fit touched the output file"; fi

# ---------------------------------------------------------------- valgrind
if [ -z "$VALGRIND" ] && command -v valgrind > /dev/null && ! ldd "$ATHREAD" 2> /dev/null | grep -q libasan; then
  vg() {
    if valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=9 \
         --suppressions="$viz/graphviz.supp" "$ATHREAD" viz "$@" 2> vg.err; then
      pass
    else
      fail "valgrind, viz $*: a leak or memory error outside Graphviz"
      head -n 30 vg.err
    fi
  }
  vg "$features" --idle -o vg.dot
  vg "$bb" --trace "$viz/bluetooth-buggy.trace.json" -o vg.svg
  vg "$ex/peterson/peterson-broken.athread" --trace "$viz/peterson-broken.trace.json" -o vg.png
  vg "$f2" --trace "$viz/figure2-both.conform.json" -o vg.svg
  valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=9 \
    --suppressions="$viz/graphviz.supp" "$ATHREAD" viz "$f2" --trace c-unknown-candidate.json -o vg.svg 2> vg.err
  if [ $? = 2 ]; then pass; else fail "valgrind, a conformance trace that does not fit: a leak or memory error"; head -n 30 vg.err; fi
fi

summary viz
[ $failed = 0 ]
