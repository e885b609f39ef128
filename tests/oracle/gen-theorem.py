#!/usr/bin/env python3
"""tests/oracle/gen-theorem.py -- the paper's theorem, tested end to end:
random concurrent C programs with their specs, and every interleaving of the
concrete threads.

  gen-theorem.py SEED            prints the case: the spec, the C code, the
                                 oracle's composition verdict and the concrete
                                 program's verdict (with its trace when unsafe)
  gen-theorem.py --batch DIR FIRST COUNT
                                 writes DIR/caseN.athread and DIR/caseN.c for
                                 the COUNT seeds from FIRST
  gen-theorem.py --judge DIR FIRST COUNT
                                 reads athread's exit codes DIR/caseN.conform.rc
                                 (or with CHECK=1 in the environment
                                 DIR/caseN.check.rc: athread check's) and
                                 DIR/caseN.compose.rc and prints one line a
                                 case (see below), then the figures and a
                                 summary line
  gen-theorem.py --keep SEED DIR writes the case as DIR/seedN.athread, .c and
                                 .expect (the concrete verdict and trace, and
                                 "applies:" lines for ATOMICITY and INT when
                                 not the defaults, and FORALL=1): a regression
                                 case for theorem.sh; ShapeGen's are
                                 shape-seedN
  gen-theorem.py --stats FIRST COUNT
                                 the shapes and the oracles' verdicts, no athread

What the user is promised: when every thread conforms to its abstract thread
(athread conform exits 0) and the abstract system is safe (athread compose
exits 0), the concrete program is safe. A case is a whole program: 2-3 shared
variables of small ranges (one of them often a lock), one or two kinds of
thread with 2-3 instances in all, each a C function with awaits, atomic
sections in all three forms with asserts inside them, lock-style sections,
loops with small bounds, branches, helper calls and nondeterminism.

How a case is made: a design program D is generated first, with probes where
asserts may go, and every interleaving of D is explored (the reference below).
Each probe becomes an assert whose condition holds at every value the probe
saw (or, in some cases, fails at one of them), or nothing. The spec is drawn
from D: per thread, one abstract state for the start and one per statement
that writes shared variables; an edge from every state that can be the last
write before that statement; its relation is the statement's meaning (a
guarded command or a relation, one edge per path through an atomic section),
a havoc of what it writes, or the pairs of values D was seen to take there;
state assertions are the values the abstract system (or D) reaches there, or
none. The code under test is D, or D after one change (an atomic section split
into its statements, an await dropped, a value or an assert changed, two
statements swapped, an atomic section written in another form), so that many
cases are near misses.

A quarter of the cases have the counter shape: two more variables, hits,
which every thread increments outside atomic sections, and a barrier after
which a probe sees every increment (at statement atomicity), so that under
access atomicity the lost update of hits = hits + 1 makes the near miss.

With SHAPES=P in the environment (0 to 1, default 0), that share of the
seeds make ShapeGen's cases instead: programs correct at C's atomicity
because they synchronize (a read-modify-write under a pthread mutex or a
lock variable, compare-and-swap loops with GCC's builtins, fetch-and-add,
two variables kept equal under a lock), whose proof needs the environment of
the other threads' abstract edges; their D is explored at ATOMICITY, and half
of them are near misses (see ShapeGen).

With FORALL=1 in the environment, the promise is athread check --for-all N's:
every thread conforms (under the environment of the counter system's
invariants) and the abstract system is safe for every N >= 1, so the C
program is safe for every number N >= 1 of instances of the counted threads.
The system line counts one kind of thread, or two, by a const N (`const N =
2;` ... `system Sys { T[N]; U; }`, FORALL_SHAPES); each instance runs the
same C function. The specs read no tid, and N appears nowhere but in the
system line (athread refuses the rest, exit 2): the ranges are fixed, so
there is no counter shape and no barrier (both count the instances), no
fetch-and-add, and ShapeGen's increments stop at x's upper bound (x = v + 1
only when v < hi; the compare-and-swap loop ends at hi). D is explored with
N = 2 (FORALL_DESIGN_N), the state assertions are drawn from the abstract
system at N = 3, and a system invariant count(T@S) <= K is kept only for
K < 3. The reference checks the C program at N = 1, 2 and 3 (FORALL_NS),
and at N + 1 up to 5 while the search at N took fewer than FORALL_MORE
states, each against the abstract system at the same N; the program is
safe only when it is at every such N. So it covers small N only: a wrong
"safe for every N" shows where it fails at some N <= 3 (or up to 5 for tiny
programs). Instances of a kind are interchangeable there, and the searches
keep each state with those sorted (a symmetry reduction; the traces are
replayed so that an instance keeps its label). athread compose --for-all N
is cross-checked: "safe for every N" against the abstract system at those N,
"unsafe for N = K" against the abstract system at K (when K <= 5).

The reference shares nothing with athread: an explicit search of every
interleaving of the concrete threads at the step granularity of the language
reference (section 7: minic.py's steps; an assert is a check between steps,
and inside an atomic section it is checked where it stands), from the C
program's initial state (its globals' initializers, one of the states the
spec allows: the concrete program's runs start there; D is explored from
every initial state the spec allows, so that the spec covers them). With ATOMICITY=access in the environment (as
athread conform's --atomicity access) it is C's granularity instead: outside
atomic sections every read of a shared variable is a step of its own, taken
in every order C allows (the operands of an operator other than && || ?: are
unsequenced, so their reads may come in any order, interleaved), and a write
of a shared variable is a step after the statement's reads; the specs are
still drawn from the code's behaviour at statement atomicity, so many cases
do not conform there. It also searches the abstract system itself.
A case's line says one of ("athread says safe": with CHECK=1 athread
check exits 0, else athread conform and athread compose both do):
  caseN all-safe: ...        athread says all conform and safe, and the
                             reference agrees (the concrete program is safe,
                             and every shared state it reaches between steps
                             is one the abstract system reaches)
  caseN VIOLATION: ...       athread says all conform and safe, and the
                             concrete program is not: the seed, the program
                             and the concrete trace follow
  caseN COMPOSE-DIFFERS: ... athread compose and the oracle's search of the
                             abstract system disagree (or athread check says
                             safe and athread compose that the system is not)
  caseN rejected: ...        some thread does not conform, or the system is
                             unsafe (and the oracle agrees about the system)
  caseN unknown/skip: ...    athread said unknown, or the reference passed
                             its state limit
  caseN ERROR: ...           athread exited 2 (bad input, or under FORALL a
                             spec --for-all refuses) or crashed
The figures: the programs, how many the reference finds safe as C (no assert
fails, no undefined behaviour) and unsafe, how many athread says safe, how
many of the reference's safe ones athread proves (all-safe), the wrong safes
(VIOLATION: a state outside the abstract system counts too) and unknowns.
Python 3 standard library only.
"""
import copy
import itertools
import multiprocessing
import os
import random
import re
import sys
from collections import deque

import minic
from minic import Var, conj, ev, mentions, show

FORALL = os.environ.get("FORALL", "0") == "1"  # counted threads T[N]; athread check --for-all N
INFER = os.environ.get("INFER", "0") == "1"  # the spec is athread infer's draft, not the generator's
LIMIT = 50_000 if FORALL else 300_000  # states of a search by the reference (under FORALL, one per N)
DESIGN_LIMIT = 50_000  # states of the design program's search (its values then are a sample)
COUNTER_SHARE = 0.25   # cases of the counter shape (Gen.counter_code)
ATOMICITY = os.environ.get("ATOMICITY", "statement")  # the concrete search's steps, as athread conform's --atomicity
INT = os.environ.get("INT", "math")   # the C code's integers, as athread conform's --int
SHAPES = float(os.environ.get("SHAPES", "0"))  # the share of ShapeGen's cases
FORALL_NS = (1, 2, 3)   # the values of N the reference always checks under FORALL
FORALL_MORE = 5_000     # ... and N + 1 (up to FORALL_MAX) while the search at N took fewer states
FORALL_MAX = 5
C_INT_TYPES = ["unsigned char", "signed char", "short", "unsigned short", "int", "unsigned"]


# ---------------------------------------------------------------- the case

class Edge:
    """Guarded command (guard, assigns: [(var, expr or None for *)]) or relation."""
    def __init__(self, src, dst, guard=None, assigns=None, rel=None):
        self.src, self.dst, self.guard, self.assigns, self.rel = src, dst, guard, assigns, rel


class Thread:
    """One kind of thread: its C function and its abstract thread."""
    def __init__(self, name, func, count, counted=False):
        self.name, self.func, self.count = name, func, count
        self.counted = counted      # FORALL: T[N] in the system, count is N's design value
        self.locals = []            # names, in declaration order
        self.body = []              # statements of the C function
        self.helpers = {}           # name -> statements (shared variables only)
        self.states = []            # abstract states (names)
        self.inits = [0]
        self.asserts = {}           # state -> expr
        self.invariant = None
        self.edges = []


class System:
    def __init__(self):
        self.vars = []
        self.threads = []
        self.init = None            # the system's init predicate, or None
        self.invariants = []        # (thread index, state, bound): count(T@S) <= bound
        self.c_bool = "_Bool"
        self.shape = ""             # how the case was made, for --stats

    def sem(self):
        """The C code's integers: minic.MATH, or with C types (--int c) a CSem."""
        if not any(v.ctype for v in self.vars):
            return minic.MATH
        return minic.CSem(self.vars, {x: "int" for t in self.threads for x in t.locals})

    def instances(self):
        return [k for k, t in enumerate(self.threads) for _ in range(t.count)]

    def counted(self):
        return any(t.counted for t in self.threads)

    def at(self, n):
        """The system with n instances of each counted thread (FORALL): the
        threads are copies that share their code, spec and asserts."""
        sy = copy.copy(self)
        sy.threads = [copy.copy(t) for t in self.threads]
        for t in sy.threads:
            if t.counted:
                t.count = n
        return sy

    def functions(self):
        out = []
        for t in self.threads:
            out += sorted(t.helpers.items())
        return out + [(t.func, t.body) for t in self.threads]

    def initial_gs(self):
        doms = [[v.init] if v.init is not None else v.domain() for v in self.vars]
        return [g for g in itertools.product(*doms) if self.init is None or ev(self.init, g)]


def writes(s, helpers, out):
    """The shared variables statement s may write."""
    k = s[0]
    if k == "set" and s[1][0] == "sh":
        out.add(s[1][1])
    elif k == "nondet_sh" or k in ("lock", "unlock"):
        out.add(s[1])
    elif k in ("cas", "fetch_add"):
        out.add(s[2])
    elif k == "call":
        for x in helpers[s[1]]:
            writes(x, helpers, out)
    for x in s[1:]:
        if isinstance(x, list):
            for y in x:
                writes(y, helpers, out)
    return out


def reads_locals(s):
    if s[0] in ("decl", "nondet_mod", "nondet_range", "cas", "fetch_add") or s[0] == "set" and s[1][0] == "loc":
        return True
    return any(isinstance(x, tuple) and mentions(x, "loc") for x in s[1:]) or \
        any(isinstance(x, list) and any(reads_locals(y) for y in x) for x in s[1:])


def rebuild(stmts, f):
    """stmts with every statement s (inner ones first) replaced by the list f(s)."""
    out = []
    for s in stmts:
        if any(isinstance(x, list) for x in s):
            s = tuple(rebuild(x, f) if isinstance(x, list) else x for x in s)
        out.extend(f(s))
    return out


