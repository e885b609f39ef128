#!/usr/bin/env bash
# tests/run-all.sh -- the whole suite: unit tests, golden CLI cases, the
# command-line edge cases, and the fmt round trip over every spec we have.
# Ends with one line "N passed, N failed" over all of them.
set -u
cd "$(dirname "$0")/.."
source tests/setup
total_pass=0
total_fail=0

# section "TITLE": a sub-suite's heading, with the seconds the suite has run
# so far (CI's budget is watched from these).
section() { echo "== $1 [at ${SECONDS} s]"; }

# add_counts "LINE": adds the "N passed, N failed" of a sub-suite's summary.
add_counts() {
  local p f
  p=$(sed -n 's/.* \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\1/p' <<< "$1" | tail -n 1)
  f=$(sed -n 's/.* \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2/p' <<< "$1" | tail -n 1)
  if [ -z "$p" ]; then total_fail=$((total_fail + 1)); echo "FAIL: a sub-suite printed no summary"; return; fi
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
}

# suite "TITLE" LINES COMMAND...: runs a sub-suite under its heading, prints
# its output (the last LINES lines, or "all") and adds its counts.
suite() {
  local title=$1 lines=$2 out
  shift 2
  section "$title"
  out=$("$@")
  if [ "$lines" = all ]; then echo "$out"; else echo "$out" | tail -n "$lines"; fi
  add_counts "$out"
}

section "unit tests (cmocka)"
unit_out=$($VALGRIND "$UNIT_BIN" 2>&1)
unit_rc=$?
echo "$unit_out"
unit_run=$(sed -n 's/^\[==========\] \([0-9]*\) test(s) run\./\1/p' <<< "$unit_out" | awk '{s += $1} END {print s + 0}')
unit_failed=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s).*/\1/p' <<< "$unit_out" | awk '{s += $1} END {print s + 0}')
[ $unit_rc = 0 ] || [ "$unit_failed" -gt 0 ] || unit_failed=1
add_counts "unit: $((unit_run - unit_failed)) passed, $unit_failed failed"

