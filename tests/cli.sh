#!/usr/bin/env bash
# tests/cli.sh -- command-line cases that need more than one spec file:
# files that are not specs, options, help, exit codes, in-place rewriting.
set -u
source "$(dirname "$0")/setup"
cd "$SCRATCH"

# expect NAME EXIT STDOUT STDERR -- COMMAND...: runs athread with COMMAND and
# compares the exit code and both outputs exactly. Standard input is the file
# STDIN names, else /dev/null (expect_match too).
expect() {
  local name=$1 want_exit=$2 want_out=$3 want_err=$4
  shift 5
  $VALGRIND "$ATHREAD" "$@" > out.stdout 2> out.stderr < "${STDIN:-/dev/null}"
  local got=$?
  if [ "$got" = "$want_exit" ] && [ "$(cat out.stdout)" = "$want_out" ] && [ "$(cat out.stderr)" = "$want_err" ]; then
    pass
  else
    fail "$name: exit $got (expected $want_exit)"
    diff <(printf '%s\n' "$want_out") out.stdout | head -n 10
    diff <(printf '%s\n' "$want_err") out.stderr | head -n 10
  fi
}

# expect_match NAME EXIT PATTERN -- COMMAND...: exit code, and stdout+stderr match the grep pattern.
expect_match() {
  local name=$1 want_exit=$2 pattern=$3
  shift 4
  $VALGRIND "$ATHREAD" "$@" > out.all 2>&1 < "${STDIN:-/dev/null}"
  local got=$?
  if [ "$got" = "$want_exit" ] && grep -qa -- "$pattern" out.all; then pass; else fail "$name: exit $got"; head -n 5 out.all; fi
}

printf 'shared int g;\nthread A { init state S assert g > 0; }\n' > ok.athread

# ---------------------------------------------------------------- inputs that are not specs
expect missing-file 2 "" "missing.athread: error: cannot open file: No such file or directory" -- lint missing.athread
mkdir -p adir.athread
expect directory 2 "" "adir.athread: error: is a directory, not a file" -- lint adir.athread
printf 'shared int g;\nthread A {\n  init st\0ate S;\n}\n' > nul.athread
expect nul-byte 2 "" "nul.athread:3:10: error: NUL byte in input (is this a binary file?)
  init st?ate S;
         ^" -- lint nul.athread
head -c 10485760 /dev/zero | tr '\0' ' ' > big.athread
expect ten-megabytes 2 "" "big.athread: error: file is too large (the limit is 8388608 bytes)" -- lint big.athread
printf '\xff\xfe garbage' > binary.athread
expect_match binary-garbage 2 'binary.athread:1:1: error: non-ASCII text is allowed only in comments and labels' -- lint binary.athread
: > empty.athread
expect empty-spec 0 "" "" -- lint empty.athread

awk 'BEGIN { printf "shared int x;\nthread T { init state S assert x"; for (i = 0; i < 3000; i++) printf "+x"; print " > 0; }" }' > deep.athread
expect_match deep-expression 2 "deep.athread:2:32: error: this expression is nested 3002 levels deep; the limit is 1000" -- lint deep.athread
awk 'BEGIN { printf "shared bool x;\nthread T { init state S assert "; for (i = 0; i < 20000; i++) printf "("; printf "x"; for (i = 0; i < 20000; i++) printf ")"; print "; }" }' > parens.athread
expect_match deep-parentheses 2 "parens.athread:2:10024: error: memory exhausted: the text is nested too deeply" -- lint parens.athread
awk 'BEGIN { print "thread Big {"; print "  init state S0;"; for (i = 1; i < 100000; i++) print "  state S" i ";"; for (i = 1; i < 100000; i++) print "  S" i-1 " -> S" i " : true;"; print "}" }' > big-thread.athread
expect huge-thread-is-fine 0 "" "" -- lint big-thread.athread

# ---------------------------------------------------------------- several files, options
printf 'thread B { state S; }\n' > noinit.athread
expect_match several-files-one-bad 2 "noinit.athread:1:8: error: thread 'B' has no init state" -- lint ok.athread noinit.athread
expect no-spec 2 "" "athread: error: no specification given (try 'athread lint --help')" -- lint
expect bad-option 2 "" "athread: error: unknown option '--frobnicate' (try 'athread lint --help')" -- lint --frobnicate ok.athread
expect set-missing-argument 2 "" "athread: error: option '--set' needs a value (try 'athread lint --help')" -- lint ok.athread --set
expect option-typo 2 "" "athread: error: unknown option '--tiemout'; did you mean '--timeout'? (try 'athread compose --help')" -- compose ok.athread --tiemout 3
expect option-abbreviated 2 "" "athread: error: unknown option '--trace'; did you mean '--trace-out'? (options are not abbreviated) (try 'athread compose --help')" -- compose ok.athread --trace t.json
expect option-abbreviated-with-value 2 "" "athread: error: unknown option '--time=3'; did you mean '--timeout'? (options are not abbreviated) (try 'athread compose --help')" -- compose ok.athread --time=3
expect option-takes-no-value 2 "" "athread: error: option '--json' takes no value (try 'athread compose --help')" -- compose ok.athread --json=3
expect short-option-in-a-cluster 2 "" "athread: error: unknown option '-x' (try 'athread viz --help')" -- viz ok.athread -xo out.dot
expect command-typo 2 "" "athread: error: unknown command 'compse'; did you mean 'compose'? (try 'athread --help')" -- compse ok.athread
printf 'const N = 2;\nshared int g;\nthread A { init state S; }\nsystem Sys { A[N]; }\n' > withn.athread
expect set-typo 2 "" "athread: error: --set n=3: withn.athread declares no const 'n'; did you mean 'N'?" -- lint withn.athread --set n=3
expect set-not-integer 2 "" "athread: error: --set expects NAME=INTEGER, got 'N=many'" -- lint --set N=many ok.athread
expect unknown-command 2 "" "athread: error: unknown command 'verify' (try 'athread --help')" -- verify ok.athread
expect_match no-command 2 '^usage: athread COMMAND' --