# ---------------------------------------------------------------- formulas of value sets

def values_formula(var, i, values):
    """A formula over variable i that holds exactly for values (a subset of its domain)."""
    dom = var.domain()
    vs = sorted(set(values))
    if vs == dom:
        return None
    if not vs:
        return ("tf", False)
    x = ("sh", i)
    if var.kind == "bool":
        return x if vs == [1] else ("not", x)
    if len(dom) - len(vs) == 1:
        return ("bin", "!=", x, ("num", [v for v in dom if v not in vs][0]))
    if vs == list(range(vs[0], vs[-1] + 1)):
        lo = None if vs[0] == dom[0] else ("bin", ">=", x, ("num", vs[0]))
        hi = None if vs[-1] == dom[-1] else ("bin", "<=", x, ("num", vs[-1]))
        if vs[0] == vs[-1]:
            return ("bin", "==", x, ("num", vs[0]))
        return conj([lo, hi])
    return conj([("bin", "==", x, ("num", v)) for v in vs], "||")


def set_formula(vars, S, first=0):
    """A formula over the variables first.. that holds exactly for the tuples
    of S (values of those variables), or None when S is all of them."""
    if first == len(vars):
        return None
    S = set(S)
    groups = {}
    for g in S:
        groups.setdefault(g[0], set()).add(g[1:])
    by_rest = {}
    for v, rest in groups.items():
        by_rest.setdefault(frozenset(rest), []).append(v)
    parts = []
    for rest, vs in sorted(by_rest.items(), key=lambda kv: sorted(kv[1])):
        parts.append(conj([values_formula(vars[first], first, vs), set_formula(vars, rest, first + 1)]))
    if len(parts) == 1:
        return None if parts[0] == ("tf", True) else parts[0]
    return conj(parts, "||")


def prime(e):
    if e[0] == "sh":
        return ("prime", e[1])
    if e[0] == "not":
        return ("not", prime(e[1]))
    if e[0] == "bin":
        return ("bin", e[1], prime(e[2]), prime(e[3]))
    return e


# ---------------------------------------------------------------- text

def spec_text(sy, seed):
    names = [v.name for v in sy.vars]
    out = ["// gen-theorem.py %d" % seed]
    counted = [t.count for t in sy.threads if t.counted]
    if counted:
        out.append("const N = %d;" % counted[0])
    for v in sy.vars:
        init = "" if v.init is None else " = " + v.value_text(v.init)
        out.append("shared %s %s%s;" % (v.spec_type(), v.name, init))
    for t in sy.threads:
        out.append("")
        out.append("thread %s implements %s {" % (t.name, t.func))
        if t.invariant is not None:
            out.append("  invariant %s;" % show(t.invariant, names, True))
        for q, s in enumerate(t.states):
            a = " assert %s" % show(t.asserts[q], names, True) if q in t.asserts else ""
            out.append("  %sstate %s%s;" % ("init " if q in t.inits else "", s, a))
        for e in t.edges:
            head = "  %s -> %s" % (t.states[e.src], t.states[e.dst])
            if e.rel is not None:
                out.append("%s : %s;" % (head, show(e.rel, names, True)))
                continue
            if e.guard is not None or not e.assigns:
                head += " when " + show(e.guard or ("tf", True), names, True)
            if e.assigns:
                head += " do " + ", ".join("%s := %s" % (names[i], "*" if x is None else show(x, names, True))
                                           for i, x in e.assigns)
            out.append(head + ";")
        out.append("}")
    out.append("")
    out.append("system Sys {")
    for t in sy.threads:
        out.append("  %s%s;" % (t.name, "[N]" if t.counted else "[%d]" % t.count if t.count > 1 else ""))
    if sy.init is not None:
        out.append("  init %s;" % show(sy.init, names, True))
    for k, q, bound in sy.invariants:
        out.append("  invariant count(%s@%s) <= %d;" % (sy.threads[k].name, sy.threads[k].states[q], bound))
    out.append("}")
    return "\n".join(out) + "\n"


def c_text(sy, lines=None):
    return minic.c_text(sy.vars, sy.functions(), sy.c_bool, lines)


# ---------------------------------------------------------------- the concrete program

class Concrete:
    """Every interleaving of the system's concrete threads. A state is
    (g, ((node, locals, reads), ...)) per instance; asserts and probes are
    passed between steps (a check, not a step). atomicity "statement": the
    steps of the language reference (minic's steps; reads is always ()).
    "access": C's meaning, every read and every write of a shared variable
    outside atomic sections is a step of its own (see AccessEval); reads
    holds the reads the instance's current statement has made, as
    ((position, value), ...). An atomic section stays one step.
    symmetric: the instances of one kind are interchangeable (they run the
    same code from the same start and read no tid), so a state is kept
    with each kind's instances sorted (symmetric_form): a failure, and the
    shared states reached, are the same in every permutation of them."""
    def __init__(self, sy, probe=None, lines=None, atomicity="statement", symmetric=False):
        self.sy = sy
        self.sem = sy.sem()
        self.codes = [minic.Code(sy.vars, t.body, t.helpers, lines, probe, sem=self.sem) for t in sy.threads]
        self.kinds = sy.instances()
        self.probe = probe
        self.names = [v.name for v in sy.vars]
        self.access = atomicity == "access"
        self.blocks = kind_blocks(self.kinds) if symmetric else None

    def label(self, i):
        k = self.kinds[i]
        t = self.sy.threads[k]
        return t.name if t.count == 1 else "%s[%d]" % (t.name, 1 + self.kinds[:i].count(k))

    def successors(self, state, on_step=None):
        """[(instance, node, what it did or None, next state)]; raises Failure."""
        g, insts = state
        out = []
        for i, (pc, Lt, done) in enumerate(insts):
            k = self.kinds[i]
            code, names = self.codes[k], self.sy.threads[k].locals
            node = code.nodes[pc]
            if node[0] == "exit":
                continue
            L = dict(zip(names, Lt))

            def moved(g2, nxt, L2=L, done2=()):
                return g2, insts[:i] + ((nxt, tuple(L2[x] for x in names), done2),) + insts[i + 1:]
            try:
                out += self.instance_steps(i, pc, node, g, L, done, moved, on_step)
            except minic.CFault as x:
                raise Failure(i, pc, "%s: undefined behaviour in C" % x, g, L)
        return out

    def instance_steps(self, i, pc, node, g, L, done, moved, on_step):
        """The successors of instance i at node (see successors); a CFault
        (--int c: overflow) raises."""
        code = self.codes[self.kinds[i]]
        if self.access and access_expr(node) is not None:
            steps = self.access_step(i, pc, node, g, L, dict(done))
            if on_step:  # the step that completes the statement (not its reads)
                for _, g2, _, nxt, _ in steps:
                    if nxt != pc:
                        on_step(self.kinds[i], pc, g, g2)
            return [(i, pc, what, moved(g2, nxt, L2, done2)) for what, g2, L2, nxt, done2 in steps]
        if node[0] in ("assert", "probe"):
            if node[0] == "assert" and not self.sem.ev(node[1], g, L):
                raise Failure(i, pc, "assert(%s) fails" % show(node[1], self.names, False), g, L)
            if node[0] == "probe" and self.probe:
                self.probe(node[1], g, L)
            return [(i, pc, None, moved(g, node[2]))]
        try:
            steps = code.step(node, g, L)
        except minic.AssertFails as x:
            raise Failure(i, pc, "assert(%s) fails inside the step, where %s"
                          % (show(x.stmt[1], self.names, False), self.gtext(x.g)), x.g, x.L)
        if on_step:
            for g2, _, _ in steps:
                on_step(self.kinds[i], pc, g, g2)
        return [(i, pc, None, moved(g2, nxt, L2)) for g2, L2, nxt in steps]

    def access_step(self, i, pc, node, g, L, done):
        """--atomicity access, one instance at a node whose expression may read
        shared variables: [(what, g', L', next node, reads')]. While the
        expression needs reads, each read C may make next (any operand whose
        turn may come, in every order C allows) is a step that reads g; then
        the statement completes: a write of a shared variable is a step of its
        own, a branch, a local write, an await's or assume's test and an
        assert's check are not (they touch no shared variable)."""
        e = access_expr(node)
        reads = read_vars(e)
        value, need = AccessEval(L, done, self.sem).value(e)
        if need:
            return [("reads %s = %d" % (self.names[reads[p]], g[reads[p]]), g, L, pc,
                     tuple(sorted({**done, p: g[reads[p]]}.items()))) for p in sorted(need)]
        k = node[0]
        if k == "assert":
            if not value:
                raise Failure(i, pc, "assert(%s) fails on the values it read" % show(node[1], self.names, False), g, L)
            return [("checks the assert" if done else None, g, L, node[2], ())]
        if k == "cond":
            return [(None, g, L, node[2] if value else node[3], ())]
        s = node[1]
        code = self.codes[self.kinds[i]]
        if s[0] in ("assume", "await"):
            if value:
                return [(None, g, L, node[2], ())]
            return [(None, g, L, pc, ())] if s[0] == "await" and done else []  # await: reads again
        target = s[1] if s[0] == "set" else ("loc", s[1])
        g2, L2 = code.store(g, L, target, value)
        return [("writes %s" % self.names[target[1]] if target[0] == "sh" else None, g2, L2, node[2], ())]

    def gtext(self, g):
        return "{" + ", ".join("%s=%d" % (n, x) for n, x in zip(self.names, g)) + "}"

    def c_start(self):
        """The C program's initial shared state: its globals' initializers
        (one of the states the spec allows, minic.Var.c_initial)."""
        return tuple(v.c_start if getattr(v, "c_start", None) is not None else v.init if v.init is not None else 0
                     for v in self.sy.vars)

    def explore(self, limit=LIMIT, allowed=None, on_state=None, on_step=None, from_c=False):
        """("safe" | "unsafe" | "skip", why, trace lines, states). allowed: the
        shared states the abstract system reaches (None: no such check). A
        state outside them is unsafe, but the search goes on for a failure of
        the C code itself: self.own is C's own verdict ("safe" when no assert
        fails and no undefined behaviour happens). from_c: the search starts
        from the C program's initial state only (the concrete program's runs),
        else from every initial state the spec allows (D's, for the spec)."""
        self.own, outside = "skip", None
        starts = [(g, tuple((self.codes[k].entry, tuple(0 for _ in self.sy.threads[k].locals), ()) for k in self.kinds))
                  for g in ([self.c_start()] if from_c else self.sy.initial_gs())]
        seen = {s: None for s in starts}
        queue = deque(starts)
        while queue:
            state = queue.popleft()
            if on_state:
                on_state(state)
            if allowed is not None and state[0] not in allowed and outside is None:
                outside = ("the shared state %s is not one the abstract system reaches" % self.gtext(state[0]),
                           self.trace(seen, state))
            try:
                succ = self.successors(state, on_step)
            except Failure as f:
                self.own = "unsafe"
                return "unsafe", "%s: %s" % (self.where(f.instance, f.node), f.what), self.trace(seen, state), len(seen)
            for i, pc, what, s2 in succ:
                key = s2 if self.blocks is None else (s2[0], symmetric_form(s2[1], self.blocks))
                if key not in seen:
                    seen[key] = (state, i, pc, what, s2)
                    if len(seen) > limit:
                        if outside is not None:
                            return "unsafe", outside[0], outside[1], len(seen)
                        return "skip", "more than %d states" % limit, [], len(seen)
                    queue.append(key)
        self.own = "safe"
        if outside is not None:
            return "unsafe", outside[0], outside[1], len(seen)
        return "safe", "", [], len(seen)

    def where(self, i, pc):
        line = self.codes[self.kinds[i]].node_line.get(pc)
        return "%s at line %s" % (self.label(i), line if line is not None else "?")

    def trace(self, seen, state):
        """The steps from a start to state, replayed from the start so that
        under symmetry an instance keeps its label: a step of instance i of
        a sorted state is one of the instance of the same kind in the same
        local state in the replayed one."""
        path = []
        while seen[state] is not None:
            path.append(seen[state])
            state = seen[state][0]
        real, steps = state, []
        for prev, i, pc, what, moved in reversed(path):
            j = next(j for j, x in enumerate(real[1]) if self.kinds[j] == self.kinds[i] and x == prev[1][i])
            real = (moved[0], real[1][:j] + (moved[1][i],) + real[1][j + 1:])
            if self.codes[self.kinds[i]].nodes[pc][0] != "probe":  # no C text
                steps.append("  %s%s: %s" % (self.where(j, pc), " " + what if what else "", self.gtext(real[0])))
        return ["  start: %s" % self.gtext(state[0])] + steps