mkdir -p "$SCRATCH/specs"
suite "golden CLI cases" all tests/golden.sh --keep-specs "$SCRATCH/specs" tests/*/*.test

suite "the compiled model against the interpreter: the same reports on every golden case's spec, and what happens when compiling fails" 20 tests/compiled.sh "$SCRATCH/specs"

suite "command-line edge cases" all tests/cli.sh

suite "athread replay: compose's counterexamples replay; edited ones are refused with the step and why" all tests/replay.sh

suite "distribution: man pages, zsh completion, make install/uninstall, athread.pc" all tests/dist.sh

suite "the JSON contract: reports validate against docs/report.schema.json, one verdict: line, viz --trace takes the trace's consts" all tests/json-contract.sh

suite "diagnostics as json and sarif, validated against docs/diagnostics.schema.json and the SARIF 2.1.0 schema" 20 tests/diagnostics/validate.sh

suite "conform --witness: SV-COMP violation witnesses validate against the format 2.0 schema (tests/witness/)" all tests/witness.sh

suite "--sarif: counterexamples as SARIF codeFlows, validated against the SARIF 2.1.0 schema and compared with --json" all tests/sarif-flows.sh

suite "examples and their promised verdicts" all tests/examples.sh

suite "specs in the documentation" all tests/doc-examples.sh

suite "editor support: the Vim syntax file and the TextMate grammar, token by token on every spec; the VS Code problem matcher" 30 tests/editors.sh

suite "mutated specs (robustness smoke)" 20 env MUTATIONS=${MUTATIONS:-300} tests/mutate.sh

suite "fuzz regressions: inputs that once crashed a front end (tests/fuzz-regress)" 20 tests/fuzz-regress/run.sh

suite "composer oracle: random systems, SPIN vs athread (with and without symmetry) vs the generator's own search" 30 tests/oracle/spin-diff.sh "${ORACLE_CASES:-200}" 1

suite "composer oracle against rumur: random systems and every example, athread murphi's model in rumur (scalarsets and --no-symmetry) vs compose (verdicts; states without symmetry)" 30 tests/oracle/rumur-diff.sh "${RUMUR_CASES:-6}" 1

suite "the compiled model: SPIN and rumur against compose with ATHREAD_COMPILE=always, on other seeds" 30 env ATHREAD_COMPILE=always tests/oracle/spin-diff.sh "${COMPILED_ORACLE_CASES:-60}" 1001

suite "the compiled model: rumur against compose with ATHREAD_COMPILE=always" 30 env ATHREAD_COMPILE=always tests/oracle/rumur-diff.sh "${RUMUR_CASES:-6}" 101

suite "race oracle self-check: the random pthread programs compile (gcc, clang), the exhaustive interleaving search gets the hand-written cases right, and TSan never reports a race the oracle rules out" 6 tests/oracle/race-selftest.sh "${RACE_ORACLE_CASES:-300}"

suite "conformance oracle: random (spec, C) pairs, athread conform vs the generator's brute-force search" 30 tests/oracle/conform-diff.sh "${CONFORM_CASES:-300}" 1

suite "conformance oracle under --atomicity access: the same pairs, the environment moving between shared accesses" 30 env ATOMICITY=access tests/oracle/conform-diff.sh "${CONFORM_ACCESS_CASES:-150}" 1

suite "conformance oracle under --int c: C-typed variables (wrap-around, conversions, bitwise operators; overflow, division by zero and bad shifts as violations) and pointers" 30 env INT=c UNKNOWN_PERCENT=6 tests/oracle/conform-diff.sh "${CONFORM_C_CASES:-100}" 200

suite "conformance oracle under --int c and --atomicity access" 30 env INT=c ATOMICITY=access UNKNOWN_PERCENT=6 tests/oracle/conform-diff.sh "${CONFORM_C_ACCESS_CASES:-50}" 200

suite "race oracle: random pthread programs, athread races vs the exhaustive interleaving search of gen-race.py; athread's 'no data race' must never meet a race" 2 tests/oracle/race-diff.sh "${RACE_CASES:-300}" 1

suite "race oracle with a spec (the proof by the abstract threads): gen-theorem.py's programs, athread races SPEC FILE vs the data races of every concrete interleaving at access atomicity; a race-free cell must never be racy, a race cell never race-free" 30 tests/oracle/race-proof.sh "${RACE_PROOF_CASES:-200}" 1

suite "the theorem end to end: random programs with specs from their behaviour; every thread conforms and the system is safe must mean every interleaving of the C is safe" 30 env UNKNOWN_PERCENT=5 tests/oracle/theorem.sh "${THEOREM_CASES:-200}" 1

suite "the theorem under --atomicity access: every read and write of a shared variable is a step of the concrete search (lost updates), athread conform --atomicity access" 30 env ATOMICITY=access UNKNOWN_PERCENT=5 tests/oracle/theorem.sh "${THEOREM_ACCESS_CASES:-100}" 301

suite "the theorem for whole C programs at C's atomicity with the system's environment (athread check): random programs and lock/CAS shapes with near misses; athread's safe must never meet a violation of the exhaustive interleaving at access granularity" 30 env CHECK=1 ATOMICITY=access SHAPES=0.6 THEOREM_TIMEOUT=30 UNKNOWN_PERCENT=8 tests/oracle/theorem.sh "${THEOREM_CHECK_CASES:-300}" 1001

suite "the theorem for every N (athread check --for-all N): random programs and lock/CAS shapes with a thread counted by N; athread's 'safe for every N' must never meet a violation of the exhaustive interleaving at N = 1, 2, 3" 30 env FORALL=1 CHECK=1 ATOMICITY=access SHAPES=0.6 THEOREM_TIMEOUT=30 UNKNOWN_PERCENT=12 tests/oracle/theorem.sh "${THEOREM_FORALL_CASES:-100}" 2001

suite "compose --for-all: counter abstraction vs the explicit engine at N = 1..6 (examples and random systems)" 30 tests/forall/run.sh "${FORALL_CASES:-30}" 1

suite "headline: concrete Promela models (SPIN) vs athread compose, and bench/headline" all tests/headline/run.sh

suite "stress: limits, SIGINT, huge inputs, output files" all tests/stress/run.sh

suite "viz: diagrams, traces, errors (Graphviz)" all tests/viz/run.sh

suite "review: the HTML page's structure, errors, and the page in headless Chromium" all tests/review/run.sh

suite "review with C files: conformance, coverage and the C program's verdict against conform and check; code counterexamples in headless Chromium" all tests/review/code.sh

# SV-COMP's programs may not be committed (the public-code store's terms) and
# CI has no network: make test reads them from tests/svcomp/cache/ only (fill
# it with tests/svcomp/fetch.sh where there is network), and a task that is
# not there is reported as not tested instead of failing the run.
export ATHREAD_SVCOMP_DOWNLOAD=${ATHREAD_SVCOMP_DOWNLOAD:-0}
export ATHREAD_SVCOMP_OPTIONAL=${ATHREAD_SVCOMP_OPTIONAL:-1}

suite "skeleton drafts of real programs (examples, golden C files, SV-COMP tasks) lint and are canonical" all tests/skeleton/lint-all.sh

suite "athread infer: drafts lint and are canonical; athread check on a draft gives the expected verdict; options and usage" all tests/infer/run.sh

suite "the theorem with athread infer's drafts (INFER=1): the generator's machines replaced by those drafted from the code; a draft's safe must never meet a violation of the concrete search" 30 env INFER=1 CHECK=1 UNKNOWN_PERCENT=100 tests/oracle/theorem.sh "${THEOREM_INFER_CASES:-100}" 3001

suite "the same at access atomicity with lock and CAS shapes" 30 env INFER=1 CHECK=1 ATOMICITY=access SHAPES=0.6 THEOREM_TIMEOUT=30 UNKNOWN_PERCENT=100 tests/oracle/theorem.sh "${THEOREM_INFER_ACCESS_CASES:-60}" 4001

suite "SV-COMP task scripts: fetch.sh, conform.sh and lint-all.sh without network (file:// mirror)" all tests/svcomp/selftest.sh

suite "SV-COMP tasks: athread check (C's integers, access atomicity, the system's environment); never a wrong \"true\"" all tests/svcomp/conform.sh

suite "fmt round trip" all $VALGRIND "$ROUNDTRIP_BIN" examples/*/*.athread "$SCRATCH"/specs/*.athread

echo
echo "$total_pass passed, $total_fail failed"
[ $total_fail = 0 ]