# ---------------------------------------------------------------- --diagnostics-format (tests/diagnostics: golden cases, schemas)
expect_match diagnostics-unknown-command 2 '"message": "unknown command .verify. (try .athread --help.)"' -- verify ok.athread --diagnostics-format json
expect_match diagnostics-option-read-first 2 '"text": "unknown option .--frobnicate. (try .athread lint --help.)"' -- lint --frobnicate ok.athread --diagnostics-format sarif
printf 'shared int g\n' > no-semicolon.athread
STDIN=no-semicolon.athread expect_match diagnostics-stdin 2 '"file": "<stdin>"' -- lint - --diagnostics-format json
$VALGRIND "$ATHREAD" lint --help --diagnostics-format json > out.stdout 2> out.stderr
if grep -q '^usage: athread lint' out.stdout && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["diagnostics"] == [] and d["exit_code"] == 0' out.stderr 2>/dev/null; then pass; else fail "lint --help --diagnostics-format json: help on stdout, an empty log on stderr"; fi
expect diagnostics-after-double-dash 2 "" "--diagnostics-format=json: error: cannot open file: No such file or directory" -- lint -- --diagnostics-format=json

# ---------------------------------------------------------------- help and version
expect version 0 "athread 0.2.0" "" -- --version
expect_match help 0 '^Exit codes: 0 holds' -- --help
for c in lint fmt conform check compose replay viz promela murphi skeleton races infer; do
  expect_match "help-$c" 0 "^usage: athread $c" -- "$c" --help
  expect_match "help-command-$c" 0 "^usage: athread $c" -- help "$c"
done

# ---------------------------------------------------------------- conform
printf 'shared int g;\nthread A implements thread_a { init state X1 assert g > 0; state X2; X1 -> X2 : g%s > 0; }\nthread B { init state Y; }\n' "'" > p.athread
printf '#include <athread.h>\nint g;\nvoid thread_a(void) {\n  int x = 1;\n  while (*) {\n    if (*) x = g; else if (x < 1000) x = x + 1;\n  }\n  g = x;\n}\nvoid thread_b(void) { g = 0; }\n' > p.c
sed 's/int x = 1/int x = -1/' p.c > bad.c
expect_match conform-ok 0 "thread A implements thread_a: conforms (chc" -- conform p.athread p.c
expect_match conform-not-checked 0 "thread B: not checked (no implementation" -- conform p.athread p.c
expect_match conform-bad 1 "reason: step 2 is not simulated" -- conform p.athread bad.c
expect_match conform-thread-option 1 "thread B implements thread_b: does not conform" -- conform p.athread p.c --thread B=thread_b
expect conform-no-c-file 2 "" "athread: error: expected a specification and at least one C file (try 'athread conform --help')" -- conform p.athread
expect conform-unknown-thread 2 "" "athread: error: --thread names 'AA', which is not a thread of p.athread (did you mean 'A'?)" -- conform p.athread p.c --thread AA=thread_a
expect_match conform-bad-thread-option 2 "expects THREAD=FUNCTION" -- conform p.athread p.c --thread A
expect_match conform-missing-function 2 "p.athread:2:21: error: no function 'thread_a' in the C files given" -- conform p.athread /dev/null
printf 'shared int g;\nthread A { init state X; }\n' > none.athread
expect_match conform-no-implementation 2 "no thread has an implementation" -- conform none.athread p.c
expect_match conform-bad-engine 2 "engine must be auto, chc or bmc" -- conform p.athread p.c --engine fast
expect_match conform-bmc-bound 3 "unknown (bmc" -- conform p.athread p.c --engine bmc --bound 3
expect_match conform-bmc-finds 1 "does not conform (bmc" -- conform p.athread bad.c --engine bmc --bound 20
# Counterexamples carry small values (smt_small_model): under --env havoc Z3's
# first models started with pendingIO = 17, NumQueuedWorkers = 11 and sent =
# 5; every value of the start, the environment and the steps is now within
# [-1, 1] (a trace bmc found, and one bmc found after Spacer's violation).
for ex in bluetooth/bluetooth.athread:bluetooth/bluetooth-buggy.c:bmc battery/battery.athread:battery/battery-buggy.c:chc \
          tutorial/dispatch.athread:tutorial/dispatch-v1.c:bmc; do
  IFS=: read -r spec code engine <<< "$ex"
  "$ATHREAD" conform "$TESTS_DIR/../examples/$spec" "$TESTS_DIR/../examples/$code" --env havoc --no-timing > small.out
  got=$?
  values=$(grep -E '^ +(start|environment|after|read|at the failure):' small.out | grep -oE '= -?[0-9]+' | tr -d '= ')
  if [ $got = 1 ] && grep -q "does not conform ($engine)" small.out && [ -n "$values" ] &&
     ! grep -qvxE -- '-?[01]' <<< "$values"; then pass
  else fail "conform $code --env havoc: a value beyond [-1, 1], or no counterexample by $engine"; cat small.out; fi