def kind_blocks(kinds):
    """The index ranges of the runs of instances of one kind (instances()
    lists each kind's together), for symmetric_form."""
    out, start = [], 0
    for i in range(1, len(kinds) + 1):
        if i == len(kinds) or kinds[i] != kinds[start]:
            out.append((start, i))
            start = i
    return out


def symmetric_form(insts, blocks):
    """insts with each kind's run sorted: one representative of the states
    equal up to a permutation of interchangeable instances."""
    return tuple(x for a, b in blocks for x in sorted(insts[a:b]))


def access_expr(node):
    """The expression whose shared reads are steps of their own under
    --atomicity access at node, or None: the node is what it is under
    statement atomicity (an atomic section, a nondet, a havoc, a probe)."""
    k = node[0]
    if k in ("assert", "cond"):
        return node[1]
    if k == "step" and node[1][0] in ("assume", "await"):
        return node[1][1]
    if k == "step" and node[1][0] in ("set", "decl"):
        return node[1][2]
    return None


def read_vars(e, out=None):
    """The shared variable of each read of e, by position: C's reads in a
    preorder numbering, both branches of ?: numbered (minic.natoms's order)."""
    out = [] if out is None else out
    if e[0] == "sh":
        out.append(e[1])
    elif e[0] in ("elem", "deref", "prime"):
        raise ValueError("no %s in the theorem's programs" % e[0])
    for x in e[1:]:
        if isinstance(x, tuple) and x and isinstance(x[0], str):
            read_vars(x, out)
    return out


class AccessEval:
    """An expression's value from the reads its statement has made so far
    (done: position -> value) and the locals, or the reads C may make next.
    C sequences only the first operand of && || before the second and the
    condition of ?: before its branch; the operands of every other operator
    are unsequenced, so any read of either may come next (their reads may
    interleave)."""
    def __init__(self, L, done, sem=minic.MATH):
        self.L, self.done, self.sem = L, done, sem

    def value(self, e, pos=0):
        """(value, ()) when known, else (None, positions of the possible next reads)."""
        k = e[0]
        if k == "sh":
            return (self.done[pos], ()) if pos in self.done else (None, (pos,))
        if k in ("num", "tf", "loc"):
            return self.sem.ev(e, (), self.L), ()
        if k in ("not", "cast", "bnot"):
            v, need = self.value(e[-1], pos)
            return (None, need) if need else (self.sem.unop(e, v), ())
        if k == "ite":
            c, need = self.value(e[1], pos)
            if need:
                return None, need
            pa = pos + minic.natoms(e[1])
            v, need = self.value(e[2], pa) if c else self.value(e[3], pa + minic.natoms(e[2]))
            return (None, need) if need else (self.sem.ite(e, v), ())
        op, pb = e[1], pos + minic.natoms(e[2])
        a, na = self.value(e[2], pos)
        if op in ("&&", "||", "==>"):
            if na or minic.decided(op, a):
                return (None, na) if na else (int(op != "&&"), ())
            b, nb = self.value(e[3], pb)
            return (None, nb) if nb else (int(bool(b)), ())
        b, nb = self.value(e[3], pb)
        if na or nb:
            return None, na + nb
        return self.sem.binop(e, a, b), ()


class Failure(Exception):
    def __init__(self, instance, node, what, g, L):
        Exception.__init__(self, what)
        self.instance, self.node, self.what, self.g, self.L = instance, node, what, g, L


# ---------------------------------------------------------------- the abstract system

class Abstract:
    """An explicit search of the abstract system (language reference,
    sections 3-6): one instance moves along an enabled edge at a time; a
    bounded variable never leaves its range."""
    def __init__(self, sy):
        self.sy = sy
        self.gs = list(itertools.product(*[v.domain() for v in sy.vars]))
        self.succ = [[self.edge_successors(e) for e in t.edges] for t in sy.threads]
        self.out = [[[j for j, e in enumerate(t.edges) if e.src == q] for q in range(len(t.states))] for t in sy.threads]

    def in_type(self, g):
        return all(v.in_range(x) for v, x in zip(self.sy.vars, g))

    def edge_successors(self, e):
        succ = {}
        for g in self.gs:
            if e.rel is not None:
                primed = minic.primes_in(e.rel, set())
                doms = [v.domain() if i in primed else [g[i]] for i, v in enumerate(self.sy.vars)]
                succ[g] = [g2 for g2 in itertools.product(*doms) if ev(e.rel, g, None, g2)]
                continue
            if e.guard is not None and not ev(e.guard, g):
                succ[g] = []
                continue
            doms = [[x] for x in g]
            for i, x in e.assigns:
                doms[i] = self.sy.vars[i].domain() if x is None else [ev(x, g)]
            succ[g] = [g2 for g2 in itertools.product(*doms) if self.in_type(g2)]
        return succ

    def wrong(self, k, q, g):
        t = self.sy.threads[k]
        return (q in t.asserts and not ev(t.asserts[q], g)) or (t.invariant is not None and not ev(t.invariant, g))

    def search(self, limit=LIMIT, symmetric=False):
        """("safe" | "unsafe" | "skip", why, reachable states). symmetric: each
        kind's instances sorted (as Concrete's), the states kept up to a
        permutation of interchangeable instances."""
        kinds = self.sy.instances()
        blocks = kind_blocks(kinds) if symmetric else None
        starts = [(g, qs) for g in self.sy.initial_gs()
                  for qs in itertools.product(*[self.sy.threads[k].inits for k in kinds])]
        if symmetric:
            starts = list({(g, symmetric_form(qs, blocks)) for g, qs in starts})
        seen = set(starts)
        queue = deque(starts)
        while queue:
            g, qs = queue.popleft()
            for i, q in enumerate(qs):
                if self.wrong(kinds[i], q, g):
                    return "unsafe", "%s goes wrong in %s" % (self.sy.threads[kinds[i]].name, self.sy.threads[kinds[i]].states[q]), seen
            for k, q, bound in self.sy.invariants:
                if sum(1 for i, p in enumerate(qs) if kinds[i] == k and p == q) > bound:
                    return "unsafe", "a system invariant is false", seen
            for i, q in enumerate(qs):
                k = kinds[i]
                for j in self.out[k][q]:
                    dst = self.sy.threads[k].edges[j].dst
                    for g2 in self.succ[k][j][g]:
                        s2 = (g2, qs[:i] + (dst,) + qs[i + 1:])
                        if symmetric:
                            s2 = (g2, symmetric_form(s2[1], blocks))
                        if s2 not in seen:
                            seen.add(s2)
                            if len(seen) > limit:
                                return "skip", "more than %d states" % limit, seen
                            queue.append(s2)
        return "safe", "", seen


# ---------------------------------------------------------------- generation

BOOL_NAMES = ["flag", "ready", "busy", "done"]
INT_NAMES = ["g", "n", "cnt", "data"]
THREAD_SHAPES = [[2], [3], [1, 1], [2, 1], [1, 2]]
# FORALL: "N" is a thread counted by N (T[N] in the system), designed at N = 2
FORALL_SHAPES = [["N"], ["N"], ["N", 1], [1, "N"], ["N", 1], [1, "N"], ["N", "N"]]
FORALL_DESIGN_N = 2


