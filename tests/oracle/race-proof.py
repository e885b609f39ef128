#!/usr/bin/env python3
"""tests/oracle/race-proof.py -- the data races of gen-theorem.py's programs,
found by an explicit search of their concrete interleavings, to judge athread
races SPEC FILE.c (its three layers, above all the third: the proof by the
abstract threads). Used by race-proof.sh.

  race-proof.py SEED              prints the case (spec, C), the reference's
                                  racy variables with a witness each
  race-proof.py --batch DIR FIRST COUNT
                                  writes DIR/caseN.athread and DIR/caseN.c
  race-proof.py --judge DIR FIRST COUNT
                                  reads athread's DIR/caseN.races.{rc,json}
                                  and DIR/caseN.check.rc, prints one line a
                                  case, the figures and a summary line

The cases are gen-theorem.py's (case_of, imported: its behaviour is
unchanged) with ATOMICITY=access (athread races is about C's atomicity; the
proof layer runs athread check --atomicity access --env system), SHAPES and
INT from the environment, and a share ACCESS_DESIGN (default 0.5) of
AccessGen's: Gen with its design explored at C's atomicity, fewer failing
asserts and near misses, no counter shape, so that athread check says safe
and the proof layer runs more often. One change to the C text: a condition `*` (if (*),
while (*)) is written __VERIFIER_nondet_bool(), the same choice, because
athread races reads the files with clang first and rejects `*` (exit 2);
with STAR=1 the text stays as gen-theorem.py prints it.

The reference (no code from athread): gen-theorem.py's concrete search
(Concrete, access atomicity: every read and every write of a shared variable
outside atomic sections is a step of its own; an atomic section, a lock, an
unlock, a compare-and-swap, a fetch-and-add is one atomic step) from the C
program's initial state. In every reachable state, each thread instance's
possible next steps access some variables: the reads C may make next, or the
write that completes a statement, non-atomic; a nondet assignment to a
shared variable, a non-atomic write; an atomic step, the reads and writes of
its runs (traced here path by path), atomic. A variable is racy when in some
reachable state two different instances each have a next step accessing it,
at least one a write, not both atomic. A lock-protected access is never
enabled together with another one: the search shows it by itself.

Two readings, so that no verdict rests on a corner of the definition:
  strict    the program aborts where an assert fails (that step has no
            successor), an atomic step whose await is false is not enabled
            and accesses nothing, the start is the C initializers': a
            variable racy here surely has a race
  liberal   also: a failing assert is passed over, a blocked atomic step's
            reads (up to where it blocks) count, and every initial state the
            spec allows is a start: a variable not racy here surely has none
athread's "race-free" (any layer) or "lock" on a strictly racy variable is a
WRONG race-free; a variable strictly racy that athread reports nowhere while
its verdict is "no data race" too. athread's "race" on a variable not
liberally racy is a WRONG race. Exit codes other than 0, 1, 3 are errors
(the generator must stay within the language athread races accepts).
Python 3 standard library only.
"""
import importlib.util
import json
import multiprocessing
import os
import re
import sys
from collections import deque

os.environ["ATOMICITY"] = "access"   # athread races: C's atomicity, one shared access a step
os.environ["FORALL"] = "0"
_here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _here)
_spec = importlib.util.spec_from_file_location("gen_theorem", os.path.join(_here, "gen-theorem.py"))
gt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gt)
import minic  # noqa: E402  (after gen-theorem.py put this directory on the path)

LIMIT = int(os.environ.get("RACE_LIMIT", "100000"))  # states of the reference's search (a case past it is skipped)
ATOMIC_KINDS = ("atomic", "lock", "unlock", "cas", "fetch_add")
STAR = os.environ.get("STAR", "0") == "1"
ACCESS_DESIGN = float(os.environ.get("ACCESS_DESIGN", "0.5"))


# ---------------------------------------------------------------- the case