done
$VALGRIND "$ATHREAD" conform p.athread p.c --timeout 0.001 > out.stdout 2>&1
got=$?
if [ $got = 3 ] && grep -q "unknown" out.stdout || [ $got = 0 ]; then pass; else fail "conform --timeout 0.001: exit $got"; cat out.stdout; fi
expect_match conform-json 0 '"verdict": "conforms"' -- conform p.athread p.c --json
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["command"] == "conform" and d["not_checked"] == ["B"]' out.all 2>/dev/null; then pass; else fail "conform --json is not the expected object"; fi
# Text that is not UTF-8 (a path, a C statement) reaches the JSON as U+FFFD, never dropped.
cp p.athread $'p\xff.athread'
printf '#include <athread.h>\nint g;\nvoid thread_a(void) { g = \x27\xff\x27; }\n' > latin1.c
printf 'shared int g;\nthread A implements thread_a { init state S; }\n' > latin1.athread
expect_match conform-json-not-utf8-statement 1 $'"statement": "g = \'\xef\xbf\xbd\'"' -- conform latin1.athread latin1.c --json
expect_match conform-json-not-utf8-path 0 $'"spec": "p\xef\xbf\xbd.athread"' -- conform $'p\xff.athread' p.c --json
expect_match compose-json-not-utf8-path 1 $'"spec": "p\xef\xbf\xbd.athread"' -- compose $'p\xff.athread' --json
printf '#include <athread.h>\nint g;\n#line 1 "/dev/zero"\nvoid thread_a(void) { g = 1; }\n' > line-device.c
# A #line names another file: code stays located in the file clang read (no other file is opened).
expect_match conform-line-marker-device 1 "line-device.c:4:23: g = 1" -- conform latin1.athread line-device.c
expect_match conform-emit-c 0 "conforms" -- conform p.athread p.c --emit-c ok-ca.c --emit-smt2 ok-ca.smt2
"$ATHREAD" conform p.athread bad.c --emit-c bad-ca.c --emit-smt2 bad-ca.smt2 > /dev/null
for f in ok-ca.c bad-ca.c; do
  if gcc -std=c11 -c -o /dev/null "$f" 2> gcc.err; then pass; else fail "gcc rejects the emitted $f"; head -n 5 gcc.err; fi
done
if [ "$(z3 -T:60 ok-ca.smt2)" = sat ] && [ "$(z3 -T:60 bad-ca.smt2)" = unsat ]; then pass; else fail "z3 does not re-check the emitted Horn clauses (sat = conforms)"; fi
expect_match conform-emit-unwritable 2 "cannot create output file" -- conform p.athread p.c --emit-c /nonexistent/dir/x.c
if [ ! -s out.all ] || ! grep -q "conforms" out.all; then pass; else fail "conform printed a verdict after an output error"; fi
expect_match conform-emit-per-thread 1 "thread B implements thread_a: does not conform" -- conform p.athread p.c --thread B=thread_a --emit-c two.c
if [ -f two.A.c ] && [ -f two.B.c ]; then pass; else fail "--emit-c with two threads did not write two.A.c and two.B.c"; fi
# The emitted C of a program with C's narrow integers, bitwise operators, shifts, casts, ?:, a pointer, an
# array, a bounded variable and the spec's ==> and <==> compiles (with C's integers and with mathematical ones).
printf 'shared int[0..3] r;\nshared bool flag;\nshared int u binds uc;\nshared int a[2];\nthread T implements worker {\n  init state S assert (flag ==> r < 3) && (flag <==> flag);\n  S -> S : r%s == r;\n  S -> S : r%s == (r + 1) %% 4 && (flag ==> a%s[0] == a[0]);\n}\n' "'" "'" "'" > ops.athread
printf '#include <athread.h>\nint r;\n_Bool flag;\nunsigned char uc;\nint a[2];\nvoid worker(void) {\n  short s = (short)__VERIFIER_nondet_int();\n  unsigned char c = uc;\n  int x = 0;\n  int *p = &x;\n  if (*) *p = s << 2; else *p = (s >> 1) ^ (c & 3) | ~c;\n  a[x & 1] = flag ? x : -x;\n  uc = (unsigned char)(c + 1);\n  while (*) { if (r < 3) r = r + 1; else r = 0; }\n  assert(!flag || r < 4);\n}\n' > ops.c
expect_match conform-emit-c-int-c 1 "reason: step 2: left shift of a negative value: s << 2" -- conform ops.athread ops.c --int c --emit-c ops-c.c
sed -e 's/  if (\*) \*p = s << 2; else \*p = (s >> 1) ^ (c & 3) | ~c;/  *p = s;/' -e 's/a\[x & 1\]/a[x % 2]/' ops.c > ops-math.c
expect_match conform-emit-c-int-math 1 "does not conform" -- conform ops.athread ops-math.c --emit-c ops-m.c
for f in ops-c.c ops-m.c; do
  if gcc -std=c11 -Wall -Werror -c -o /dev/null "$f" 2> gcc.err; then pass; else fail "gcc rejects the emitted $f"; head -n 5 gcc.err; fi
done
if grep -q '__VERIFIER_assume(r == (int)r)' ops-c.c && grep -q '(long long)(int)(~c)' ops-c.c && ! grep -q 'unsupported' ops-c.c ops-m.c; then pass; else fail "the emitted C misses C's types"; fi

# ---------------------------------------------------------------- fmt
printf 'shared   int g ;\nthread A{init state S assert (g>0);}\n' > messy.athread
cp messy.athread messy-orig.athread
chmod 640 messy.athread
expect fmt-check-messy 1 "messy.athread" "" -- fmt --check messy.athread
expect fmt-in-place 0 "" "" -- fmt -i messy.athread
expect fmt-check-clean 0 "" "" -- fmt --check messy.athread
if [ "$(stat -c %a messy.athread)" = 640 ]; then pass; else fail "fmt -i changed the file mode to $(stat -c %a messy.athread)"; fi
if [ -z "$(ls -A | grep 'messy.athread.')" ]; then pass; else fail "fmt -i left a temporary file"; fi
printf 'thread A { init state S }\n' > broken.athread
cp broken.athread broken-orig.athread
expect_match fmt-in-place-syntax-error 2 "broken.athread:1:25: error: expected ';' before '}'" -- fmt -i broken.athread
if cmp -s broken.athread broken-orig.athread; then pass; else fail "fmt -i rewrote a file with syntax errors"; fi
printf 'shared int  g;\nthread A {\n  init state S assert g > 0;\n}\n' > ok.athread
expect fmt-two-files 0 "shared int g;