class Gen(minic.ExprGen):
    def __init__(self, seed):
        self.seed = seed
        self.sy = System()
        minic.ExprGen.__init__(self, random.Random(seed), self.sy.vars)
        self.probes = {}            # probe -> the locals its assert may read
        self.hints = {}             # probe -> conditions meant for its assert (ShapeGen)
        self.atomics = 0
        self.lock = None            # index of the lock variable, or None
        self.design_atomicity = "statement"  # D's steps when it is explored
        self.failing_share = 0.3    # cases with asserts that fail in D

    # ---- shared variables and threads
    def declare(self):
        n = self.r.randint(2, 3)
        bools, ints = self.r.sample(BOOL_NAMES, 3), self.r.sample(INT_NAMES, 3)
        if self.chance(0.5):
            self.lock = 0
            self.sy.vars.append(Var("lock", "bool", init=0) if self.chance(0.6) else Var("lock", "int", 1, init=0))
        while len(self.sy.vars) < n:
            if self.chance(0.4):
                v = Var(bools.pop(), "bool")
            else:
                v = Var(ints.pop(), "int", self.r.choice([1, 2, 2, 3]))
            if self.chance(0.75):
                v.init = self.r.choice(v.domain())
            self.sy.vars.append(v)
        if self.chance(0.1):
            self.sy.init = self.likely(lambda: self.bool_expr([], 1), 0.5)
            starts = self.sy.initial_gs()
            if not starts:
                self.sy.init = None
            for v, x in zip(self.sy.vars, starts[0] if starts else []):
                v.c_start = x  # the C program starts in one state the predicate allows
        self.sy.c_bool = self.r.choice(["_Bool", "bool"])

    def in_type(self, gs):
        """Every shared state of gs lies in the variables' ranges."""
        return all(v.in_range(x) for g in gs for v, x in zip(self.sy.vars, g))

    def writable(self):
        return [i for i in range(len(self.sy.vars)) if i != self.lock]

    def nondet_vars(self):
        return [i for i in self.bvars() if i != self.lock]

    # ---- statements; scope: the locals that may be read, ctx: 'top', 'loop',
    # 'branch', 'atomic', 'helper'
    def stmts(self, t, budget, depth, scope, ctx):
        out = []
        while budget[0] > 0:
            budget[0] -= 1
            s = self.stmt(t, budget, depth, scope, ctx)
            out.extend(s if isinstance(s, list) else [s])
            if ctx != "top" and self.chance(0.5):
                break
        return out

    def probe(self, scope):
        k = len(self.probes) + 1
        self.probes[k] = scope
        return ("probe", k)

    def set_shared(self, scope):
        i = self.r.choice(self.writable())
        return ("set", ("sh", i), self.shared_value(i, scope))

    def stmt(self, t, budget, depth, scope, ctx):
        inside = ctx == "atomic"
        choices = [("set_sh", 20), ("probe", 12), ("await", 6)]
        if scope and ctx != "helper":
            choices += [("set_loc", 6), ("nondet_mod", 2)]
            if not inside:
                choices += [("nondet_range", 2)]
        if depth > 0:
            choices += [("if", 7)]
            if not inside:
                choices += [("atomic", 12), ("while_star", 1)]
                if self.lock is not None:
                    choices += [("lock", 9)]
                if ctx != "helper":
                    if len(t.locals) < 4:
                        choices += [("loop", 4)]
                    if t.helpers:
                        choices += [("call", 5)]
        if not inside and self.nondet_vars():
            choices += [("nondet_sh", 2)]
        if ctx in ("top", "loop") and depth < 2:
            choices += [("return", 1)]
        total = sum(w for _, w in choices)
        x = self.r.uniform(0, total)
        for kind, w in choices:
            x -= w
            if x <= 0:
                break
        if kind == "set_sh":
            return self.set_shared(scope)
        if kind == "probe":
            return self.probe(scope)
        if kind == "await":
            return ("await", self.likely(lambda: self.bool_expr(scope, 1), 0.5))
        if kind == "set_loc":
            return ("set", ("loc", self.r.choice(scope)), self.local_value(scope))
        if kind == "nondet_mod":
            return ("nondet_mod", self.r.choice(scope))
        if kind == "nondet_range":
            lo = self.r.randint(0, 1)
            return ("nondet_range", self.r.choice(scope), lo, lo + self.r.randint(0, 2))
        if kind == "nondet_sh":
            return ("nondet_sh", self.r.choice(self.nondet_vars()))
        if kind == "if":
            c = None if self.chance(0.25) else self.bool_expr(scope, 1)
            then = self.stmts(t, budget, depth - 1, scope, ctx if inside or ctx == "helper" else "branch")
            els = self.stmts(t, budget, depth - 1, scope, ctx if inside or ctx == "helper" else "branch") if self.chance(0.5) else []
            return ("if", c, then, els)
        if kind == "atomic":
            return self.atomic(t, scope)
        if kind == "lock":
            return self.lock_section(t, scope)
        if kind == "while_star":
            i = self.r.choice(self.writable())
            return ("while", None, [("set", ("sh", i), ("num", self.r.choice(self.sy.vars[i].domain())))] if self.chance(0.5) else [self.probe(scope)])
        if kind == "loop":
            i = "i%d" % len(t.locals)
            t.locals.append(i)
            body = self.stmts(t, budget, depth - 1, scope, "loop")
            t.body.append(("decl", i, ("num", 0)))
            return ("while", ("bin", "<", ("loc", i), ("num", self.r.choice([1, 2, 2, 3]))),
                    body + [("set", ("loc", i), ("bin", "+", ("loc", i), ("num", 1)))])
        if kind == "call":
            return ("call", self.r.choice(sorted(t.helpers)))
        return ("return",)

    def atomic_form(self, function_allowed):
        r = self.r.random()
        if r < 0.3 and function_allowed:
            self.atomics += 1
            return "fn:step%d" % self.atomics
        return "begin_end" if r < 0.55 else "block"

    def atomic(self, t, scope):
        """A section that writes, checks the intermediate values, often writes
        again; sometimes between awaits."""
        form = self.atomic_form(True)
        sc = [] if form.startswith("fn:") else scope  # a function does not see the caller's locals
        if self.chance(0.6):
            body = [self.set_shared(sc), self.probe(sc)]
            if self.chance(0.3):
                body.insert(0, ("await", self.likely(lambda: self.bool_expr(sc, 1), 0.5)))
            if self.chance(0.7):
                body.append(self.set_shared(sc))
        else:
            body = self.stmts(t, [self.r.randint(1, 3)], 1, sc, "atomic")
        out = [("atomic", body, form)]
        if self.chance(0.3):
            out.insert(0, ("await", self.likely(lambda: self.bool_expr(scope, 1), 0.5)))
        if self.chance(0.3):
            out.append(("await", self.likely(lambda: self.bool_expr(scope, 1), 0.5)))
        return out

    def lock_section(self, t, scope):
        lock = self.sy.vars[self.lock]
        free = ("not", ("sh", self.lock)) if lock.kind == "bool" else ("bin", "==", ("sh", self.lock), ("num", 0))
        taken, given = (("tf", True), ("tf", False)) if lock.kind == "bool" else (("num", 1), ("num", 0))
        acquire = ("atomic", [("await", free), ("set", ("sh", self.lock), taken)], self.atomic_form(True))
        inner = [self.set_shared(scope) if self.chance(0.7) else self.probe(scope) for _ in range(self.r.randint(1, 3))]
        if self.chance(0.6):
            inner.insert(self.r.randint(1, len(inner)), self.probe(scope))
        return [acquire] + inner + [("set", ("sh", self.lock), given)]

    def make_code(self, t):
        scope = self.r.sample(["x", "y"], self.r.choice([0, 1, 1, 2]))
        for x in scope:
            t.locals.append(x)
            t.body.append(("decl", x, self.local_value([]) if self.chance(0.5) else ("num", 0)))
        if self.chance(0.35):
            name = "%s_helper" % t.func
            t.helpers[name] = []
            t.helpers[name] = self.stmts(t, [self.r.randint(1, 3)], 1, [], "helper")
        body = self.stmts(t, [self.r.randint(2, 7)], 2, scope, "top")
        for name in t.helpers:
            if not any(s == ("call", name) for s in body):
                body.insert(self.r.randint(0, len(body)), ("call", name))
        t.body += body

    def new_threads(self):
        """The threads, without code: names and instance counts (THREAD_SHAPES,
        or under FORALL FORALL_SHAPES, a counted thread at N's design value)."""
        shape = self.r.choice(FORALL_SHAPES if FORALL else THREAD_SHAPES)
        names = self.r.sample([("T", "t"), ("Worker", "worker"), ("Driver", "driver"), ("Reader", "reader")], len(shape))
        for (name, func), count in zip(names, shape):
            counted = count == "N"
            self.sy.threads.append(Thread(name, func, FORALL_DESIGN_N if counted else count, counted))

    def make_threads(self):
        self.new_threads()
        for t in self.sy.threads:
            self.make_code(t)

    # ---- asserts from what D's probes saw
    def c_readable(self, e):
        """May C code read e? (Not a mutex: ShapeGen.)"""
        return True

    def condition(self, scope, seen, kind, probe=None):
        """A condition over the shared variables and scope: kind 'holds' (true
        at every value seen, as tight as found) or 'fails' (false at some)."""
        def holds(c):
            try:
                return all(ev(c, g, L) for g, L in seen)
            except TypeError:
                return False
        pool = [self.bool_expr(scope, 1) for _ in range(12)]
        for i, v in enumerate(self.sy.vars):
            f = values_formula(v, i, [g[i] for g, _ in seen if v.in_range(g[i])])
            if f is not None and self.c_readable(f):
                pool.append(f)
        good = [c for c in pool if holds(c)] if kind == "holds" else [c for c in pool if seen and not holds(c)]
        hinted = [h(seen) if callable(h) else h for h in self.hints.get(probe, [])]
        hinted = [c for c in hinted if holds(c) == (kind == "holds") and (seen or kind == "holds")]
        if hinted and self.chance(0.8):
            return self.r.choice(hinted)
        if not good:
            return self.bool_expr(scope, 1)
        gs = list(itertools.product(*[v.domain() for v in self.sy.vars]))

        def tight(c):
            if mentions(c, "loc"):
                return 0
            return sum(1 for g in gs if not ev(c, g))
        good.sort(key=tight, reverse=True)
        return good[0] if self.chance(0.6) else self.r.choice(good)

    def place_asserts(self, seen):
        """Each probe becomes an assert (about what it saw), or stays a probe
        (no C text, no step: the nodes keep their numbers)."""
        failing = self.chance(self.failing_share)

        def f(s):
            if s[0] != "probe" or self.chance(0.25):
                return [s]
            kind = "fails" if failing and self.chance(0.4) else "holds"
            return [("assert", self.condition(self.probes[s[1]], seen.get(s[1], []), kind, s[1]))]
        for t in self.sy.threads:
            t.body = rebuild(t.body, f)
            t.helpers = {n: rebuild(b, f) for n, b in t.helpers.items()}

    # ---- the spec, drawn from D
    def derive(self, t, k, code, seen_at, steps_at):
        """Abstract states: the start and one per writing statement; edges
        from every possible last write (a data-flow over code's nodes)."""
        site = {}                               # node -> id of its writing statement
        stmt_of = {}
        for n, node in enumerate(code.nodes):
            if node[0] == "step" and writes(node[1], t.helpers, set()):
                site[n] = id(node[1])
                stmt_of[id(node[1])] = node[1]
        order = sorted(set(site.values()), key=lambda w: min(n for n, x in site.items() if x == w))
        index = {w: q + 1 for q, w in enumerate(order)}
        last = {code.entry: {0}}
        todo = [code.entry]
        while todo:
            n = todo.pop()
            out = {index[site[n]]} if n in site else last[n]
            for m in self.next_nodes(code.nodes[n]):
                if not out <= last.get(m, set()):
                    last[m] = last.get(m, set()) | out
                    todo.append(m)
        t.states = ["Start"] + ["W%d" % code.node_line.get(min(n for n, x in site.items() if x == w), q + 1)
                                for q, w in enumerate(order)]
        t.states = unique(t.states)
        styles = {}
        for n in sorted(site):
            w = index[site[n]]
            s = code.nodes[n][1]
            if w not in styles:
                styles[w] = self.relation(s, t, [p for m, x in site.items() if x == site[n] for p in steps_at.get((k, m), ())])
            for q in sorted(last.get(n, ())):
                for guard, assigns, rel in styles[w]:
                    e = Edge(q, w, guard, assigns, rel)
                    if not any(same_edge(e, x) for x in t.edges):
                        t.edges.append(e)
        return last

    @staticmethod
    def next_nodes(node):
        if node[0] == "cond":
            return [node[2], node[3]]
        if node[0] == "exit":
            return []
        return [node[-1]]

    def relation(self, s, t, observed):
        """[(guard, assigns, rel)]: the edges for writing statement s."""
        W = sorted(writes(s, t.helpers, set()))
        style = self.r.choice(["meaning", "meaning", "relation", "havoc", "observed"])
        paths = None if reads_locals(s) else symbolic(s, self.sy.vars, t.helpers)
        if style in ("meaning", "relation") and paths is None:
            style = self.r.choice(["havoc", "observed"])
        if style == "observed" and not observed:
            style = "havoc"
        if style == "havoc":
            return [(None, [(i, None) for i in W], None)]
        if style == "observed":
            by_post = {}
            for g, g2 in filter(self.in_type, observed):
                by_post.setdefault(tuple(g2[i] for i in W), set()).add(g)
            parts = [conj([set_formula(self.sy.vars, pres)] + [prime(values_formula(self.sy.vars[i], i, [v])) for i, v in zip(W, post)])
                     for post, pres in sorted(by_post.items())]
            return [(None, None, conj(parts, "||"))]
        edges = []
        for guard, values in paths:
            assigns = [(i, values[i]) for i in W if values[i] != ("sh", i)]
            if style == "meaning":
                edges.append((guard, assigns, None))
                continue
            parts = [guard] + [("bin", "==", ("prime", i), x) if x is not None else havoc_term(self.sy.vars, i) for i, x in assigns]
            edges.append((None, None, conj(parts)))
        return edges

    def assertions(self, t, k, last, seen_at, reach):
        """State assertions: the values the abstract system reaches there
        (reach: (k, q) -> shared states), or D's values there, or none."""
        style = self.r.choice(["abstract", "abstract", "concrete", "none"])
        if style == "none":
            return
        for q in range(len(t.states)):
            if self.chance(0.15):
                continue
            if style == "abstract":
                S = reach.get((k, q), set())
            else:
                S = {g for n, qs in last.items() if q in qs for g in seen_at.get((k, n), ()) if self.in_type((g,))}
            f = set_formula(self.sy.vars, S) if S else None
            if f is not None:
                t.asserts[q] = f

    def strengthen(self, lasts, seen_at, conc):
        """Conjoins facts to state assertions, one at a time, each kept only
        while the abstract system stays safe: D's values at the state, or the
        condition of an assert (over shared variables) made there."""
        facts = []
        for k, t in enumerate(self.sy.threads):
            for n, qs in lasts[k].items():
                node = conc.codes[k].nodes[n]
                if node[0] == "assert" and not mentions(node[1], "loc"):
                    facts += [(k, q, node[1]) for q in qs]
            for q in range(len(t.states)):
                S = {g for n, qs in lasts[k].items() if q in qs for g in seen_at.get((k, n), ()) if self.in_type((g,))}
                f = set_formula(self.sy.vars, S) if S else None
                if f is not None:
                    facts.append((k, q, f))
        self.r.shuffle(facts)
        for k, q, f in facts[:8]:
            t = self.sy.threads[k]
            if not self.chance(0.7) or f == t.asserts.get(q):
                continue
            before = t.asserts.get(q)
            t.asserts[q] = conj([before, f])
            if self.abstract_search(DESIGN_LIMIT)[0] != "safe":
                if before is None:
                    del t.asserts[q]
                else:
                    t.asserts[q] = before

    def boundary_asserts_inside(self, lasts, seen_at, conc):
        """Asserts inside atomic sections of a condition that holds between
        steps there (the assertions of the states the section starts from, or
        D's values at its start), which the intermediate values may break: some
        asserts and probes get it, and some shared writes not last in their
        section are followed by it. A failure there is the concrete program's,
        whatever the abstract thread's states say (issue 23)."""
        new = {}
        for k, t in enumerate(self.sy.threads):
            for n, node in enumerate(conc.codes[k].nodes):
                if node[0] != "step" or node[1][0] != "atomic" or n not in lasts[k]:
                    continue
                S = {g for g in seen_at.get((k, n), ()) if self.in_type((g,))}
                state_fact = conj([t.asserts.get(q) for q in lasts[k][n]])
                facts = [state_fact] + ([set_formula(self.sy.vars, S) or ("tf", True)] if S else [])
                facts = [f for f in facts if self.c_readable(f)]
                if not self.c_readable(state_fact):
                    state_fact = None
                for x in inner_checks(node[1][1], t.helpers):
                    if facts and self.chance(0.35):
                        new[id(x)] = [("assert", self.r.choice(facts))]
                for x in node[1][1][:-1]:
                    if x[0] == "set" and x[1][0] == "sh" and state_fact and self.chance(0.5):
                        new[id(x)] = [x, ("assert", state_fact)]
        if new:
            self.sy.shape += ", boundary facts in atomic sections"
            for t in self.sy.threads:
                t.body = rebuild(t.body, lambda s: new.get(id(s), [s]))
                t.helpers = {n: rebuild(b, lambda s: new.get(id(s), [s])) for n, b in t.helpers.items()}

    def generate(self):
        self.make_program()
        if INT == "c":
            self.c_types()
        self.make_spec()
        self.mutate()
        return self.sy

    def make_program(self):
        """D: the shared variables and the threads' code, with probes."""
        self.declare()
        counter = random.Random(self.seed ^ 0x5eed).random() < COUNTER_SHARE and not FORALL  # its barrier counts N
        if counter and len(self.sy.vars) > 2:
            self.sy.vars[2:] = []
            if self.sy.init is not None:  # it may read the variable left out
                self.sy.init = None
                for v in self.sy.vars:
                    v.c_start = None
        self.make_threads()
        if counter:
            self.counter_code()

    def make_spec(self):
        """Explores D, places its asserts, and draws the spec from it."""
        seen, seen_at, steps_at = self.explore_design()
        self.place_asserts(seen)
        lines = {}
        c_text(self.sy, lines)
        conc = Concrete(self.sy, lines=lines)
        lasts = [self.derive(t, k, conc.codes[k], seen_at, steps_at) for k, t in enumerate(self.sy.threads)]
        reach = {}
        kinds = self.spec_system().instances()
        _, _, states = self.abstract_search(LIMIT)
        for g, qs in states:
            for i, q in enumerate(qs):
                reach.setdefault((kinds[i], q), set()).add(g)
        for k, t in enumerate(self.sy.threads):
            self.assertions(t, k, lasts[k], seen_at, reach)
        self.strengthen(lasts, seen_at, conc)
        self.boundary_asserts_inside(lasts, seen_at, conc)
        if self.chance(0.2):
            self.count_invariant(states, kinds)

    def spec_system(self):
        """The system whose abstract search draws the spec's assertions: the
        design's, or under FORALL the one at the largest N the reference
        always checks (the spec is to hold for every N)."""
        return self.sy.at(FORALL_NS[-1]) if self.sy.counted() else self.sy

    def abstract_search(self, limit):
        return Abstract(self.spec_system()).search(limit, self.sy.counted())

    def c_types(self):
        """--int c: each variable's C type (its spec type stays), drawn apart
        from the program so that a seed's program is the same under --int
        math: narrow and unsigned types, where x - 1 wraps and promotes."""
        cr = random.Random(self.seed ^ 0xc7)
        for v in self.sy.vars:
            v.ctype = self.sy.c_bool if v.kind == "bool" else cr.choice(C_INT_TYPES)

    def counter_code(self):
        """The counter shape, after the threads are made: two more variables
        of 0..N for N instances, hits, which every thread increments outside
        atomic sections (a load and a store in C, so an increment can be lost),
        and arrived; into every thread's body: hits = hits + 1; later the
        barrier atomic { arrived = arrived + 1; } atomic { await(arrived ==
        N); arrived = N; } (a write, so that the abstract thread has a state
        after the barrier), and a probe there (its assert sees every increment
        at statement atomicity, not after a lost update)."""
        n = len(self.sy.instances())
        self.sy.vars += [Var("hits", "int", n, init=0), Var("arrived", "int", n, init=0)]
        self.sy.shape = "counter"
        h, a = len(self.sy.vars) - 2, len(self.sy.vars) - 1
        for t in self.sy.threads:
            first = sum(1 for s in t.body if s[0] == "decl")
            at = self.r.randint(first, len(t.body))
            t.body.insert(at, ("set", ("sh", h), ("bin", "+", ("sh", h), ("num", 1))))
            at = self.r.randint(at + 1, len(t.body))
            all_in = ("bin", "==", ("sh", a), ("num", n))
            t.body[at:at] = [("atomic", [("set", ("sh", a), ("bin", "+", ("sh", a), ("num", 1)))], self.atomic_form(False)),
                             ("atomic", [("await", all_in), ("set", ("sh", a), ("num", n))], self.atomic_form(False)),
                             self.probe([])]

    def explore_design(self):
        """Explores D: what each probe saw, the values at each node, the
        steps each node took."""
        seen, seen_at, steps_at = {}, {}, {}

        def probe(k, g, L):
            seen.setdefault(k, set()).add((g, tuple(sorted(L.items()))))

        conc = Concrete(self.sy, probe=probe, atomicity=self.design_atomicity, symmetric=self.sy.counted())

        def on_state(state):
            g, insts = state
            for i, (pc, _, _) in enumerate(insts):
                seen_at.setdefault((conc.kinds[i], pc), set()).add(g)

        def on_step(k, pc, g, g2):
            steps_at.setdefault((k, pc), set()).add((g, g2))
        verdict, _, _, _ = conc.explore(DESIGN_LIMIT, on_state=on_state, on_step=on_step)
        self.sy.shape = ("%s, " % self.sy.shape if self.sy.shape else "") + "design %s" % verdict
        return {k: [(g, dict(L)) for g, L in v] for k, v in seen.items()}, seen_at, steps_at

    def count_invariant(self, states, kinds):
        k = self.r.randrange(len(self.sy.threads))
        t = self.sy.threads[k]
        if t.count < 2:
            return
        q = self.r.randrange(len(t.states))
        bound = max(sum(1 for i, p in enumerate(qs) if kinds[i] == k and p == q) for _, qs in states)
        if t.counted and bound >= FORALL_NS[-1]:  # every instance there at N = 3: false at N = 4
            return
        self.sy.invariants.append((k, q, bound))

    # ---- the code under test: D, or D after one change
    def mutate(self):
        if not self.chance(0.4):
            return
        t = self.r.choice(self.sy.threads)
        kind = self.r.choice(["split_atomic", "drop_await", "change_value", "change_assert", "swap", "reform"])
        targets = []

        def find(stmts, where):
            for j, s in enumerate(stmts):
                targets.append((stmts, j, where))
                for x in s[1:]:
                    if isinstance(x, list):
                        find(x, where or s[0] == "atomic")
        find(t.body, False)
        for b in t.helpers.values():
            find(b, False)
        fit = {
            "split_atomic": lambda s, a: s[0] == "atomic" and len(s[1]) > 1,
            "drop_await": lambda s, a: s[0] == "await",
            "change_value": lambda s, a: s[0] == "set" and s[1][0] == "sh" and s[1][1] != self.lock,
            "change_assert": lambda s, a: s[0] == "assert",
            "swap": lambda s, a: s[0] != "decl",
            "reform": lambda s, a: s[0] == "atomic",
        }[kind]
        cands = [(l, j, a) for l, j, a in targets if fit(l[j], a)]
        if not cands:
            return
        stmts, j, in_atomic = self.r.choice(cands)
        s = stmts[j]
        self.sy.shape += ", mutant " + kind
        if kind == "split_atomic":
            stmts[j:j + 1] = s[1]
        elif kind == "drop_await":
            del stmts[j]
        elif kind == "change_value":
            stmts[j] = ("set", s[1], self.shared_value(s[1][1], []))
        elif kind == "change_assert":
            stmts[j] = ("assert", self.bool_expr([], 1))
        elif kind == "swap" and j + 1 < len(stmts) and stmts[j + 1][0] != "decl":
            stmts[j], stmts[j + 1] = stmts[j + 1], stmts[j]
        elif kind == "reform":
            form = "begin_end" if minic.atomic_form(s) != "begin_end" else "block"
            stmts[j] = ("atomic", s[1], form)