class AccessGen(gt.Gen):
    """gen-theorem.py's Gen with its design D explored at C's atomicity (as
    ShapeGen's are), so that the spec drawn from it covers the interleaved
    accesses, and with fewer failing asserts, near misses and no counter
    shape (its lost update fails an assert): athread check says safe more
    often, and the proof layer runs only then."""
    def __init__(self, seed):
        gt.Gen.__init__(self, seed)
        self.design_atomicity = "access"
        self.failing_share = 0.05

    def make_program(self):
        share, gt.COUNTER_SHARE = gt.COUNTER_SHARE, 0
        try:
            gt.Gen.make_program(self)
        finally:
            gt.COUNTER_SHARE = share

    def mutate(self):
        if self.chance(0.5):
            gt.Gen.mutate(self)


def case_of(seed):
    """The case of seed: a share ACCESS_DESIGN (environment, default 0.5) of
    the seeds make AccessGen's, the others gen-theorem.py's case_of."""
    if gt.random.Random(seed ^ 0xacce55).random() < ACCESS_DESIGN:
        sy = AccessGen(seed).generate()
        sy.shape = "access design, " + sy.shape
        return sy
    return gt.case_of(seed)


def case_c_text(sy):
    text = gt.c_text(sy)
    if STAR:
        return text
    return re.sub(r"\b(if|while) \(\*\)", r"\1 (__VERIFIER_nondet_bool())", text)


def write_case(directory, seed):
    sy = case_of(seed)
    base = os.path.join(directory, "case%d" % seed)
    with open(base + ".athread", "w") as f:
        f.write(gt.spec_text(sy, seed))
    with open(base + ".c", "w") as f:
        f.write(case_c_text(sy))


# ---------------------------------------------------------------- atomic steps, path by path

class Reads:
    """Shared values that note each variable read (minic's evaluators read g[i] only)."""
    def __init__(self, g, log):
        self.g, self.log = g, log

    def __getitem__(self, i):
        self.log.add(i)
        return self.g[i]


BLOCKED, FAILED = 1, 2


def trace_paths(code, sem, stmts, g, L, liberal):
    """The runs of a loop-free statement list as one atomic step:
    [(g', L', reads, writes, flags)]; flags BLOCKED (an await or assume is
    false, or a lock is taken: the run ends there) and FAILED (an assert
    fails or C's behaviour is undefined: the run ends there, or under
    liberal goes on past the assert)."""
    outs = [(g, L, frozenset(), frozenset(), 0)]
    for s in stmts:
        nxt = []
        for g1, L1, R, W, fl in outs:
            if fl & BLOCKED or fl & FAILED and not liberal:
                nxt.append((g1, L1, R, W, fl))
                continue
            try:
                nxt.extend(trace_one(code, sem, s, g1, L1, R, W, fl, liberal))
            except minic.CFault:
                nxt.append((g1, L1, R, W, fl | FAILED | BLOCKED))
        outs = nxt
    return outs


def trace_one(code, sem, s, g, L, R, W, fl, liberal):
    k = s[0]
    log = set()
    rg = Reads(g, log)
    if k in ("set", "decl"):
        target = s[1] if k == "set" else ("loc", s[1])
        if target[0] not in ("sh", "loc"):
            raise ValueError("no %s targets in gen-theorem.py's programs" % target[0])
        v = sem.ev(s[2], rg, L)
        g2, L2 = code.store(g, L, target, v)
        return [(g2, L2, R | log, W | ({target[1]} if target[0] == "sh" else set()), fl)]
    if k == "nondet_mod":
        return [code.store(g, L, ("loc", s[1]), v) + (R, W, fl) for v in range(-3, 4)]
    if k == "nondet_sh":
        return [(g2, L2, R, W | {s[1]}, fl) for g2, L2 in code.run_one(s, g, L)]
    if k in ("assume", "await"):
        ok = sem.ev(s[1], rg, L)
        return [(g, L, R | log, W, fl | (0 if ok else BLOCKED))]
    if k == "assert":
        ok = sem.ev(s[1], rg, L)
        return [(g, L, R | log, W, fl | (0 if ok else FAILED))]
    if k == "probe":
        return [(g, L, R, W, fl)]
    if k == "if":
        c = None if s[1] is None else sem.ev(s[1], rg, L)
        R2 = R | log
        out = []
        if c is None or c:
            out += [(g2, L2, R2 | R3, W | W3, fl | f3) for g2, L2, R3, W3, f3 in trace_paths(code, sem, s[2], g, L, liberal)]
        if c is None or not c:
            out += [(g2, L2, R2 | R3, W | W3, fl | f3) for g2, L2, R3, W3, f3 in trace_paths(code, sem, s[3], g, L, liberal)]
        return out
    if k in ("atomic", "call"):
        body = s[1] if k == "atomic" else code.functions[s[1]]
        if k == "call" and len(s) > 2:
            raise ValueError("no calls with an argument inside atomic sections")
        return [(g2, L2, R | R3, W | W3, fl | f3) for g2, L2, R3, W3, f3 in trace_paths(code, sem, body, g, L, liberal)]
    if k in ("lock", "unlock", "cas", "fetch_add"):
        x = s[1] if k in ("lock", "unlock") else s[2]
        reads = set() if k == "unlock" else {x}
        outs = code.primitive(s, g, L)
        if not outs:  # a lock that is taken
            return [(g, L, R | reads, W, fl | BLOCKED)]
        res = []
        for g2, L2 in outs:
            wrote = k != "cas" or L2[s[1]] == 1
            res.append((g2, L2, R | reads, W | ({x} if wrote else set()), fl))
        return res
    raise ValueError("not in an atomic step: %s" % k)