thread A {
  init state S assert g > 0;
}
shared int g;

thread A {
  init state S assert g > 0;
}" "" -- fmt ok.athread messy.athread
expect fmt-no-file 2 "" "athread: error: no specification given (try 'athread fmt --help')" -- fmt
expect fmt-modes-exclusive 2 "" "athread: error: --in-place, --check and --diff exclude each other (try 'athread fmt --help')" -- fmt -i --diff ok.athread
cp ok.athread ok-orig.athread
cp broken-orig.athread broken.athread
expect fmt-check-lists 1 "ok.athread" "" -- fmt --check messy.athread ok.athread
expect fmt-list-spelling 1 "ok.athread" "" -- fmt -l ok.athread messy.athread
expect fmt-check-broken 2 "ok.athread" "broken.athread:1:25: error: expected ';' before '}'
thread A { init state S }
                        ^" -- fmt --list ok.athread broken.athread
expect fmt-diff 1 "--- ok.athread
+++ ok.athread
@@ -1,4 +1,5 @@
-shared int  g;
+shared int g;
+
 thread A {
   init state S assert g > 0;
 }" "" -- fmt --diff ok.athread messy.athread
if cmp -s ok.athread ok-orig.athread; then pass; else fail "fmt --check or --diff changed a file"; fi
if patch -s -o ok-patched.athread ok.athread < out.stdout && "$ATHREAD" fmt --check ok-patched.athread; then pass; else fail "fmt --diff's output does not patch the file into canonical layout"; fi
cp messy-orig.athread messy.athread
expect fmt-in-place-many-one-broken 2 "" "broken.athread:1:25: error: expected ';' before '}'
thread A { init state S }
                        ^" -- fmt -i messy.athread broken.athread ok.athread