LOCKED_OPS = ["locked_inc", "locked_inc", "locked_dec", "locked_max", "locked_pair", "locked_check"]
LOCK_FREE_OPS = ["cas_inc", "cas_inc", "cas_max", "fetch_add"]
SHAPE_MUTANTS = ["drop_lock", "read_outside", "unlock_between", "unlock_early", "plain_rmw", "wrong_assert"]


class ShapeGen(Gen):
    """Programs that are correct at C's atomicity because of how they
    synchronize, so that athread can prove them only with the environment of
    the other threads' abstract edges (a havoc of shared variables breaks
    them): per kind of thread one operation on a shared int x, repeated 1-2
    times in a loop: a read-modify-write under a lock (pthread_mutex_t, or a
    lock variable taken in an atomic section): increment, guarded decrement,
    maximum with a constant; a compare-and-swap loop (GCC's
    __sync_bool_compare_and_swap or __atomic_compare_exchange_n): increment,
    maximum; __atomic_fetch_add. Probes after the operation carry hints
    (x > v, x == v + 1, x >= c, ...) that become asserts when they hold on
    every run of D; sometimes a barrier, after which a probe sees the final
    value. D is explored at ATOMICITY, its spec drawn as Gen's (the lock
    steps by their meaning, the writes that read locals mostly by the values
    D was seen to take). Half the cases are near misses: a lock dropped, the
    read moved before the lock, the lock released between the read and the
    write or before the write, a compare-and-swap made a plain read and
    write, an assert changed to a wrong one."""

    def __init__(self, seed):
        Gen.__init__(self, seed)
        self.design_atomicity = ATOMICITY
        self.failing_share = 0.15   # the near misses make unsafe programs enough
        self.mutex = False
        self.ops = {}               # thread kind -> (operation, its constant)

    def c_readable(self, e):
        return not (self.mutex and self.lock is not None and mentions_var(e, self.lock))

    def bvars(self):
        return [i for i in Gen.bvars(self) if i != self.lock or not self.mutex]

    def make_program(self):
        self.sy.shape = "shape"
        self.new_threads()
        rounds = {}
        ops = LOCKED_OPS if self.chance(0.65) else LOCK_FREE_OPS
        if FORALL:  # x's range is fixed for every N: no fetch-and-add, and the increments saturate
            ops = [op if op != "fetch_add" else "cas_inc" for op in ops]
        for k, t in enumerate(self.sy.threads):
            self.ops[k] = (self.r.choice(ops), self.r.randint(1, 3))
            rounds[k] = 2 if len(self.sy.instances()) < 3 and self.chance(0.15) else 1
        x0 = self.r.choice([0, 0, 1])
        incs = sum(t.count * rounds[k] for k, t in enumerate(self.sy.threads)
                   if self.ops[k][0] in ("locked_inc", "cas_inc", "fetch_add", "locked_pair"))
        hi = max([x0 + incs, 1] + [c for op, c in self.ops.values() if op.endswith("max")])
        if any(op.startswith("locked") for op, _ in self.ops.values()):
            self.lock = 0
            self.mutex = self.chance(0.6)
            lock = Var("m" if self.mutex else "lock", "bool", init=0)
            lock.mutex = self.mutex
            self.sy.vars.append(lock)
        xname, yname = self.r.sample(INT_NAMES, 2)
        self.sy.vars.append(Var(xname, "int", hi, init=x0))
        self.hi = hi
        self.x = len(self.sy.vars) - 1
        if any(op in ("locked_pair", "locked_check") for op, _ in self.ops.values()):
            self.sy.vars.append(Var(yname, "int", hi, init=x0))  # y == x whenever the lock is free
        self.sy.c_bool = self.r.choice(["_Bool", "bool"])
        self.rounds = rounds
        for k, t in enumerate(self.sy.threads):
            self.shape_code(t, k, rounds[k])
        self.sy.shape += " " + "+".join(op for op, _ in self.ops.values())
        if self.chance(0.35) and not FORALL:  # a barrier counts the instances, N under FORALL
            self.barrier()

    def acquire(self):
        if self.mutex:
            return ("lock", self.lock)
        return ("atomic", [("await", ("not", ("sh", self.lock))), ("set", ("sh", self.lock), ("tf", True))], self.atomic_form(True))

    def release(self):
        return ("unlock", self.lock) if self.mutex else ("set", ("sh", self.lock), ("tf", False))

    def hinted_probe(self, scope, hints):
        p = self.probe(scope)
        self.hints[p[1]] = hints
        return p

    def shape_code(self, t, k, rounds):
        """t's body: its operation, rounds times."""
        op, c = self.ops[k]
        if FORALL and op in ("locked_inc", "locked_pair", "cas_inc"):
            return self.saturating_code(t, op, rounds)
        x, v, ok = ("sh", self.x), ("loc", "v"), ("loc", "ok")
        t.locals += ["v", "ok", "i"] if rounds > 1 else ["v", "ok"]
        t.body += [("decl", "v", ("num", 0)), ("decl", "ok", ("num", 0))]
        plus = lambda e, n: ("bin", "+", e, ("num", n))
        cmp = lambda op, a, b: ("bin", op, a, b)
        grows = cmp(">", x, v)
        if op == "locked_inc":
            body = [self.acquire(), ("set", v, x), self.hinted_probe(["v"], [cmp(">=", x, v)]), ("set", x, plus(v, 1)),
                    self.hinted_probe(["v"], [cmp("==", x, plus(v, 1)), grows]), self.release(),
                    self.hinted_probe(["v"], [grows])]
        elif op == "locked_dec":
            body = [self.acquire(), ("set", v, x),
                    ("if", cmp(">", v, ("num", 0)), [("set", x, ("bin", "-", v, ("num", 1))),
                                                     self.hinted_probe(["v"], [cmp("<", x, v), cmp("==", plus(x, 1), v)])], []),
                    self.release(), self.probe(["v"])]
        elif op == "locked_pair":
            y = ("sh", self.x + 1)
            body = [self.acquire(), ("set", v, x), ("set", x, plus(v, 1)), self.hinted_probe(["v"], [cmp("==", x, plus(y, 1))]),
                    ("set", y, plus(y, 1)), self.hinted_probe(["v"], [cmp("==", x, y), cmp("==", y, plus(v, 1))]), self.release(),
                    self.probe(["v"])]
        elif op == "locked_check":
            y = ("sh", self.x + 1)
            body = [self.acquire(), ("set", v, x), ("set", ok, y), self.hinted_probe(["v", "ok"], [cmp("==", v, ok)]),
                    self.hinted_probe(["v"], [cmp("==", y, v), cmp("==", x, y)]), self.release(), self.probe(["v"])]
        elif op == "locked_max":
            body = [self.acquire(), ("set", v, x), ("if", cmp("<", v, ("num", c)), [("set", x, ("num", c))], []),
                    self.hinted_probe(["v"], [cmp(">=", x, ("num", c)), cmp(">=", x, v)]), self.release(),
                    self.hinted_probe(["v"], [cmp(">=", x, ("num", c)), cmp(">=", x, v)])]
        elif op == "cas_inc":
            if self.chance(0.5):
                loop = [("while", ("not", ok), [("set", v, x), ("cas", "ok", self.x, v, plus(v, 1), "sync")])]
            else:
                loop = [("set", v, x), ("while", ("not", ok), [("cas", "ok", self.x, v, plus(v, 1), "atomic")])]
            body = [("set", ok, ("num", 0))] + loop + [self.hinted_probe(["v"], [grows, cmp(">=", x, plus(v, 1))])]
        elif op == "cas_max":
            body = [("set", ok, ("num", 0)),
                    ("while", ("not", ok), [("set", v, x), ("if", cmp(">=", v, ("num", c)), [("set", ok, ("num", 1))],
                                                                  [("cas", "ok", self.x, v, ("num", c), "sync")])]),
                    self.hinted_probe(["v"], [cmp(">=", x, ("num", c)), cmp(">=", x, v)])]
        else:
            body = [("fetch_add", "v", self.x, 1), self.hinted_probe(["v"], [grows, cmp(">=", x, plus(v, 1))])]
        self.repeat(t, body, rounds)

    def repeat(self, t, body, rounds):
        """Appends body to t's code, in a loop of rounds rounds when more than one."""
        if rounds == 1:
            t.body += body
            return
        i = ("loc", "i")
        t.body += [("decl", "i", ("num", 0)), ("while", ("bin", "<", i, ("num", rounds)), body + [("set", i, ("bin", "+", i, ("num", 1)))])]

    def saturating_code(self, t, op, rounds):
        """FORALL: the increments of x stop at its upper bound (x < hi), so
        that x's range holds for every N: the increment under the lock is
        made only when v < hi, and the compare-and-swap loop ends at hi."""
        x, v, ok = ("sh", self.x), ("loc", "v"), ("loc", "ok")
        t.locals += ["v", "ok", "i"] if rounds > 1 else ["v", "ok"]
        t.body += [("decl", "v", ("num", 0)), ("decl", "ok", ("num", 0))]
        plus = lambda e, n: ("bin", "+", e, ("num", n))
        cmp = lambda op, a, b: ("bin", op, a, b)
        below = cmp("<", v, ("num", self.hi))
        grows, kept = cmp(">", x, v), cmp(">=", x, v)
        if op == "locked_inc":
            bump = [("set", x, plus(v, 1)), self.hinted_probe(["v"], [cmp("==", x, plus(v, 1)), grows])]
            body = [self.acquire(), ("set", v, x), self.hinted_probe(["v"], [kept]), ("if", below, bump, []),
                    self.release(), self.hinted_probe(["v"], [kept, grows])]
        elif op == "locked_pair":
            y = ("sh", self.x + 1)
            bump = [("set", x, plus(v, 1)), self.hinted_probe(["v"], [cmp("==", x, plus(y, 1))]), ("set", y, plus(y, 1)),
                    self.hinted_probe(["v"], [cmp("==", x, y), cmp("==", y, plus(v, 1))])]
            body = [self.acquire(), ("set", v, x), ("if", below, bump, []), self.release(), self.probe(["v"])]
        elif self.chance(0.5):
            body = [("set", ok, ("num", 0)),
                    ("while", ("not", ok), [("set", v, x), ("if", below, [("cas", "ok", self.x, v, plus(v, 1), "sync")],
                                                                  [("set", ok, ("num", 1))])]),
                    self.hinted_probe(["v"], [kept, grows, cmp(">=", x, plus(v, 1))])]
        else:
            body = [("set", ok, ("num", 0)), ("set", v, x),
                    ("while", ("not", ok), [("if", below, [("cas", "ok", self.x, v, plus(v, 1), "atomic")], [("set", ok, ("num", 1))])]),
                    self.hinted_probe(["v"], [kept, grows, cmp(">=", x, plus(v, 1))])]
        self.repeat(t, body, rounds)

    def barrier(self):
        """Every thread arrives, waits for all, then a probe sees x's final value."""
        n = len(self.sy.instances())
        self.sy.vars.append(Var("arrived", "int", n, init=0))
        a = len(self.sy.vars) - 1
        self.sy.shape += ", barrier"
        for t in self.sy.threads:
            t.body += [("atomic", [("set", ("sh", a), ("bin", "+", ("sh", a), ("num", 1)))], self.atomic_form(False)),
                       ("atomic", [("await", ("bin", "==", ("sh", a), ("num", n))), ("set", ("sh", a), ("num", n))], self.atomic_form(False)),
                       self.hinted_probe([], [self.final_value])]

    def final_value(self, seen):
        """The hint of the probe after the barrier: x's values there."""
        return values_formula(self.sy.vars[self.x], self.x, [g[self.x] for g, _ in seen]) or ("tf", True)

    def c_types(self):
        """--int c: x is an int (GCC's atomic builtins take int objects), the
        lock variable a C bool, arrived any type."""
        Gen.c_types(self)
        for i, v in enumerate(self.sy.vars):
            if i == self.x:
                v.ctype = "int"

    def relation(self, s, t, observed):
        """A lock step by its meaning (never a havoc, which would let any
        thread take a held lock); a write that reads locals mostly by the
        values D was seen to take."""
        if reads_locals(s) and observed and self.chance(0.8) or s[0] in ("lock", "unlock") and observed and self.chance(0.3):
            return self.relation_in(s, t, observed, "observed")
        if self.lock is not None and self.lock in writes(s, t.helpers, set()) and symbolic(s, self.sy.vars, t.helpers):
            return self.relation_in(s, t, observed, "meaning")
        return Gen.relation(self, s, t, observed)

    def assertions(self, t, k, last, seen_at, reach):
        """Gen's, but never D's values (which the abstract system may leave:
        Gen has those cases)."""
        r, self.r = self.r, _Fixed(self.r, "abstract" if self.chance(0.8) else "none")
        try:
            Gen.assertions(self, t, k, last, seen_at, reach)
        finally:
            self.r = r

    def derive(self, t, k, code, seen_at, steps_at):
        """Gen's, but a compare-and-swap done once (one round) has no edge
        from its state to itself: it returns there only after a failure,
        which writes nothing (a stutter), and the edge would let the abstract
        thread swap again and again."""
        last = Gen.derive(self, t, k, code, seen_at, steps_at)
        if self.rounds[k] == 1 and self.ops[k][0].startswith("cas"):
            t.edges = [e for e in t.edges if e.src != e.dst]
        return last

    def relation_in(self, s, t, observed, style):
        if style == "observed" and any(g != g2 for g, g2 in observed):
            observed = [(g, g2) for g, g2 in observed if g != g2]  # a failed compare-and-swap is a stutter
        r, self.r = self.r, _Fixed(self.r, style)
        try:
            return Gen.relation(self, s, t, observed)
        finally:
            self.r = r

    # ---- near misses
    def mutate(self):
        if not self.chance(0.5):
            return
        kinds = list(self.r.sample(SHAPE_MUTANTS, len(SHAPE_MUTANTS)))
        for kind in kinds:
            for k in self.r.sample(range(len(self.sy.threads)), len(self.sy.threads)):
                if getattr(self, "mutant_" + kind)(self.sy.threads[k]):
                    self.sy.shape += ", mutant " + kind
                    return

    def body_of(self, t):
        """The statement list that holds t's operation (its loop's body, or t's body)."""
        for s in t.body:
            if s[0] == "while" and s[1][0] == "bin":
                return s[2]
        return t.body

    def lock_at(self, stmts):
        """(where the lock is taken, where it is released) in stmts, or None."""
        acq = [j for j, s in enumerate(stmts) if s[0] == "lock" or s[0] == "atomic" and self.lock is not None and
               any(x[0] == "set" and x[1] == ("sh", self.lock) for x in s[1])]
        rel = [j for j, s in enumerate(stmts) if s == self.release()]
        return (acq[0], rel[0]) if acq and rel else None

    def mutant_drop_lock(self, t):
        b = self.body_of(t)
        at = self.lock_at(b)
        if at is None:
            return False
        del b[at[1]]
        del b[at[0]]
        return True

    def mutant_read_outside(self, t):
        b = self.body_of(t)
        at = self.lock_at(b)
        if at is None or b[at[0] + 1][0] != "set":
            return False
        b.insert(at[0], b.pop(at[0] + 1))
        return True

    def mutant_unlock_between(self, t):
        b = self.body_of(t)
        at = self.lock_at(b)
        if at is None:
            return False
        b[at[0] + 2:at[0] + 2] = [self.release(), self.acquire()]
        return True

    def mutant_unlock_early(self, t):
        b = self.body_of(t)
        at = self.lock_at(b)
        if at is None:
            return False
        writes_x = [j for j in range(at[0] + 1, at[1]) if self.x in writes(b[j], t.helpers, set())]
        if not writes_x:
            return False
        b.insert(writes_x[0], b.pop(at[1]))
        return True

    def mutant_plain_rmw(self, t):
        """A compare-and-swap or fetch-and-add made a read and a write."""
        def f(s):
            if s[0] == "cas":
                return [("set", ("sh", self.x), s[4]), ("set", ("loc", s[1]), ("num", 1))]
            if s[0] == "fetch_add":
                return [("set", ("loc", s[1]), ("sh", s[2])), ("set", ("sh", s[2]), ("bin", "+", ("loc", s[1]), ("num", s[3])))]
            return [s]
        before = repr(t.body)
        t.body = rebuild(t.body, f)
        return repr(t.body) != before

    def mutant_wrong_assert(self, t):
        """An assert about x made one step stronger than it can be (x > v + 1
        for x > v, x >= c + 1 for x >= c, x == v + 2 for x == v + 1, ...)."""
        found = []

        def f(s):
            if s[0] == "assert" and s[1][0] == "bin" and s[1][1] in ("<", "<=", ">", ">=", "==") and not found:
                op, a, b = s[1][1:]
                found.append(s)
                if op in (">", ">="):
                    return [("assert", ("bin", op, a, ("bin", "+", b, ("num", 1))))]
                if op in ("<", "<="):
                    return [("assert", ("bin", op, ("bin", "+", a, ("num", 1)), b))]
                return [("assert", ("bin", "==", a, ("bin", "+", b, ("num", 1))))]
            return [s]
        t.body = rebuild(t.body, f)
        return bool(found)