# ---------------------------------------------------------------- the reference

class RaceSearch:
    """The concrete interleavings (gt.Concrete at access atomicity) and,
    in each reachable state, each instance's next accesses."""
    def __init__(self, sy):
        self.sy = sy
        lines = {}
        gt.c_text(sy, lines)
        self.conc = gt.Concrete(sy, lines=lines, atomicity="access")
        self.sem = self.conc.sem

    def moves(self, state, i):
        """(strict accesses, liberal accesses, strict successors, liberal-only
        successors, a failure seen): accesses {(var, write, atomic)},
        successors [(instance, node, what, next state)]."""
        conc = self.conc
        g, insts = state
        pc, Lt, done = insts[i]
        k = conc.kinds[i]
        code, names = conc.codes[k], self.sy.threads[k].locals
        node = code.nodes[pc]
        if node[0] == "exit":
            return set(), set(), [], [], False
        L = dict(zip(names, Lt))

        def moved(g2, nxt, L2=L, done2=()):
            return g2, insts[:i] + ((nxt, tuple(L2[x] for x in names), done2),) + insts[i + 1:]

        if node[0] == "step" and node[1][0] in ATOMIC_KINDS:
            strict, liberal, succ, extra, failed = set(), set(), [], [], False
            for g2, L2, R, W, fl in trace_paths(code, self.sem, [node[1]], g, L, True):
                acc = {(v, False, True) for v in R - W} | {(v, True, True) for v in W}
                liberal |= acc
                failed = failed or bool(fl & FAILED)
                if fl & BLOCKED:
                    continue
                if fl & FAILED:
                    extra.append((i, pc, "(past a failing assert)", moved(g2, node[2], L2)))
                    continue
                strict |= acc
                succ.append((i, pc, None, moved(g2, node[2], L2)))
            return strict, liberal, succ, extra, failed
        acc = set()
        e = gt.access_expr(node)
        if e is not None:
            reads = gt.read_vars(e)
            try:
                _, need = gt.AccessEval(L, dict(done), self.sem).value(e)
            except minic.CFault:
                need = ()
            if need:
                acc = {(reads[p], False, False) for p in need}
            elif node[0] == "step" and node[1][0] == "set" and node[1][1][0] == "sh":
                acc = {(node[1][1][1], True, False)}
        elif node[0] == "step" and node[1][0] == "nondet_sh":
            acc = {(node[1][1], True, False)}
        # the other nodes (a probe, `if (*)`, a local's nondet) access no shared variable
        try:
            succ = conc.instance_steps(i, pc, node, g, L, done, moved, None)
        except (gt.Failure, minic.CFault):
            extra = []
            if node[0] == "assert":  # liberal: the assert passed over
                extra = [(i, pc, "(past a failing assert)", moved(g, node[2]))]
            return acc, set(acc), [], extra, True
        return acc, set(acc), succ, [], False

    def search(self, limit=LIMIT):
        """{"verdict": "done" | "skip", "strict": {var: witness}, "liberal":
        {var: witness}, "states", "failures"}; a witness is (state, i, j,
        access of i, access of j, strictly reachable)."""
        conc = self.conc
        start_g = conc.c_start()
        entry = tuple((conc.codes[k].entry, tuple(0 for _ in self.sy.threads[k].locals), ()) for k in conc.kinds)
        start = (start_g, entry)
        seen = {start: None}
        strict, liberal = {}, {}
        later = [(g, entry) for g in self.sy.initial_gs() if g != start_g]  # the liberal reading's other starts
        failures = 0
        pending = []  # the liberal reading's successors, explored once the strict states are all seen
        for p in (0, 1):
            queue = deque([start])
            if p == 1:
                queue = deque()
                for s in later:
                    if s not in seen:
                        seen[s] = None
                        queue.append(s)
                for state, x in pending:
                    self.add(seen, queue, state, x)
                pending = None
            while queue:
                state = queue.popleft()
                n = len(state[1])
                S, Lb = [], []
                for i in range(n):
                    a_s, a_l, succ, extra, failed = self.moves(state, i)
                    failures += int(failed)
                    S.append(a_s if p == 0 else set())
                    Lb.append(a_l)
                    for x in succ:
                        self.add(seen, queue, state, x)
                    for x in extra:
                        if p == 0:
                            pending.append((state, x))
                        else:
                            self.add(seen, queue, state, x)
                    if len(seen) > limit:
                        return {"verdict": "skip", "strict": strict, "liberal": liberal, "states": len(seen),
                                "failures": failures, "seen": seen}
                for i in range(n):
                    for j in range(i + 1, n):
                        for accs, out in ((S, strict), (Lb, liberal)):
                            for v, w1, a1 in accs[i]:
                                if v in out:
                                    continue
                                for v2, w2, a2 in accs[j]:
                                    if v2 == v and (w1 or w2) and not (a1 and a2):
                                        out[v] = (state, i, j, (v, w1, a1), (v2, w2, a2), p == 0)
                                        break
        for v, w in strict.items():
            liberal.setdefault(v, w)
        return {"verdict": "done", "strict": strict, "liberal": liberal, "states": len(seen), "failures": failures,
                "seen": seen}

    @staticmethod
    def add(seen, queue, state, x):
        i, pc, what, s2 = x
        if s2 not in seen:
            seen[s2] = (state, i, pc, what, s2)
            queue.append(s2)

    def describe(self, seen, witness):
        """The witness's lines: the state, the two accesses, the trace to it."""
        state, i, j, a, b, strictly = witness
        conc = self.conc
        names = conc.names

        def one(x, acc):
            v, w, at = acc
            return "%s %s %s%s (next step at %s)" % (conc.label(x), "writes" if w else "reads", names[v],
                                                    " (atomic)" if at else "", conc.where(x, state[1][x][0]))
        lines = ["  witness state %s%s: %s; %s" % (conc.gtext(state[0]), "" if strictly else " (liberal reading only)",
                                                   one(i, a), one(j, b))]
        for x, (pc, Lt, done) in enumerate(state[1]):
            k = conc.kinds[x]
            lines.append("    %s at node %d %s locals %s reads done %s" % (
                conc.label(x), pc, conc.codes[k].nodes[pc][0], dict(zip(self.sy.threads[k].locals, Lt)), dict(done)))
        lines.append("  trace:")
        lines += conc.trace(seen, state)
        return lines