if cmp -s broken.athread broken-orig.athread; then pass; else fail "fmt -i rewrote the file with syntax errors"; fi
expect fmt-in-place-many-done 0 "" "" -- fmt --check messy.athread ok.athread
STDIN=messy-orig.athread expect fmt-check-stdin 1 "<stdin>" "" -- fmt --check -
# fmt is idempotent: the layout of every example's layout is itself
for spec in "$TESTS_DIR"/../examples/*/*.athread; do
  "$ATHREAD" fmt "$spec" > once.athread && "$ATHREAD" fmt once.athread > twice.athread
  if cmp -s once.athread twice.athread; then pass; else fail "fmt is not idempotent on $(basename "$spec")"; fi
done
# a run of edges keeps its columns across a blank line; a long item is broken
printf 'shared int x;\nthread T {\n  init state A;\n  state Bee;\n  A -> Bee "go" when x > 0;\n\n  Bee -> A do x := x + 1;\n  A -> A when x == 1000000000 && x == 1000000001 && x == 1000000002 && x == 1000000003 && x == 1000000004;\n}\n' > runs.athread
expect fmt-columns-and-breaks 0 "shared int x;

thread T {
  init state A;
  state Bee;
  A   -> Bee \"go\" when x > 0;

  Bee -> A        do x := x + 1;
  A -> A
      when x == 1000000000 && x == 1000000001 && x == 1000000002 && x == 1000000003
      && x == 1000000004;
}" "" -- fmt runs.athread
if [ -w /dev/full ]; then
  $VALGRIND "$ATHREAD" fmt ok.athread > /dev/full 2> out.stderr
  if [ $? = 4 ] && grep -q "cannot write to standard output" out.stderr; then pass; else fail "fmt to a full disk"; fi
fi

# ---------------------------------------------------------------- compose outputs and limits
printf 'shared bool lock = false;\nthread P { init state Idle; state Crit; Idle -> Crit when !lock; Crit -> Idle : true; }\nsystem S { P[2]; invariant count(P@Crit) <= 1; }\n' > race.athread
expect_match trace-out 1 "system S: unsafe" -- compose race.athread --trace-out race.json
if python3 -c 'import json,sys; t=json.load(open("race.json")); assert t["verdict"] == "unsafe" and len(t["trace"]["steps"]) == 2' 2>/dev/null; then pass; else fail "--trace-out did not write the trace"; fi
expect_match trace-out-unwritable 2 "cannot create output file" -- compose race.athread --trace-out /nonexistent/dir/t.json
# "-" is standard input or output wherever a file is read or written
STDIN=race.athread expect_match trace-out-stdout 1 '"command": "compose"' -- compose - --trace-out -
if [ -e ./- ]; then fail "--trace-out - wrote a file named '-'"; else pass; fi
STDIN=race.athread expect lint-stdin 0 "" "" -- lint -
printf 'shared int g\n' > unterminated.athread
STDIN=unterminated.athread expect lint-stdin-error 2 "" "<stdin>:1:13: error: expected ';' before end of file
shared int g
            ^" -- lint -
STDIN=race.athread expect_match fmt-stdin 0 '^system S {' -- fmt -
STDIN=race.athread expect_match promela-stdout 0 'as a Promela model for SPIN' -- promela - -o -
STDIN=race.athread expect_match murphi-stdout 0 'as a Murphi model for rumur' -- murphi - -o -
printf 'const N = 16;\nshared int[0..N] x = 0;\nthread T { init state A; state B; A -> B when x < N do x := x + 1; B -> A : true; }\nsystem S { T[N]; }\n' > wide.athread
expect_match timeout 3 "unknown: the time limit (--timeout) was reached" -- compose wide.athread --no-symmetry --timeout 0.2
expect_match memory-limit 3 "unknown: the memory limit was reached" -- compose wide.athread --no-symmetry --max-memory 1
expect_match bad-engine 2 "engine must be auto, explicit or symbolic" -- compose race.athread --engine fast
expect_match symbolic-unsafe 1 "system S: unsafe" -- compose race.athread --engine symbolic
printf 'const N = 2;\nshared bool lock = false;\nthread P { init state Idle; state Crit; Idle -> Crit when !lock do lock := true; Crit -> Idle do lock := false; }\nsystem S { P[N]; invariant count(P@Crit) <= 1; }\n' > lock-n.athread
sed 's/when !lock do lock := true/when true/' lock-n.athread > race-n.athread
sed 's/invariant count(P@Crit) <= 1/invariant count(P@Crit) <= 1 \&\& !P[1]@Crit/' lock-n.athread > by-index.athread
sed 's/Idle -> Crit when !lock/Idle -> Crit when !lock \&\& tid > 0/' lock-n.athread > uses-tid.athread
expect_match for-all-safe 0 "system S: safe for every N >= 1 (for-all, counter abstraction, Spacer)" -- compose lock-n.athread --for-all N --no-timing
expect_match for-all-ignored 0 "note: N = 5 from --set is not used: the proof covers every N >= 1" -- compose lock-n.athread --for-all N --set N=5
expect_match for-all-certificate 0 "^  count(P@Idle) + count(P@Crit) == N$" -- compose lock-n.athread --for-all N --certificate
expect_match for-all-certificate-smt 0 "inductive invariant: (and (<= 0 |count(P@Idle)|)" -- compose lock-n.athread --for-all N --certificate-format smt
expect_match for-all-unsafe 1 "system S: unsafe for N = 2: system invariant count(P@Crit) <= 1 is false" -- compose race-n.athread --for-all N
expect_match for-all-unsafe-trace 1 "trace by engine explicit with N = 2" -- compose race-n.athread --for-all N
expect_match for-all-json 0 '"engine": "for-all"' -- compose lock-n.athread --for-all N --json
expect_match for-all-trace-out 1 "unsafe for N = 2" -- compose race-n.athread --for-all N --trace-out race-n.json
if python3 -c 'import json; t=json.load(open("race-n.json")); assert t["for_all"]["n"] == 2 and len(t["trace"]["steps"]) == 2' 2>/dev/null; then pass; else fail "--for-all --trace-out did not write the trace"; fi
expect_match for-all-by-index 2 "--for-all N needs a symmetric thread, but this names an instance of 'P' by index" -- compose by-index.athread --for-all N
expect_match for-all-tid 2 "--for-all N needs a symmetric thread, but 'P' (P\[N\] in the system) uses tid" -- compose uses-tid.athread --for-all N
expect_match for-all-no-const 2 "the spec has no const named 'M'" -- compose lock-n.athread --for-all M
sed 's/P\[N\]/P[2]/' lock-n.athread > fixed-count.athread
expect_match for-all-not-counted 2 "no thread of the system has N instances" -- compose fixed-count.athread --for-all N
expect_match bad-timeout 2 "--timeout expects a non-negative number, got 'soon'" -- compose race.athread --timeout soon
# --json on bad input answers with one error object on stdout: from the engine (--for-all), not twice after a verdict
$VALGRIND "$ATHREAD" compose fixed-count.athread --for-all N --json > out.stdout 2> /dev/null
if [ $? = 2 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"] == "error" and "no thread of the system has N instances" in d["diagnostics"][0]["message"]' out.stdout 2>/dev/null; then pass; else fail "compose --for-all --json: no error object"; fi
$VALGRIND "$ATHREAD" compose race.athread --json --trace-out /nonexistent/dir/t.json > out.stdout 2> /dev/null
if [ $? = 2 ] && python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["verdict"] == "unsafe"' out.stdout 2>/dev/null; then pass; else fail "compose --json with an unwritable --trace-out: not the one verdict object"; fi

# ---------------------------------------------------------------- --progress (core/progress.h)
# expect_progress NAME EXIT PATTERN -- COMMAND...: with every phase printed
# (ATHREAD_PROGRESS_INTERVAL=0), the exit code, a line of stderr matches the
# extended regex, and stdout has no progress line.
expect_progress() {
  local name=$1 want_exit=$2 pattern=$3
  shift 4
  ATHREAD_PROGRESS_INTERVAL=0 $VALGRIND "$ATHREAD" "$@" > out.stdout 2> out.stderr < /dev/null
  local got=$?
  if [ "$got" = "$want_exit" ] && grep -qE -- "$pattern" out.stderr && ! grep -qE '^(compose|conform|check): ' out.stdout; then
    pass
  else
    fail "$name: exit $got (expected $want_exit), stderr:"
    head -n 5 out.stderr
  fi
}
# expect_no_progress NAME -- COMMAND...: stderr has no progress line (interval 0 as above).
expect_no_progress() {
  local name=$1
  shift 2
  ATHREAD_PROGRESS_INTERVAL=0 $VALGRIND "$ATHREAD" "$@" > out.stdout 2> out.stderr < /dev/null
  if grep -qE '^(compose|conform|check): ' out.stderr out.stdout; then fail "$name: a progress line"; head -n 3 out.stderr; else pass; fi
}
printf 'shared int n = 0;\nthread Counter { init state Run; Run -> Run do n := n + 1; }\n' > counter.athread
expect_progress progress-explicit 3 '^compose: [0-9]+ states, [0-9]+ expanded, depth [0-9]+, [0-9]+ states/s, [0-9.]+ MiB \([0-9.]+ s\)$' -- compose counter.athread --max-states 3000 --progress
expect_progress progress-symbolic-spacer 1 "^compose: Spacer \(IC3/PDR\) is looking for an inductive invariant \([0-9.]+ s\)$" -- compose race.athread --engine symbolic --progress
expect_progress progress-symbolic-bmc 1 '^compose: bounded model checking, depth 2 \([0-9.]+ s\)$' -- compose race.athread --engine symbolic --progress
expect_progress progress-for-all-hints 1 '^compose: guessing affine invariants of the counter system from sampled states \(' -- compose race-n.athread --for-all N --progress
expect_progress progress-for-all-n 1 '^compose: bounded model checking, depth 2: a counterexample with N = 2; looking for a smaller N \(' -- compose race-n.athread --for-all N --progress
expect_progress progress-for-all-rerun 1 '^compose: the counter system has a counterexample with N = 2; checking the concrete system with N = 2$' -- compose race-n.athread --for-all N --progress
expect_progress progress-conform-start 0 '^conform: thread A \(1/1\): checking thread_a$' -- conform p.athread p.c --progress
expect_progress progress-conform-end 0 '^conform: thread A \(1/1\): conforms, engine chc, [0-9.]+ s$' -- conform p.athread p.c --progress
# Thread A's invariant comes from the guarded templates; q.c's (x - y >= 1) from none: Spacer's.
expect_progress progress-conform-guarded 0 '^conform: thread A \(1/1\): guessing an invariant from templates guarded by the states \(' -- conform p.athread p.c --progress
printf '#include <athread.h>\nint g;\nvoid thread_a(void) {\n  int x = 1, y = 0;\n  while (*) {\n    if (*) { x = g; y = 0; } else if (x < 1000) { x = x + 2; y = y + 1; }\n  }\n  g = x - y;\n}\n' > q.c
expect_progress progress-conform-engine 0 '^conform: thread A \(1/1\): Spacer \(IC3/PDR\) is looking for an inductive invariant \(' -- conform p.athread q.c --progress
expect_progress progress-conform-threads 1 '^conform: thread B \(2/2\): does not conform, engine (bmc|chc), [0-9.]+ s$' -- conform p.athread p.c --thread B=thread_a --progress
TUTORIAL=$TESTS_DIR/../examples/tutorial
expect_progress progress-check-system 0 '^check: the abstract system: done, [0-9.]+ s$' -- check "$TUTORIAL/dispatch.athread" "$TUTORIAL/dispatch.c" --progress
expect_progress progress-check-environment 0 "^check: the environment: exploring the abstract system for the other threads' moves$" -- check "$TUTORIAL/dispatch.athread" "$TUTORIAL/dispatch.c" --progress
expect_progress progress-check-thread 0 '^check: thread Dispatcher \(1/1\): conforms, engine (bmc|chc), [0-9.]+ s$' -- check "$TUTORIAL/dispatch.athread" "$TUTORIAL/dispatch.c" --progress
# Off unless asked (stderr is not a terminal here), and never in json or sarif diagnostics: stderr holds one document.
expect_no_progress progress-off -- compose counter.athread --max-states 3000

# ---------------------------------------------------------------- --threads
expect threads-zero 2 "" "athread: error: --threads expects a whole number from 1 to 64, got '0'" -- compose counter.athread --threads 0
expect threads-too-many 2 "" "athread: error: --threads expects a whole number from 1 to 64, got '65'" -- compose counter.athread --threads 65
expect threads-fraction 2 "" "athread: error: --threads expects a whole number from 1 to 64, got '1.5'" -- compose counter.athread --threads 1.5
expect threads-word 2 "" "athread: error: --threads expects a non-negative number, got 'two'" -- compose counter.athread --threads two
# The state limit is exact with any number of workers (one adds the round that reaches it).
for n in 1 3; do
  expect_match "threads-$n-state-limit" 3 '^3000 states, ' -- compose counter.athread --max-states 3000 --threads $n --no-timing
done
# Levels of many rounds (without symmetry: Bluetooth N=6, 120,840 states;
# the buggy driver N=8, whose bad state is found in a level of more than
# 8,192 states, several rounds on every number of workers): the same output
# for 1, 2 and 5 workers but for the memory figures; a bad ATHREAD_THREADS
# is ignored (one per core).
for spec in bluetooth:6 bluetooth-buggy:8; do
  for n in 1 2 5 env; do
    if [ $n = env ]; then threads=(); else threads=(--threads $n); fi
    ATHREAD_THREADS=many $VALGRIND "$ATHREAD" compose "$TESTS_DIR/../examples/bluetooth/${spec%:*}.athread" --set N=${spec#*:} --no-symmetry --no-timing "${threads[@]}" 2>&1 | sed 's/, [0-9]* bytes\{0,1\} per .*$//' > "threads-$n.out"
  done
  if grep -q ' states, ' threads-1.out && cmp -s threads-1.out threads-2.out && cmp -s threads-1.out threads-5.out && cmp -s threads-1.out threads-env.out; then pass; else fail "threads-agree-$spec"; diff threads-1.out threads-5.out | head -n 5; fi
done
# A small search on three workers prints the same report, memory figures
# included, on every run (each worker expands its own store's states; when
# they claimed each other's, 10 runs gave up to 4 different reports).
for i in 1 2 3 4 5 6 7 8 9 10; do
  "$ATHREAD" compose "$TESTS_DIR/../examples/bakery/bakery-broken.athread" --threads 3 --no-timing > "same-$i.out" 2>&1
done
if grep -q ' bytes per state' same-1.out && [ "$(cat same-*.out | md5sum)" = "$(for i in 1 2 3 4 5 6 7 8 9 10; do cat same-1.out; done | md5sum)" ]; then
  pass
else
  fail "small-search-same-report"
fi
# Rounds that end at a worker's successor cap (65,536) in the middle of a
# level: 600 states of 600 successors each (x chosen from its type), whose
# unexpanded states go to the next round. The same counts for 1, 2 and 3
# workers, and for 2 with --max-states (each worker its own store's states).
printf 'shared int[0..599] x = 0;\nshared int[0..7] y = 0;\nthread T { init state A; A -> A : y < 7 && y'"'"' == y + 1 && x'"'"' >= 0; }\nsystem S { T[1]; }\n' > wide-rounds.athread
for n in 1 2 3; do
  expect_match "wide-rounds-$n" 0 '^4201 states, 2160600 transitions, depth 7' -- compose wide-rounds.athread --threads $n --no-timing
done
expect_match wide-rounds-limit 3 '^4000 states, ' -- compose wide-rounds.athread --threads 2 --max-states 4000 --no-timing
# Searches large enough for the workers' recent-state filter (from 4,096
# states on): the counts rumur finds on the same models (bench/compose-vs-rumur),
# for 1 and 2 workers, with and without symmetry.
python3 "$TESTS_DIR/../bench/gen-mutex" 9 > mutex9.athread
for n in 1 2; do
  expect_match "recent-bluetooth-$n" 0 '^120840 states, ' -- compose "$TESTS_DIR/../examples/bluetooth/bluetooth.athread" --set N=6 --no-symmetry --threads $n --no-timing
  expect_match "recent-mutex-$n" 0 '^70785 states, ' -- compose mutex9.athread --set N=8 --threads $n --no-timing
done
# The counted view against bench/ceiling's search of the Bluetooth system,
# written by hand and sharing no code with athread: the same states and
# transitions.
if gcc -std=c11 -O2 -o ceiling "$TESTS_DIR/../bench/ceiling/bluetooth-counted.c"; then
  for n in 3 24; do
    want=$(./ceiling $n | sed -E 's/^([0-9]+ states, [0-9]+ transitions),.*/\1/')
    expect_match "ceiling-bluetooth-$n" 0 "^$want, " -- compose "$TESTS_DIR/../examples/bluetooth/bluetooth.athread" --set N=$n --threads 2 --no-timing
  done