class _Fixed:
    """A random source whose choice() gives one answer (the relation style),
    and otherwise draws from r."""
    def __init__(self, r, answer):
        self.r, self.answer = r, answer

    def choice(self, xs):
        return self.answer if self.answer in xs else self.r.choice(xs)

    def __getattr__(self, name):
        return getattr(self.r, name)


def inner_checks(stmts, helpers):
    """The asserts and probes of stmts, at any depth."""
    out = []
    for s in stmts:
        if s[0] in ("assert", "probe"):
            out.append(s)
        elif s[0] == "call":
            out += inner_checks(helpers[s[1]], helpers)
        for x in s[1:]:
            if isinstance(x, list):
                out += inner_checks(x, helpers)
    return out


def unique(names):
    out = []
    for n in names:
        while n in out:
            n += "b"
        out.append(n)
    return out


def same_edge(a, b):
    return (a.src, a.dst, a.guard, a.assigns, a.rel) == (b.src, b.dst, b.guard, b.assigns, b.rel)


def havoc_term(vars, i):
    """A relation conjunct that lets variable i take any value of its type."""
    if vars[i].kind == "bool":
        return ("bin", "||", ("prime", i), ("not", ("prime", i)))
    return ("bin", ">=", ("prime", i), ("num", 0))


def symbolic(s, vars, helpers):
    """The paths through a loop-free statement over shared variables only:
    [(guard or None, values)], values[i] the new value of variable i as an
    expression over the values before (None: any value); None when s cannot be
    written so (a nondet value read later)."""
    paths = [([], tuple(("sh", i) for i in range(len(vars))))]

    def run(stmts, paths):
        for x in stmts:
            paths = [p for path in paths for p in one(x, path)]
        return paths

    def read(e, values):
        if any(values[i] is None for i in range(len(vars)) if mentions_var(e, i)):
            raise ValueError("reads a nondet value")
        return minic.substitute(e, values)

    def one(x, path):
        guards, values = path
        k = x[0]
        if k == "set":
            i = x[1][1]
            return [(guards, values[:i] + (minic.stored(vars, i, read(x[2], values)),) + values[i + 1:])]
        if k == "nondet_sh":
            return [(guards, values[:x[1]] + (None,) + values[x[1] + 1:])]
        if k in ("await", "assume"):
            return [(guards + [read(x[1], values)], values)]
        if k in ("assert", "probe"):
            return [path]
        if k in ("lock", "unlock"):
            i = x[1]
            guard = [read(("not", ("sh", i)), values)] if k == "lock" else []
            return [(guards + guard, values[:i] + (("tf", k == "lock"),) + values[i + 1:])]
        if k == "if":
            if x[1] is None:
                return run(x[2], [path]) + run(x[3], [path])
            c = read(x[1], values)
            return run(x[2], [(guards + [c], values)]) + run(x[3], [(guards + [("not", c)], values)])
        if k == "atomic":
            return run(x[1], [path])
        if k == "call":
            return run(helpers[x[1]], [path])
        raise ValueError(k)
    try:
        return [(conj(gs) if gs else None, values) for gs, values in run([s], paths)]
    except ValueError:
        return None