def var_index(sy):
    """athread's cell names (C paths: "x", "s.f", "a[2]") -> the variable's index."""
    return {(v.c_path or v.name): i for i, v in enumerate(sy.vars)}


# ---------------------------------------------------------------- judging

def read_text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def read_rc(path):
    t = read_text(path)
    try:
        return int(t.strip()) if t is not None else None
    except ValueError:
        return None


PROOF_RAN = re.compile(r"^\d+ of \d+ candidate pairs? proved")
PROOF_HOW = "proved by the abstract threads"


def env_prefix():
    """The environment that makes a seed's case: "SHAPES=0.5 ACCESS_DESIGN=0.5 " ..."""
    out = ["SHAPES=%g" % gt.SHAPES, "ACCESS_DESIGN=%g" % ACCESS_DESIGN] + (["INT=" + gt.INT] if gt.INT != "math" else []) + \
        (["STAR=1"] if STAR else [])
    return " ".join(out) + " "


def judge(directory, seed):
    """(seed, status, text lines, figures) of one case."""
    base = os.path.join(directory, "case%d" % seed)
    fig = dict.fromkeys(["accepted", "check-safe", "check-unsafe", "check-unknown", "cells", "to-proof", "proved",
                         "free-other", "lock", "race", "unknown-cells", "ref-racy", "ref-racy-liberal",
                         "wrong-free", "wrong-race", "ambiguous", "race-liberal-only", "proof-missed", "skip",
                         "error"], 0)
    rc, crc = read_rc(base + ".races.rc"), read_rc(base + ".check.rc")
    sy = case_of(seed)
    header = ["---- seed %d (%stests/oracle/race-proof.py %d prints it; the files: case%d.athread, case%d.c)"
              % (seed, env_prefix(), seed, seed, seed)]
    if rc not in (0, 1, 3):
        fig["error"] = 1
        out = (read_text(base + ".races.err") or "").strip().splitlines()[:5]
        return seed, "ERROR", ["athread races exit %s (bad input or a crash): %s" % (rc, " / ".join(out))] + header + \
            [gt.spec_text(sy, seed), case_c_text(sy)], fig
    try:
        report = json.loads(read_text(base + ".races.json"))
        cells = report["cells"]
    except (TypeError, ValueError, KeyError) as x:
        fig["error"] = 1
        return seed, "ERROR", ["athread races --json unreadable: %s" % x], fig
    fig["accepted"] = 1
    fig["check-" + {0: "safe", 1: "unsafe"}.get(crc, "unknown")] = 1
    proof_text = (report.get("proof") or {}).get("text") or ""
    proof_ran = bool(PROOF_RAN.match(proof_text))
    rs = RaceSearch(sy)
    ref = rs.search()
    if ref["verdict"] == "skip":
        fig["skip"] = 1
        return seed, "skip", ["the reference passed %d states" % LIMIT], fig
    index = var_index(sy)
    names = [v.c_path or v.name for v in sy.vars]
    strict, liberal = ref["strict"], ref["liberal"]
    fig["ref-racy"], fig["ref-racy-liberal"] = len(strict), len(liberal)
    wrong, notes, said = [], [], {}
    for c in cells:
        name, verdict, how = c.get("cell"), c.get("verdict"), c.get("how") or ""
        if name not in index:
            wrong.append("athread's cell %r is none of the program's variables %s" % (name, names))
            continue
        v = index[name]
        said[v] = verdict
        fig["cells"] += 1
        proved = verdict == "race-free" and how.startswith(PROOF_HOW)
        fig["proved"] += int(proved)
        fig["to-proof"] += int(proof_ran and (proved or verdict == "unknown"))
        fig["free-other"] += int(verdict == "race-free" and not proved)
        fig["lock"] += int(verdict == "lock")
        fig["race"] += int(verdict == "race")
        fig["unknown-cells"] += int(verdict == "unknown")
        if verdict in ("race-free", "lock"):
            if v in strict:
                fig["wrong-free"] += 1
                wrong.append("WRONG race-free: athread says cell %s is %s (%s), the concrete search finds a race:"
                             % (name, verdict, how or "a lock"))
                wrong += rs.describe(ref["seen"], strict[v])
            elif v in liberal:
                fig["ambiguous"] += 1
                notes.append("note: cell %s is %s by athread and racy only in the liberal reading:" % (name, verdict))
                notes += rs.describe(ref["seen"], liberal[v])
        elif verdict == "race":
            fig["race-liberal-only"] += int(v in liberal and v not in strict)
            if v not in liberal:
                fig["wrong-race"] += 1
                wrong.append("WRONG race: athread reports a race on cell %s, the concrete search finds none in any reading"
                             % name)
                wrong += ["  athread's trace:"] + ["    %s#%s at %s:%s: %s (%s)" % (s.get("thread"), s.get("instance"),
                                                                                   s.get("line"), s.get("column"),
                                                                                   s.get("text"), s.get("accesses"))
                                                      for s in c.get("trace", [])]
        elif verdict == "unknown" and proof_ran and v not in liberal:
            fig["proof-missed"] += 1
        elif verdict not in ("unknown",):
            wrong.append("athread's cell %s has the verdict %r" % (name, verdict))
    for v, w in sorted(strict.items()):
        if v not in said and report.get("verdict") == "no data race":
            fig["wrong-free"] += 1
            wrong.append("WRONG race-free: athread says no data race and reports no cell %s, the concrete search "
                         "finds a race on it:" % names[v])
            wrong += rs.describe(ref["seen"], w)
    summary = "athread %s (exit %s), check exit %s, proof %s; cells %s; reference racy {%s}%s, %d states" % (
        report.get("verdict"), rc, crc, "ran" if proof_ran else "-" if not proof_text else proof_text[:40],
        ", ".join("%s %s" % (names[v], x) for v, x in sorted(said.items())),
        ", ".join(names[v] for v in sorted(strict)),
        " (liberal {%s})" % ", ".join(names[v] for v in sorted(liberal)) if set(liberal) != set(strict) else "",
        ref["states"])
    if wrong:
        return seed, "WRONG", [summary] + wrong + header + [gt.spec_text(sy, seed), case_c_text(sy)], fig
    return seed, "ok", [summary] + notes, fig