else
  fail "bench/ceiling/bluetooth-counted.c does not compile"
fi
expect_no_progress progress-off-conform -- conform p.athread p.c
expect_no_progress progress-json-compose -- compose counter.athread --max-states 3000 --progress --diagnostics-format json
expect_no_progress progress-sarif-symbolic -- compose race.athread --engine symbolic --progress --diagnostics-format sarif
expect_no_progress progress-json-conform -- conform p.athread p.c --progress --diagnostics-format json
if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' out.stderr 2>/dev/null; then pass; else fail "conform --progress --diagnostics-format json: stderr is not one JSON document"; fi
expect_match progress-not-for-lint 2 "unknown option '--progress'" -- lint ok.athread --progress
# On a terminal progress is on without --progress, in text diagnostics only (script(1) gives the run a terminal).
if command -v script > /dev/null; then
  ATHREAD_PROGRESS_INTERVAL=0 script -qec "'$ATHREAD' compose counter.athread --max-states 3000" /dev/null > tty.out 2>&1
  if grep -qE '^compose: [0-9]+ states' tty.out; then pass; else fail "compose on a terminal: no progress line"; head -n 3 tty.out; fi
  ATHREAD_PROGRESS_INTERVAL=0 script -qec "'$ATHREAD' compose counter.athread --max-states 3000 --diagnostics-format json" /dev/null > tty.out 2>&1
  if ! grep -qE '^compose: [0-9]+ states' tty.out; then pass; else fail "compose on a terminal with json diagnostics: a progress line"; fi