def mentions_var(e, i):
    if e[0] == "sh":
        return e[1] == i
    return any(isinstance(x, tuple) and mentions_var(x, i) for x in e[1:])


def split_statements(sy):
    """The statements outside atomic sections with two or more shared
    accesses (reads and writes; under --atomicity access their accesses
    interleave with the other threads')."""
    def accesses(s):
        if s[0] in ("assert", "assume", "await", "if", "while"):
            return 0 if s[1] is None else minic.natoms(s[1])
        if s[0] in ("set", "decl"):
            return minic.natoms(s[2]) + int(s[0] == "set" and s[1][0] == "sh")
        return 0

    def count(stmts, helpers):
        n = 0
        for s in stmts:
            n += int(accesses(s) >= 2)
            if s[0] == "call":
                n += count(helpers[s[1]], helpers)
            elif s[0] != "atomic":
                n += sum(count(x, helpers) for x in s[2:] if isinstance(x, list))
        return n
    return sum(count(t.body, t.helpers) for t in sy.threads)


def case_of(seed):
    """The case of seed: a share SHAPES (environment, default 0) are ShapeGen's."""
    if random.Random(seed ^ 0x5ba9e).random() < SHAPES:
        return ShapeGen(seed).generate()
    return Gen(seed).generate()


# ---------------------------------------------------------------- verdicts

def reference(sy, limit=LIMIT):
    """The oracle's verdicts: (abstract verdict, abstract why, concrete verdict,
    why, trace lines, C's own verdict). The concrete search also checks that
    every shared state it reaches is one the abstract system reaches, when
    that one is safe; C's own verdict is about the C code alone (asserts,
    undefined behaviour). The concrete program starts where its globals'
    initializers put it (one of the spec's initial states): athread promises
    nothing about other starts, and under --env system it checks from there.
    With counted threads (FORALL), the verdicts over several values of N
    (reference_forall)."""
    if sy.counted():
        return reference_forall(sy, limit)
    return reference_at(sy, limit)[:6]


def reference_at(sy, limit):
    """reference's verdicts for sy as it is, and the concrete search's states."""
    symmetric = sy.counted()
    a_verdict, a_why, states = Abstract(sy).search(limit, symmetric)
    allowed = {g for g, _ in states} if a_verdict == "safe" else None
    lines = {}
    c_text(sy, lines)
    conc = Concrete(sy, lines=lines, atomicity=ATOMICITY, symmetric=symmetric)
    c_verdict, why, trace, explored = conc.explore(limit, allowed, from_c=True)
    return a_verdict, a_why, c_verdict, why, trace, conc.own, explored