def judge_job(job):
    return judge(*job)


def judge_batch(directory, first, count):
    total = {}
    tally = {}
    jobs = [(directory, seed) for seed in range(first, first + count)]
    with multiprocessing.get_context("fork").Pool(max(1, int(os.environ.get("JOBS", "1")))) as pool:
        for seed, status, lines, fig in pool.imap(judge_job, jobs):
            tally[status] = tally.get(status, 0) + 1
            for k, x in fig.items():
                total[k] = total.get(k, 0) + x
            print("case%d %s: %s" % (seed, status, lines[0]))
            for line in lines[1:]:
                print(line)
    t = total
    print("figures: %d cases, accepted by athread races %d (errors %d), athread check safe %d (unsafe %d, unknown %d); "
          "cells %d: race-free by lockset/search %d, locks %d, races %d, unknown %d; candidate cells given to the proof "
          "layer %d, proved by it %d (left unknown though race-free by the reference %d); reference-racy cells %d "
          "(liberal reading %d); wrong race-free %d, wrong race %d; athread's race-free cells racy in the liberal reading "
          "only %d, its races racy in the liberal reading only %d; reference skipped %d"
          % (count, t["accepted"], t["error"], t["check-safe"], t["check-unsafe"], t["check-unknown"], t["cells"],
             t["free-other"], t["lock"], t["race"], t["unknown-cells"], t["to-proof"], t["proved"], t["proof-missed"],
             t["ref-racy"], t["ref-racy-liberal"], t["wrong-free"], t["wrong-race"], t["ambiguous"], t["race-liberal-only"],
             t["skip"]))
    print("race-proof: %d cases: %s" % (count, ", ".join("%s %d" % kv for kv in sorted(tally.items()))))
    return 0


# ---------------------------------------------------------------- command line

def show(seed):
    sy = case_of(seed)
    print(gt.spec_text(sy, seed))
    print(case_c_text(sy))
    rs = RaceSearch(sy)
    ref = rs.search()
    names = [v.c_path or v.name for v in sy.vars]
    print("// %s; reference: %s, %d states; racy (strict) {%s}, racy (liberal) {%s}"
          % (sy.shape, ref["verdict"], ref["states"], ", ".join(names[v] for v in sorted(ref["strict"])),
             ", ".join(names[v] for v in sorted(ref["liberal"]))))
    for v, w in sorted(ref["liberal"].items()):
        print("// %s:" % names[v])
        for line in rs.describe(ref["seen"], w):
            print("//" + line)
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] in ("--batch", "--judge"):
        first, count = int(argv[3]), int(argv[4])
        if argv[1] == "--judge":
            return judge_batch(argv[2], first, count)
        for seed in range(first, first + count):
            write_case(argv[2], seed)
        return 0
    if len(argv) == 2 and argv[1].isdigit():
        return show(int(argv[1]))
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