fi

# ---------------------------------------------------------------- promela outputs
$VALGRIND "$ATHREAD" promela race.athread > race-stdout.pml 2> /dev/null
expect promela-output-file 0 "" "" -- promela race.athread -o race.pml
# the same model, except that the header names the file (stdout: OUT.pml)
if cmp -s race.pml <(sed 's/OUT\.pml/race.pml/g' race-stdout.pml); then pass; else fail "promela -o wrote another model than promela to stdout"; fi
if grep -q '^ \*   spin -a race.pml && gcc' race.pml; then pass; else fail "promela -o: the header does not name the model file"; fi
printf 'shared int g;\nthread A { init state S; S -> S : g'"'"' > g; }\n' > open.athread
cp race.pml keep.pml
expect_match promela-cannot-export 2 "open.athread:1:12: error: cannot export to Promela: unbounded int 'g' has no initial value" -- promela open.athread -o race.pml
if cmp -s race.pml keep.pml && [ -z "$(ls -A | grep 'race.pml.')" ]; then pass; else fail "a failed promela -o touched the output file"; fi
expect promela-set-unknown 2 "" "athread: error: --set M=3: race.athread declares no const 'M'" -- promela race.athread --set M=3
expect promela-bad-option 2 "" "athread: error: unknown option '--engine' (try 'athread promela --help')" -- promela race.athread --engine explicit
expect_match promela-unwritable 2 "cannot create output file" -- promela race.athread -o /nonexistent/dir/m.pml

# ---------------------------------------------------------------- murphi outputs
$VALGRIND "$ATHREAD" murphi race.athread > race-stdout.m 2> /dev/null
expect murphi-output-file 0 "" "" -- murphi race.athread -o race.m
# the same model, except that the header names the file (stdout: OUT.m)
if cmp -s race.m <(sed 's/OUT\.m /race.m /g' race-stdout.m); then pass; else fail "murphi -o wrote another model than murphi to stdout"; fi
if grep -q '^--   rumur --deadlock-detection off --scalarset-schedules off --value-type int32_t race.m -o' race.m; then pass; else fail "murphi -o: the header does not name the model file"; fi
cp race.m keep.m
expect_match murphi-cannot-export 2 "open.athread:1:12: error: cannot export to Murphi: unbounded int 'g' has no initial value" -- murphi open.athread -o race.m
if cmp -s race.m keep.m && [ -z "$(ls -A | grep 'race.m.')" ]; then pass; else fail "a failed murphi -o touched the output file"; fi
expect murphi-set-unknown 2 "" "athread: error: --set M=3: race.athread declares no const 'M'" -- murphi race.athread --set M=3
expect murphi-bad-option 2 "" "athread: error: unknown option '--engine' (try 'athread murphi --help')" -- murphi race.athread --engine explicit
expect_match murphi-unwritable 2 "cannot create output file" -- murphi race.athread -o /nonexistent/dir/m.m
printf 'shared bool busy = false;\nthread W { init state Idle; state Busy; Idle -> Busy when !busy do busy := true; Busy -> Idle do busy := false; }\nsystem S { W[3]; }\n' > twins.athread
expect_match murphi-scalarset 0 '^  W_id: scalarset(3);' -- murphi twins.athread
expect_match murphi-no-symmetry 0 '^  W_id: 1..3;' -- murphi twins.athread --no-symmetry