def reference_forall(sy, limit):
    """reference's verdicts for every N in FORALL_NS, and N + 1 (up to
    FORALL_MAX) while the concrete search at N took fewer than FORALL_MORE
    states: each system is checked against its own abstract system at that
    N. Unsafe (abstract, concrete, C's own) when it is at some N, the first
    such N named in the why; skip when some N passed the limit and none is
    unsafe. The concrete searches stop at C's own failure, and at an N whose
    search passed the limit (a larger N's would too); the abstract system is
    searched at every N of FORALL_NS still (compose's cross-check). Only these
    small N are covered: a wrong "safe for every N" shows only where it fails
    at one."""
    a = c = None
    own, n, explored = "safe", 1, 0
    while n in FORALL_NS or n <= FORALL_MAX and explored < FORALL_MORE and own == "safe":
        if own == "safe":
            a_verdict, a_why, c_verdict, why, trace, own_n, explored = reference_at(sy.at(n), limit)
            if c is None or c[0] != "unsafe" and c_verdict in ("unsafe", "skip"):
                c = (c_verdict, "at N = %d: %s" % (n, why) if c_verdict != "safe" else "", trace)
            own = own_n if own_n == "unsafe" or own == "safe" else own
        else:
            a_verdict, a_why, _ = Abstract(sy.at(n)).search(limit, True)
        if a is None or a[0] != "unsafe" and a_verdict in ("unsafe", "skip"):
            a = (a_verdict, "at N = %d: %s" % (n, a_why) if a_verdict != "safe" else "")
        n += 1
    return a[0], a[1], c[0], c[1], c[2], own


def abstract_unsafe_at(sy, n):
    """Is the abstract system unsafe at N = n (FORALL; None: the search passed
    its limit, or n is beyond FORALL_MAX)?"""
    if n > FORALL_MAX:
        return None
    verdict = Abstract(sy.at(n)).search(LIMIT, True)[0]
    return None if verdict == "skip" else verdict == "unsafe"


def compose_differs(sy, a_verdict, a_why, rcs):
    """The disagreement of athread compose (exit code rcs["compose"]; under
    FORALL, with --for-all N, rcs["compose_n"]: the N of its counterexample)
    with the oracle's search of the abstract system, or None."""
    said = {0: "safe", 1: "unsafe"}.get(rcs["compose"])
    if said is None:
        return None
    n = rcs.get("compose_n")
    if said == "unsafe" and n is not None:  # --for-all: the counterexample's N, checked there
        if abstract_unsafe_at(sy, n) is False:
            return "athread compose --for-all says unsafe for N = %d, the oracle's search of the abstract system at N = %d is safe" % (n, n)
        return None
    if a_verdict != "skip" and said != a_verdict:
        return "athread compose says %s, the oracle's search of the abstract system %s %s" % (said, a_verdict, a_why)
    return None


def judge(seed, rcs):
    """(status, text, figures) of one case, given athread's exit codes rcs:
    {"check": ..., "compose": ...} (CHECK=1) or {"conform": ..., "compose":
    ...}; figures: the reference's and athread's verdicts for the summary."""
    sy = case_of(seed)
    a_verdict, a_why, c_verdict, why, trace, own = reference(sy)
    says = "check" if "check" in rcs else "conform"
    first, compose_rc = rcs[says], rcs["compose"]
    fig = {"own": own, "athread": "?"}
    rc_list = (first, compose_rc)
    if INFER and rcs.get("infer") != 0:
        fig["athread"] = "rejected"
        return "rejected", "athread infer exit %s: no draft to check" % rcs.get("infer"), fig
    if any(rc not in (0, 1, 3) for rc in rc_list):
        return "ERROR", "athread exit codes %s %s, compose %s (bad input or a crash)" % (says, first, compose_rc), fig
    if first == 3 or compose_rc == 3 and says == "conform":  # check's own verdict stands without compose's
        fig["athread"] = "unknown"
        return "unknown", "athread said unknown (%s exit %s, compose exit %s)" % (says, first, compose_rc), fig
    differs = None if INFER else compose_differs(sy, a_verdict, a_why, rcs)
    if differs:
        return "COMPOSE-DIFFERS", differs, fig
    safe = first == 0 and (says == "check" or compose_rc == 0)
    if says == "check" and safe and compose_rc == 1 and not INFER:
        return "COMPOSE-DIFFERS", "athread check says safe, athread compose says the abstract system is unsafe", fig
    fig["athread"] = "safe" if safe else "rejected"
    if not safe:
        return "rejected", "%s exit %d, compose exit %s; the concrete program is %s" % (says, first, compose_rc, c_verdict), fig
    if c_verdict == "skip":
        return "skip", "the concrete search passed %d states" % LIMIT, fig
    if c_verdict == "safe":
        split = split_statements(sy) if ATOMICITY == "access" else 0
        return "all-safe", "every thread conforms, the system is safe, and so is the concrete program%s" % \
            (" (%d statements of two or more shared accesses outside atomic sections)" % split if split else ""), fig
    return "VIOLATION", "\n".join(["every thread conforms and the system is safe, but the concrete program is not: %s" % why,
                                   "---- seed %d (%stests/oracle/gen-theorem.py %d prints it)" % (seed, env_prefix(), seed),
                                   spec_text(sy, seed), c_text(sy), "---- concrete trace:"] + trace), fig


def env_prefix():
    """The environment that makes a seed's case: "SHAPES=0.5 ATOMICITY=access " ..."""
    out = ["SHAPES=%g" % SHAPES] if SHAPES else []
    out += ["ATOMICITY=" + ATOMICITY] if ATOMICITY != "statement" else []
    out += ["INT=" + INT] if INT != "math" else []
    out += ["FORALL=1"] if FORALL else []
    return " ".join(out) + (" " if out else "")


def counterexample_n(path):
    """The N of athread compose --for-all's counterexample ("system S:
    unsafe for N = 3: ..."), or None."""
    try:
        with open(path) as f:
            m = re.match(r"system \S+: unsafe for N = (\d+):", f.readline())
    except OSError:
        return None
    return int(m.group(1)) if m else None


def read_rc(path):
    try:
        with open(path) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def judge_file(job):
    """judge of the case DIR/caseSEED (job: (DIR, SEED)), from athread's files there."""
    directory, seed = job
    base = os.path.join(directory, "case%d" % seed)
    check = os.environ.get("CHECK", "0") == "1"
    rcs = {cmd: read_rc("%s.%s.rc" % (base, cmd)) for cmd in (("check", "compose") if check else ("conform", "compose"))}
    if INFER:
        rcs["infer"] = read_rc(base + ".infer.rc")
    if FORALL:
        rcs["compose_n"] = counterexample_n(base + ".compose.out")
    return (seed,) + judge(seed, rcs)


def judge_batch(directory, first, count):
    """The cases' lines, the figures and the summary; the cases are judged
    by JOBS processes (environment, default 1), printed in seed order."""
    tally, split = {}, 0
    figs = {"ref-safe": 0, "ref-unsafe": 0, "ref-skip": 0, "athread-safe": 0, "proved": 0, "unknown": 0}
    check = os.environ.get("CHECK", "0") == "1"
    jobs = [(directory, seed) for seed in range(first, first + count)]
    with multiprocessing.get_context("fork").Pool(max(1, int(os.environ.get("JOBS", "1")))) as pool:
        judged = list(pool.imap(judge_file, jobs))
    for seed, status, text, fig in judged:
        tally[status] = tally.get(status, 0) + 1
        split += int(status == "all-safe" and "shared accesses outside" in text)
        figs["ref-" + fig["own"]] += 1
        figs["athread-safe"] += int(fig["athread"] == "safe")
        figs["proved"] += int(fig["athread"] == "safe" and fig["own"] == "safe" and status == "all-safe")
        figs["unknown"] += int(fig["athread"] == "unknown")
        print("case%d %s: %s" % (seed, status, text))
    modes = ([] if ATOMICITY == "statement" else ["--atomicity " + ATOMICITY]) + ([] if INT == "math" else ["--int " + INT]) + \
        (["athread check --env %s" % os.environ.get("ENV", "system")] if check else []) + (["shapes %g" % SHAPES] if SHAPES else []) + \
        (["--for-all N"] if FORALL else [])
    print("figures: %d programs, reference-safe %d, reference-unsafe %d%s, athread-safe %d, athread proves %d of the %d "
          "the reference proves (%.0f%%), wrong safes %d, unknowns %d"
          % (count, figs["ref-safe"], figs["ref-unsafe"], ", reference-skipped %d" % figs["ref-skip"] if figs["ref-skip"] else "",
             figs["athread-safe"], figs["proved"], figs["ref-safe"], 100.0 * figs["proved"] / max(1, figs["ref-safe"]),
             tally.get("VIOLATION", 0), figs["unknown"]))
    print("theorem: %d programs%s: %s%s" % (count, " (%s)" % ", ".join(modes) if modes else "",
                                          ", ".join("%s %d" % kv for kv in sorted(tally.items())),
                                          "; all-safe with accesses interleaved inside statements %d" % split if split else ""))
    return 0


# ---------------------------------------------------------------- command line

def write_case(directory, name, sy, seed):
    with open(os.path.join(directory, name + ".athread"), "w") as f:
        f.write(spec_text(sy, seed))
    with open(os.path.join(directory, name + ".c"), "w") as f:
        f.write(c_text(sy))


def batch(directory, first, count):
    for seed in range(first, first + count):
        write_case(directory, "case%d" % seed, case_of(seed), seed)
    return 0


def keep(seed, directory):
    """The case as a regression: DIR/seedN (shape-seedN for ShapeGen's), its
    .expect the concrete verdict and trace, and "applies:" lines for the
    modes it was found in (theorem.sh checks it only there)."""
    sy = case_of(seed)
    name = ("shape-seed%d" if sy.shape.startswith("shape") else "seed%d") % seed
    write_case(directory, name, sy, seed)
    a_verdict, _, c_verdict, why, trace, _ = reference(sy)
    with open(os.path.join(directory, name + ".expect"), "w") as f:
        f.write("concrete%s: %s: %s\n" % (" (--atomicity access)" if ATOMICITY == "access" else "", c_verdict, why))
        f.write("\n".join(trace) + "\n")
        f.write("".join("applies: %s=%s\n" % kv for kv in (("ATOMICITY", ATOMICITY), ("INT", INT)) if kv[1] not in ("statement", "math")))
        f.write("applies: FORALL=1\n" if FORALL else "")
    return 0


def stats(first, count):
    tally = {}
    for seed in range(first, first + count):
        sy = case_of(seed)
        a_verdict, _, c_verdict, why, _, _ = reference(sy)
        key = "abstract %s / concrete %s%s%s" % (a_verdict, c_verdict, " inside a step" if "inside the step" in why else "",
                                               " (boundary facts)" if "boundary facts" in sy.shape else "")
        tally[key] = tally.get(key, 0) + 1
    for k, v in sorted(tally.items()):
        print("%5d  %s" % (v, k))
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] in ("--batch", "--judge"):
        return (batch if argv[1] == "--batch" else judge_batch)(argv[2], int(argv[3]), int(argv[4]))
    if len(argv) == 4 and argv[1] == "--keep":
        return keep(int(argv[2]), argv[3])
    if len(argv) == 4 and argv[1] == "--stats":
        return stats(int(argv[2]), int(argv[3]))
    if len(argv) != 2 or not argv[1].isdigit():
        sys.stderr.write(__doc__)
        return 2
    seed = int(argv[1])
    sy = case_of(seed)
    a_verdict, a_why, c_verdict, why, trace, _ = reference(sy)
    print(spec_text(sy, seed))
    print(c_text(sy))
    print("// %s; abstract system: %s %s; concrete program: %s %s" % (sy.shape, a_verdict, a_why, c_verdict, why))
    for line in trace:
        print("//" + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