# ---------------------------------------------------------------- --certificate in the spec's syntax
# round_trip NAME SPEC OPTIONS: the printed invariant, one `invariant` line
# per conjunct pasted into the spec's system, must parse and hold (exit 0,
# with the same options: --for-all proves it for every N), and it must be
# what the SMT-LIB form says: as many conjuncts.
round_trip() {
  local name=$1 spec=$2
  shift 2
  "$ATHREAD" compose "$spec" --certificate --json "$@" > cert.json
  python3 - "$spec" > "$name.athread" << 'PY' || { fail "$name: no certificate_spec"; return; }
import json, sys
report = json.load(open("cert.json"))
text = open(sys.argv[1]).read()
end = text.rindex("}")
lines = "".join("  invariant %s;\n" % c for c in report["certificate_spec"])
sys.stdout.write(text[:end] + lines + text[end:])
PY
  if "$ATHREAD" compose "$name.athread" --no-timing "$@" > out.all 2>&1; then pass; else fail "$name: the pasted invariant"; head -n 5 out.all; fi
  if python3 -c '
import json, re, sys
r = json.load(open("cert.json"))
tokens = re.findall(r"\|[^|]*\||[()]|[^\s()|]+", r["certificate"])
def parse(i):
    if tokens[i] != "(":
        return tokens[i], i + 1
    items, i = [], i + 1
    while tokens[i] != ")":
        item, i = parse(i)
        items.append(item)
    return items, i + 1
def conjuncts(t):
    if isinstance(t, list) and t and t[0] == "and":
        return sum(conjuncts(a) for a in t[1:])
    return 1
sys.exit(0 if conjuncts(parse(0)[0]) == len(r["certificate_spec"]) else 1)'; then pass; else fail "$name: conjuncts dropped or added"; fi
}
round_trip peterson-certificate "$TESTS_DIR/../examples/peterson/peterson.athread" --engine symbolic
round_trip lock-certificate lock-n.athread --set N=3 --engine symbolic
round_trip for-all-certificate lock-n.athread --for-all N
round_trip bluetooth-for-all-certificate "$TESTS_DIR/../examples/bluetooth/bluetooth.athread" --for-all N
printf 'shared int[0..3] g = 0;\nthread A { init state X; state Y, Z; X -> Y when g < 3 do g := g + 1; Y -> Z do g := g + 1; Z -> X do g := g - 2; }\nsystem S { A[2]; invariant g <= 3; }\n' > count-up.athread
round_trip count-up-certificate count-up.athread --engine symbolic
expect_match certificate-spec 0 "^  flag1 || T1\[1\]@Idle$" -- compose "$TESTS_DIR/../examples/peterson/peterson.athread" --engine symbolic --certificate
expect_match certificate-format-smt 0 "^inductive invariant: (and (or (not (<= turn@x 1))" -- compose "$TESTS_DIR/../examples/peterson/peterson.athread" --engine symbolic --certificate-format smt
expect_match certificate-format-spec 0 "^  flag1 || T1\[1\]@Idle$" -- compose "$TESTS_DIR/../examples/peterson/peterson.athread" --engine symbolic --certificate-format spec
expect certificate-format-bad 2 "" "athread: error: --certificate-format must be spec or smt (try 'athread compose --help')" -- compose ok.athread --certificate-format xml
expect conform-certificate-format-bad 2 "" "athread: error: --certificate-format must be spec or smt (try 'athread conform --help')" -- conform ok.athread x.c --certificate-format c

# ---------------------------------------------------------------- bash completion (completions/athread.bash)
completion="$TESTS_DIR/../completions/athread.bash"
# complete WORDS...: what completing the last word offers (an empty last word: a new word)
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _athread; echo "${COMPREPLY[*]}"' _ "$completion" "$@"
}
# the options of each subcommand as its --help lists them (check takes conform's and --for-all)
help_options() {
  { "$ATHREAD" "$1" --help; [ "$1" = check ] && "$ATHREAD" conform --help; } |
    grep -oE '^  (-[a-zA-Z],? )?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u | tr '\n' ' '
}
for c in lint fmt conform check compose replay viz promela murphi skeleton races infer; do
  got=$(complete_words athread "$c" -- | tr ' ' '\n' | sort -u | tr '\n' ' ')
  if [ "$got" = "$(help_options "$c")" ]; then pass; else fail "completion of $c's options: '$got', --help lists '$(help_options "$c")'"; fi
done
mkdir -p completing && touch completing/a.athread completing/b.c completing/t.json completing/x.txt
for case in "compose|athread comp" "symbolic|athread compose --engine s" "auto bmc chc|athread conform --engine " \
  "access|athread check --atomicity a" "sarif|athread lint --diagnostics-format s" "completing/a.athread completing/b.c|athread conform completing/" \
  "completing/a.athread completing/t.json|athread viz completing/"; do
  want=${case%%|*}
  read -ra words <<< "${case#*|}"
  [[ $case == *' ' ]] && words+=("")
  got=$(complete_words "${words[@]}")
  if [ "$got" = "$want" ]; then pass; else fail "completing '${case#*|}': '$got', expected '$want'"; fi
done

summary cli
[ $failed = 0 ]
