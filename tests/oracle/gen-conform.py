#!/usr/bin/env python3
"""tests/oracle/gen-conform.py -- random (spec, C code) pairs, and their conformance verdicts.

  gen-conform.py SEED              prints the case: the spec, the C code, the verdict
                                   (with the violating path when there is one)
  gen-conform.py SEED --verdict    prints "conforms", "violates" or "skip"
  gen-conform.py --batch DIR FIRST COUNT
                                   writes DIR/caseN.athread and DIR/caseN.c for the
                                   COUNT seeds from FIRST and DIR/expected, one line
                                   "caseN conforms|violates|skip" per case
  gen-conform.py --replay CASE.athread CASE.c CASE.json
                                   replays athread conform --json's counterexample in the
                                   oracle's semantics (exit 0: replayed, 1: not, with why)
  gen-conform.py --replay-batch DIR
                                   the same for every DIR/caseN.json (cases of DIR/expected)
                                   that says "does not conform": one line a case,
                                   "caseN replayed: ..." or "caseN NOT-REPLAYED: why"
  gen-conform.py --stats FIRST COUNT
                                   the verdict distribution and the largest state space
  --atomicity statement|access     (with any of the above) what runs as one atomic step:
                                   each statement (the default), or each shared access
                                   (minic.py's doc says how a statement is split)
  --int math|c                     (with any of the above) the code's integers: mathematical
                                   (the default), or C's (athread conform --int c): every
                                   variable has a C type (minic.CSem)

The verdict is an oracle for `athread conform` that shares nothing with its
instrumenter: a direct interpreter of the generated program's atomic steps
(language reference, section 7) that explores every state (program point,
locals, F), F being the set of abstract states the abstract thread may be in
(paper "Abstract Threads", section 3). The shared state is not part of the
explored state: before every step and at every assert check the environment may
set every shared variable to any value of its type. For each such choice g:
  - if some candidate in F goes wrong in g (state assertion and thread
    invariant), the execution is covered: it is not explored further;
  - at assert(e): e false in g -> violation;
  - at a step: it runs from g to g' (assume/await false: the path ends); a
    bounded variable out of its range in g' -> violation; F' = the states q'
    with an edge q -> q' from F whose relation holds for (g, g'), plus F itself
    when g' == g (the idle step); F' empty -> violation.
With --atomicity access, a statement with two or more shared accesses reads
all but its last access in loads before it, each from an environment state of
its own where no candidate goes wrong, and the abstract thread does not move at
them (minic.py, "Atomicity"). An atomic section is one step; an assert inside it must hold on the
intermediate values where it stands (a failing assert there is a violation:
no abstract state is in the middle of a step, so no candidate excuses it). Integers are mathematical, / and % truncate
toward zero, a C bool holds 0/1. Cases whose search passes LIMIT states are
"skip". Python 3 standard library only.

About a third of the cases have a shared array: a spec array bound to a C
array (a global, or an array field of a global struct), read and written at
constant indices and at indices that are not constants (locals, shared
variables, sums, remainders, some guarded by && or ?:); scalars may be fields
of that struct (binds s.x, s.in.x). Evaluating an element whose index lies
outside its array is undefined behaviour in C: a violation where it happens
(a step, or an assert between steps), whatever the candidates; && || and ?:
evaluate their second operands only where C does.
"""
import itertools
import os
import random
import sys
from collections import deque

import minic
from minic import Var, conj, ev, mentions, primes_in, show

LIMIT = 200_000


# ---------------------------------------------------------------- the case

class Edge:
    """Relational (rel) or guarded command (guard, assigns: [(var, expr or None for *)])."""
    def __init__(self, src, dst, rel=None, guard=None, assigns=None):
        self.src, self.dst, self.rel, self.guard, self.assigns = src, dst, rel, guard, assigns
        self.primed = primes_in(rel, set()) if rel is not None else None


class Spec:
    def __init__(self, states):
        self.states = states            # names
        self.inits = [0]
        self.asserts = {}               # state -> expr
        self.invariant = None
        self.edges = []


class Array:
    """A shared array: its elements (indices into case.vars), its name in the
    spec, and the C array it stands for (a global, or a field of a struct)."""
    def __init__(self, name, cells):
        self.name, self.cells = name, tuple(cells)
        self.spec_name, self.c_path = name, name


class Case:
    def __init__(self):
        self.vars = []                  # the shared variables; an array's elements are some of them
        self.arrays = []                # Array
        self.globals_text = None        # the C globals' declarations (lines), None: one per variable
        self.locals = []                # names, in declaration order
        self.body = []                  # statements of t()
        self.helper = None              # statements of helper(), or None
        self.spec = None
        self.c_bool = "_Bool"
        self.ints = "math"              # "c": --int c, every variable has a C type (Var.ctype, local_types)
        self.local_types = {}           # local -> its C type ("int", "unsigned char", "int *")
        self.helper_param = None        # "T *q" when helper() takes a pointer
        self.targets = []               # the shared variables a pointer local may name

    def array_of(self, i):
        """(the Array, the element) that shared variable i is, or (None, None)."""
        for a in self.arrays:
            if i in a.cells:
                return a, a.cells.index(i)
        return None, None

    def spec_names(self):
        """The shared variables' names in the spec: every third scalar is named
        apart from its C global and bound to it (binds), so that conform's
        mapping of C globals to spec variables is under test too; a field of a
        struct is always bound; an element is its array's "name[k]"."""
        out = []
        for i, v in enumerate(self.vars):
            a, k = self.array_of(i)
            out.append("%s[%d]" % (a.spec_name, k) if a else "spec_" + v.name if i % 3 == 1 else v.name)
        return out


# ---------------------------------------------------------------- text

def functions(case):
    """The C functions of the case: helper() when there is one, then t()."""
    helper = [("helper", case.helper, case.helper_param or "void")] if case.helper is not None else []
    return helper + [("t", case.body)]


def c_text(case, lines=None):
    """The C code; lines (a dict), when given, gets id(statement) -> its line."""
    return minic.c_text(case.vars, functions(case), case.c_bool, lines, case.globals_text, case.local_types)


def semantics(case):
    """The integers of the case's C code: minic.MATH, or C's (--int c)."""
    return minic.CSem(case.vars, case.local_types) if case.ints == "c" else minic.MATH


def array_decl(case, a):
    """The spec's declaration of array a: one initial value, a list, or none."""
    cells = [case.vars[i] for i in a.cells]
    inits = [v.init for v in cells]
    init = ""
    if inits[0] is not None:
        vals = [cells[0].value_text(x) for x in inits]
        init = " = " + (vals[0] if len(set(vals)) == 1 else "{%s}" % ", ".join(vals))
    binds = "" if a.spec_name == a.c_path else " binds " + a.c_path
    return "shared %s %s[%d]%s%s;" % (cells[0].spec_type(), a.spec_name, len(cells), init, binds)


def spec_text(case, seed):
    names = case.spec_names()
    sp = case.spec
    out = ["// gen-conform.py %d" % seed]
    for i, (v, name) in enumerate(zip(case.vars, names)):
        a, k = case.array_of(i)
        if a:
            if k == 0:
                out.append(array_decl(case, a))
            continue
        init = "" if v.init is None else " = " + v.value_text(v.init)
        c_name = v.c_path or v.name
        binds = "" if name == c_name else " binds " + c_name
        out.append("shared %s %s%s%s;" % (v.spec_type(), name, init, binds))
    out.append("")
    out.append("thread T implements t {")
    if sp.invariant is not None:
        out.append("  invariant %s;" % show(sp.invariant, names, True))
    for i, s in enumerate(sp.states):
        a = " assert %s" % show(sp.asserts[i], names, True) if i in sp.asserts else ""
        out.append("  %sstate %s%s;" % ("init " if i in sp.inits else "", s, a))
    for e in sp.edges:
        head = "  %s -> %s" % (sp.states[e.src], sp.states[e.dst])
        if e.rel is not None:
            out.append("%s : %s;" % (head, show(e.rel, names, True)))
        else:
            if e.guard is not None or not e.assigns:
                head += " when " + show(e.guard or ("tf", True), names, True)
            if e.assigns:
                head += " do " + ", ".join("%s := %s" % (names[i], "*" if x is None else show(x, names, True))
                                           for i, x in e.assigns)
            out.append(head + ";")
    out.append("}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- the checker

class Violation(Exception):
    pass


def starts(case, unknown):
    """The locals' values at the start (a tuple in case.locals' order): unknown
    for each, but a pointer declared without initializer may be NULL (0), name
    each object it may name (i + 1), or none (-1)."""
    free = {s[1] for s in case.body if s[0] == "decl" and len(s) == 2}
    choices = [[0, -1] + [i + 1 for i in case.targets] if x in free else [unknown] for x in case.locals]
    return list(itertools.product(*choices))


class Checker:
    def __init__(self, case, lines=None, atomicity="statement"):
        self.case = case
        self.vars = case.vars
        self.spec = case.spec
        helpers = {"helper": case.helper} if case.helper is not None else {}
        # lines: id(statement) -> line, for --replay
        self.code = minic.Code(case.vars, case.body, helpers, lines, atomicity=atomicity, sem=semantics(case))
        self.dom_cache = {}
        self.nodes, self.entry, self.node_line = self.code.nodes, self.code.entry, self.code.node_line
        self.gs = list(itertools.product(*[v.domain() for v in self.vars]))
        self.wrong_cache = {}
        self.edge_cache = {}

    # ---- the abstract thread
    def goes_wrong(self, q, g):
        key = (q, g)
        r = self.wrong_cache.get(key)
        if r is None:
            sp = self.spec
            r = (q in sp.asserts and not ev(sp.asserts[q], g)) or \
                (sp.invariant is not None and not ev(sp.invariant, g))
            self.wrong_cache[key] = r
        return r

    def some_wrong(self, F, g):
        return any(self.goes_wrong(q, g) for q in F)

    def dom(self, F):
        """--atomicity access: i -> the values a load of variable i may read, those
        of the environment states where no candidate in F goes wrong."""
        def values(i):
            key = (F, i)
            if key not in self.dom_cache:
                self.dom_cache[key] = sorted({g[i] for g in self.gs if not self.some_wrong(F, g)})
            return self.dom_cache[key]
        return values

    def edge_holds(self, ei, g, g2):
        key = (ei, g, g2)
        r = self.edge_cache.get(key)
        if r is None:
            e = self.spec.edges[ei]
            if e.rel is not None:
                r = all(g2[i] == g[i] for i in range(len(g)) if i not in e.primed) and bool(ev(e.rel, g, None, g2))
            else:
                r = e.guard is None or bool(ev(e.guard, g))
                assigned = dict(e.assigns)
                for i in range(len(g)):
                    if not r:
                        break
                    if i not in assigned:
                        r = g2[i] == g[i]
                    elif assigned[i] is not None:
                        v = ev(assigned[i], g)
                        if self.vars[i].kind == "bool":
                            v = int(bool(v))
                        r = g2[i] == v
            self.edge_cache[key] = r
        return r

    def post(self, F, g, g2):
        out = set(F) if g == g2 else set()
        for ei, e in enumerate(self.spec.edges):
            if e.src in F and e.dst not in out and self.edge_holds(ei, g, g2):
                out.add(e.dst)
        return frozenset(out)

    # ---- concrete steps
    def gtext(self, g):
        return "{" + ", ".join("%s=%d" % (v.name, x) for v, x in zip(self.vars, g)) + "}"

    def ftext(self, F):
        return "{" + ", ".join(self.spec.states[q] for q in sorted(F)) + "}"

    # ---- the search
    def check(self, limit=LIMIT):
        """("conforms" | "violates" | "skip", reason, number of states)."""
        # undeclared locals: never read before their declaration, except a
        # pointer declared without initializer, which may hold anything
        seen = {(self.entry, L0, frozenset(self.spec.inits)): None for L0 in starts(self.case, 0)}
        queue = deque(seen)
        names = self.case.locals
        while queue:
            state = queue.popleft()
            pc, Lt, F = state
            node = self.nodes[pc]
            if node[0] == "exit":
                continue
            L = dict(zip(names, Lt))
            succ = []
            try:
                for g in self.gs:
                    if self.some_wrong(F, g):
                        continue
                    why = "at node %d %s in %s, locals %s, F %s: " % (pc, node[0], self.gtext(g), L, self.ftext(F))
                    if node[0] == "assert":
                        if not self.holds(node[1], g, L, F, why):
                            raise Violation(why + "assert fails, no candidate goes wrong")
                        succ.append((node[2], L, F))
                        continue
                    for g2, L2, nxt in self.step(node, g, L, F):
                        bad = [v.name for v, x in zip(self.vars, g2) if not v.in_range(x)]
                        if bad:
                            raise Violation(why + "step leaves the range of %s: %s" % (bad, self.gtext(g2)))
                        F2 = self.post(F, g, g2)
                        if not F2:
                            raise Violation(why + "step to %s not simulated" % self.gtext(g2))
                        succ.append((nxt, L2, F2))
            except Violation as v:
                return "violates", str(v) + "\n" + self.path(seen, state), len(seen)
            for pc2, L2, F2 in succ:
                s2 = (pc2, tuple(L2[x] for x in names), F2)
                if s2 not in seen:
                    seen[s2] = state
                    if len(seen) > limit:
                        return "skip", "more than %d states" % limit, len(seen)
                    queue.append(s2)
        return "conforms", "", len(seen)

    def oob_text(self, x):
        """The text of a CFault: an index outside its array, NULL dereferenced, an operation's fault."""
        if isinstance(x, minic.NullDeref):
            return "the code dereferences %s, which is NULL" % x.pointer
        if isinstance(x, minic.ArithFault):
            return "%s: %s" % (x.kind, show(x.e, [v.c_path or v.name for v in self.vars], False))
        a = next(a for a in self.case.arrays if a.cells == x.cells)
        return "the code indexes %s[%d], outside %s[0..%d]" % (a.c_path, x.index, a.c_path, len(a.cells) - 1)

    def holds(self, c, g, L, F, why):
        """Does an assert's condition hold between steps (on every run of its loads
        under --atomicity access)? An index outside its array is a violation."""
        try:
            return self.code.holds_all(c, g, L, self.dom(F))
        except minic.CFault as x:
            raise Violation(why + self.oob_text(x))

    def step(self, node, g, L, F):
        """[(g', L', next node)] of the step at node from (g, L); an assert inside
        it that fails on the values where it stands is a violation, and so is
        an index outside its array."""
        try:
            return self.code.step(node, g, L, self.dom(F))
        except minic.AssertFails as x:
            raise Violation("assert(%s) fails inside an atomic section in %s, locals %s, F %s"
                            % (show(x.stmt[1], [v.name for v in self.vars], False), self.gtext(x.g), x.L, self.ftext(F)))
        except minic.CFault as x:
            raise Violation("%s in %s, locals %s, F %s" % (self.oob_text(x), self.gtext(g), L, self.ftext(F)))

    def path(self, seen, state):
        trail = []
        while state is not None:
            trail.append("  node %d locals %s F %s" % (state[0], state[1], self.ftext(state[2])))
            state = seen[state]
        return "path (last first):\n" + "\n".join(trail)



# ---------------------------------------------------------------- replay
# --replay / --replay-batch: athread's counterexample (conform --json), replayed
# step by step in the checker's own semantics. The state is F (deterministic:
# it depends on F, g and g' only) and a set of configurations (node, locals),
# locals None while unknown (before their declaration).

class NoReplay(Exception):
    pass


UB_KINDS = ("index", "null", "overflow", "division by zero", "shift", "negative shift")  # undefined behaviour: no candidate excuses it


class Replayer:
    def __init__(self, case, atomicity="statement"):
        self.case = case
        lines = {}
        c_text(case, lines)
        self.ck = Checker(case, lines, atomicity)
        self.names = case.spec_names()
        self.locals = case.locals
        self.pointers = {x for x, t in case.local_types.items() if t.endswith("*")}

    def fset(self, names, what):
        idx = {n: i for i, n in enumerate(self.case.spec.states)}
        try:
            return frozenset(idx[n] for n in names)
        except KeyError as e:
            raise NoReplay("%s: unknown abstract state %s" % (what, e))

    def shared(self, d, what):
        if not isinstance(d, dict) or set(d) != set(self.names):
            raise NoReplay("%s: expected the values of %s, got %s" % (what, self.names, d))
        return tuple(int(d[n]) for n in self.names)

    def run_one(self, s, g, L, F):
        """One uninterrupted run of statement s (split at its accesses under
        --atomicity access): ([(g', L')], the failures (AssertFails,
        OutOfBounds) that ended some of its paths)."""
        code, fails = self.ck.code, []
        p = code.plan(s)
        if p is not None and p[1] is not None:
            return code.split_outcomes(s, g, L, self.ck.dom(F), p[1], fails), fails
        outs = code.run([s], g, L, fails)
        return outs, fails

    def matches(self, x, failure):
        """Is CFault x the failure athread reports (an index outside its array, a
        NULL dereference, an operation's fault of the same kind)?"""
        kind = failure.get("kind")
        if isinstance(x, minic.NullDeref):
            return kind == "null" and failure.get("pointer") in (None, x.pointer)
        if isinstance(x, minic.ArithFault):
            return kind == x.kind
        a = next(a for a in self.case.arrays if a.cells == x.cells)
        return kind == "index" and \
            (failure.get("array"), failure.get("index"), failure.get("length")) == (a.c_path, x.index, len(a.cells))

    def passes(self, c, g, L, F):
        """Does an assert's condition hold between steps on some run (its indices within their arrays)?"""
        try:
            return True in self.ck.code.truths(c, g, L, self.ck.dom(F))
        except minic.CFault:
            return False

    def step_outcomes(self, node, g, L, F, rep_after, rep_locals, cond):
        """[(g', L', next node)] and the failures inside the step (AssertFails, OutOfBounds)."""
        k = node[0]
        if k == "cond":
            c = node[1]
            fails = []
            try:
                vs = {True, False} if c is None else self.ck.code.truths(c, g, L, self.ck.dom(F), fails)
            except minic.CFault as x:
                return [], [x]
            outs = [(g, L, nxt) for b, nxt in ((True, node[2]), (False, node[3]))
                    if (cond is None or cond == b) and b in vs]
            return outs, fails
        if cond is not None:
            return [], []
        if k == "havoc_local":
            x = node[1]
            return [(g, dict(L, **{x: rep_locals.get(x, L[x])}), node[2])], []
        if k == "assume_range":
            x, lo, hi = node[1], node[2], node[3]
            vals = range(lo, hi + 1) if L[x] is None else [L[x]] if lo <= L[x] <= hi else []
            return [(g, dict(L, **{x: v}), node[4]) for v in vals], []
        if k == "step":
            s = node[1]
            if s[0] == "nondet_sh":
                i = s[1]
                v = rep_after[i] if rep_after is not None else 0
                if self.case.vars[i].kind == "bool" and v not in (0, 1):
                    return [], []
                return [(g[:i] + (v,) + g[i + 1:], L, node[2])], []
            outs, fails = self.run_one(s, g, L, F)
            return [(g2, L2, node[2]) for g2, L2 in outs], fails
        return [], []

    def skip_asserts(self, configs, F):
        """configs plus those reached by passing unlisted asserts (some environment
        where no candidate goes wrong and the assert holds)."""
        ck, seen, todo = self.ck, set(configs), list(configs)
        while todo:
            pc, Lt = todo.pop()
            node = ck.nodes[pc]
            if node[0] != "assert":
                continue
            L = dict(zip(self.locals, Lt))
            try:
                ok = any(not ck.some_wrong(F, g) and self.passes(node[1], g, L, F) for g in ck.gs)
            except TypeError:
                ok = False
            if ok and (node[2], Lt) not in seen:
                seen.add((node[2], Lt))
                todo.append((node[2], Lt))
        return seen

    def replay(self, cx):
        ck, sp = self.ck, self.case.spec
        steps, failure = cx.get("steps", []), cx.get("failure", {})
        fkind = failure.get("kind")
        if fkind not in ("not simulated", "range", "assertion") + UB_KINDS:
            raise NoReplay("failure kind %r is not one of the oracle's" % fkind)
        if failure.get("step") != len(steps) or not steps:
            raise NoReplay("failure step %s, but %d steps" % (failure.get("step"), len(steps)))
        F = self.fset(cx.get("initial_candidates", []), "initial_candidates")
        if F != frozenset(sp.inits):
            raise NoReplay("initial candidates %s, the spec's are %s" % (ck.ftext(F), ck.ftext(frozenset(sp.inits))))
        configs = {(ck.entry, L0) for L0 in starts(self.case, None)}
        for k, st in enumerate(steps, 1):
            last = k == len(steps)
            where = "step %d (line %s, %s)" % (k, st.get("line"), st.get("statement"))
            kind = st.get("kind")
            if kind == "check" and not last:
                raise NoReplay(where + ": a check before the last step")
            g = self.shared(st.get("environment"), where + " environment")
            if "candidates_before" in st and self.fset(st["candidates_before"], where) != F:
                raise NoReplay(where + ": candidates_before %s, the oracle's F is %s" % (st["candidates_before"], ck.ftext(F)))
            wrong = [sp.states[q] for q in F if ck.goes_wrong(q, g)]
            if wrong:
                raise NoReplay(where + ": candidate(s) %s go wrong in the environment %s: the path is covered" % (wrong, ck.gtext(g)))
            here = [(pc, Lt) for pc, Lt in self.skip_asserts(configs, F) if ck.node_line.get(pc) == st.get("line")]
            if not here:
                raise NoReplay(where + ": no statement at that line can run next")
            if kind == "check":
                if fkind not in ("assertion",) + UB_KINDS:
                    raise NoReplay(where + ": a check, but failure %r" % fkind)
                for pc, Lt in here:
                    node = ck.nodes[pc]
                    L = dict(zip(self.locals, Lt))
                    if node[0] != "assert":
                        continue
                    fails = []
                    try:
                        holds = ck.code.holds_all(node[1], g, L, ck.dom(F), fails)
                        if fkind == "assertion" and not holds:
                            return "assert at line %s fails in %s, locals %s, F %s" % (st.get("line"), ck.gtext(g), L, ck.ftext(F))
                    except TypeError:
                        pass
                    hit = [x for x in fails if self.matches(x, failure)]
                    if hit:
                        return "the assert at line %s: %s in %s, locals %s" % (st.get("line"), ck.oob_text(hit[0]), ck.gtext(g), L)
                raise NoReplay(where + ": the assert holds, within its arrays, in every configuration %s"
                               % [dict(zip(self.locals, Lt)) for _, Lt in here])
            if kind != "step":
                raise NoReplay(where + ": unknown kind %r" % kind)
            g2 = self.shared(st["after"], where + " after") if "after" in st else None
            if g2 is None and not (last and fkind in ("assertion",) + UB_KINDS):
                raise NoReplay(where + ": no after values")
            rep_locals = {x: int(v) for x, v in st.get("locals", {}).items() if x in self.locals and x not in self.pointers}
            cond = st.get("condition")
            nxt_configs, bad_somewhere, index_fails = set(), False, []
            for pc, Lt in here:
                node = ck.nodes[pc]
                L = dict(zip(self.locals, Lt))
                try:
                    outs, fails = self.step_outcomes(node, g, L, F, g2, rep_locals, cond)
                except TypeError:
                    continue  # reads a local unknown in this configuration
                bad_somewhere = bad_somewhere or any(isinstance(x, minic.AssertFails) for x in fails)
                index_fails += [x for x in fails if isinstance(x, minic.CFault)]
                for g3, L3, nxt in outs:
                    if g2 is not None and g3 != g2:
                        continue
                    ok = True
                    for x in self.locals:
                        if x in self.pointers:
                            continue  # athread numbers the objects its own way
                        if x in rep_locals:
                            if L3[x] is not None and L3[x] != rep_locals[x]:
                                ok = False
                            elif L3[x] is None:
                                L3 = dict(L3, **{x: rep_locals[x]})
                        elif L[x] is not None and L3[x] != L[x]:
                            ok = False  # changed, yet not listed as changed
                    if ok:
                        nxt_configs.add((nxt, tuple(L3[x] for x in self.locals)))
            if last and fkind == "assertion":
                if bad_somewhere:
                    return "an assert inside the step at line %s fails" % st.get("line")
                raise NoReplay(where + ": no assert fails inside this step")
            if last and fkind in UB_KINDS:
                hit = [x for x in index_fails if self.matches(x, failure)]
                if hit:
                    return "the step at line %s: %s in %s" % (st.get("line"), ck.oob_text(hit[0]), ck.gtext(g))
                raise NoReplay(where + ": no index outside its array like %s here (the oracle's: %s)"
                               % (failure.get("message"), [ck.oob_text(x) for x in index_fails]))
            if not nxt_configs:
                raise NoReplay(where + ": no run of the statement from environment %s (locals %s) gives after %s, locals %s"
                               % (ck.gtext(g), [dict(zip(self.locals, Lt)) for _, Lt in here], ck.gtext(g2), st.get("locals")))
            out = [n for n, v, x in zip(self.names, self.case.vars, g2) if not v.in_range(x)]
            if last and fkind == "range":
                if failure.get("variable") not in out:
                    raise NoReplay(where + ": variable %s is in range after the step (%s)" % (failure.get("variable"), ck.gtext(g2)))
                return "step at line %s leaves the range of %s: %s" % (st.get("line"), out, ck.gtext(g2))
            if out:
                raise NoReplay(where + ": the step already leaves the range of %s (a violation athread did not stop at)" % out)
            F2 = ck.post(F, g, g2)
            if last and fkind == "not simulated":
                if F2:
                    raise NoReplay(where + ": the step is simulated: F after it is %s" % ck.ftext(F2))
                return "step at line %s from %s to %s not simulated from %s" % (st.get("line"), ck.gtext(g), ck.gtext(g2), ck.ftext(F))
            if not F2:
                raise NoReplay(where + ": not simulated already (a violation athread did not stop at)")
            rep_F = self.fset(st.get("candidates", []), where + " candidates")
            if rep_F != F2:
                raise NoReplay(where + ": candidates %s, the oracle's F after the step is %s" % (st.get("candidates"), ck.ftext(F2)))
            if last:
                raise NoReplay(where + ": the last step, and no failure (%s) happens" % fkind)
            F, configs = F2, nxt_configs
        raise NoReplay("no steps")


def replay_json(case, doc, atomicity="statement"):
    """(True, what) or (False, why) for athread's conform --json document doc."""
    threads = doc.get("threads") if isinstance(doc, dict) else None
    if not threads or "counterexample" not in threads[0]:
        return False, "no counterexample in the JSON"
    said = doc.get("assumptions", {}).get("atomicity")
    if said != atomicity:
        return False, "the JSON's assumptions say atomicity %r, the oracle's is %r" % (said, atomicity)
    ints = {"c": "C", "math": "mathematical"}[case.ints]
    if doc.get("assumptions", {}).get("integers") != ints:
        return False, "the JSON's assumptions say integers %r, the oracle's are %r" % (doc.get("assumptions", {}).get("integers"), ints)
    try:
        return True, Replayer(case, atomicity).replay(threads[0]["counterexample"])
    except NoReplay as e:
        return False, str(e)


def replay_batch(directory, atomicity="statement", ints="math"):
    """Replays caseN.json for every case of DIR/expected whose JSON says "does
    not conform"; prints "caseN replayed: ..." or "caseN NOT REPLAYED: ..."."""
    import json
    with open(os.path.join(directory, "expected")) as f:
        names = [line.split()[0] for line in f if line.strip()]
    for name in names:
        try:
            with open(os.path.join(directory, name + ".json")) as f:
                doc = json.load(f)
        except (OSError, ValueError):
            continue
        ths = doc.get("threads") if isinstance(doc, dict) else None
        if not ths or ths[0].get("verdict") != "does not conform":
            continue
        try:
            ok, why = replay_json(case_of(int(name[4:]), ints), doc, atomicity)
        except Exception as e:  # a malformed document, or a bug here: still one line
            ok, why = False, "replay crashed: %s: %s" % (type(e).__name__, e)
        print("%s %s: %s" % (name, "replayed" if ok else "NOT-REPLAYED", why.replace("\n", " ")))
    return 0

# ---------------------------------------------------------------- generation

BOOL_NAMES = ["flag", "ready", "busy", "ok"]
INT_NAMES = ["g", "n", "cnt", "lock"]
ARRAY_NAMES = ["slot", "req", "want"]
STATE_NAMES = ["Idle", "Busy", "Done", "Wait", "Crit", "Go"]


def in_bounds(index, n):
    return ("bin", "&&", ("bin", ">=", index, ("num", 0)), ("bin", "<", index, ("num", n)))


C_INT_TYPES = ["unsigned char", "signed char", "short", "unsigned short", "int", "unsigned"]
# constants near the ends of int's range and unsigned ones: overflow and wrap-around with small operands
BIG = [("num", 2147483647), ("num", 1073741824), ("num", 255), ("num", 65535), ("num", 4294967295, "u"), ("num", 1, "u")]


def spec_safe(e):
    """Can the spec say e (no locals, no element at an index that is not
    constant, nothing only C has: ~, casts, *p, & | ^ << >>, a divisor that is
    not a constant, an unsigned constant)?"""
    return not any(mentions(e, k) for k in ("loc", "elem", "ite", "deref", "bnot", "cast")) and c_free(e)


def c_free(e):
    if e[0] == "num":
        return len(e) == 2
    if e[0] == "bin" and (e[1] in minic.BITWISE or e[1] in ("/", "%") and e[3][0] != "num"):
        return False
    return all(c_free(x) for x in e[1:] if isinstance(x, tuple) and x and isinstance(x[0], str))


class Gen(minic.ExprGen):
    def __init__(self, seed, ints="math"):
        self.seed = seed
        self.case = Case()
        self.case.ints = ints
        # C types and whether the code has a pointer: streams of their own, so
        # that the other cases are the ones of before
        self.c_r = random.Random(seed * 104729 + 2)
        self.pointer_case = random.Random(seed * 15485863 + 3).random() < 0.3
        self.deref_local = None  # the pointer local that expressions may dereference: "p" (t), "q" (helper)
        minic.ExprGen.__init__(self, random.Random(seed), self.case.vars)
        # the C layout (struct fields, array or not) comes from a stream of its
        # own, so that the cases without an array are the ones of before
        self.layout_r = random.Random(seed * 7919 + 1)
        self.in_code = False  # element reads at indices that are not constants: only in the C code

    # ---- shared variables and locals
    def declare(self):
        if self.layout_r.random() < 1 / 3:
            self.declare_array()
        else:
            self.declare_scalars(self.r.randint(1, 3))
        if self.case.ints == "c":
            self.c_types()
        self.lay_out()

    def c_types(self):
        """--int c: each variable's C type (an array's elements share one) and,
        for a signed type, a range that may start below 0."""
        c, cr = self.case, self.c_r
        groups = [[i] for i, v in enumerate(c.vars) if v.kind == "int" and c.array_of(i)[0] is None]
        groups += [list(a.cells) for a in c.arrays if c.vars[a.cells[0]].kind == "int"]
        for v in c.vars:
            v.ctype = c.c_bool if v.kind == "bool" else None
        for cells in groups:
            t = cr.choice(C_INT_TYPES)
            lo = cr.choice([0, 0, -1, -2]) if minic.CTYPES[t][1] else 0
            for i in cells:
                v = c.vars[i]
                v.ctype, v.lo = t, lo
                if v.init is not None and lo < 0 and cr.random() < 0.3:
                    v.init = lo

    def holds_in(self, e, g):
        if self.case.ints != "c":
            return ev(e, g)
        try:
            return minic.CSem(self.case.vars, {}).ev(e, g)
        except minic.CFault:
            return False

    def declare_array(self):
        """At most one scalar, then an array of 2 or 3 elements (at most 64 shared states)."""
        c = self.case
        self.declare_scalars(self.r.randint(0, 1))
        kind = "bool" if self.chance(0.3) else "int"
        n = self.r.choice([2, 3])
        hi = self.r.choice([1, 2, 3] if n == 2 else [1, 2])
        name = self.r.choice(ARRAY_NAMES)
        first = len(c.vars)
        for k in range(n):
            c.vars.append(Var("%s[%d]" % (name, k), kind, hi))
        a = Array(name, range(first, first + n))
        c.arrays.append(a)
        if self.chance(0.5):
            same = self.chance(0.5)
            value = self.r.choice(c.vars[first].domain())
            for i in a.cells:
                c.vars[i].init = value if same else self.r.choice(c.vars[i].domain())

    def lay_out(self):
        """Where the C code keeps each shared variable: a global, or a field of
        the global struct s (in its nested struct s.in too); an array is a
        global or an array field of s. Unused fields, a pointer among them,
        sit beside them."""
        c, lr = self.case, self.layout_r
        scalars = [i for i in range(len(c.vars)) if c.array_of(i)[0] is None]
        fields, inner, plain = [], [], []
        use_struct = lr.random() < 0.5
        for i in scalars:
            v = c.vars[i]
            where = lr.random() if use_struct else 1
            (fields if where < 0.4 else inner if where < 0.6 else plain).append(v.kind + " " + v.name)
            v.c_path = "s." + v.name if where < 0.4 else "s.in." + v.name if where < 0.6 else None
        for a in c.arrays:
            v0 = c.vars[a.cells[0]]
            decl = "%s %s[%d]" % (v0.kind, a.name, len(a.cells))
            if use_struct and lr.random() < 0.6:
                a.c_path = "s." + a.name
                fields.append(decl)
            else:
                plain.append(decl)
                a.spec_name = a.name if lr.random() < 0.5 else "spec_" + a.name
            for k, i in enumerate(a.cells):
                c.vars[i].c_path = "%s[%d]" % (a.c_path, k)
        if use_struct or c.arrays:
            c.globals_text = self.globals_text(plain, fields, inner, use_struct)

    def globals_text(self, plain, fields, inner, use_struct):
        """A function giving the C globals' lines, initialized with the spec's
        initial values when the text is written (they may change until then);
        the layout's random choices are made now."""
        lr = self.layout_r
        extra = ["  int unused;", "  int *next;"][:lr.randint(0, 2)] if use_struct else []
        typedef = use_struct and lr.random() < 0.5
        return lambda: self.globals_lines(plain, fields, inner, use_struct, extra, typedef)

    def initial_text(self, d):
        """The initializer of declaration d ("int x", "int a[3]")."""
        c = self.case
        name = d.split(" ", 1)[1].split("[")[0]
        for a in c.arrays:
            if a.name == name:
                return "{%s}" % ", ".join(c.vars[i].c_initial() for i in a.cells)
        return [v for i, v in enumerate(c.vars) if v.name == name and c.array_of(i)[0] is None][0].c_initial()

    def globals_lines(self, plain, fields, inner, use_struct, extra, typedef):
        c = self.case

        def decl(d, init=True):
            kind, rest = d.split(" ", 1)
            value = " = " + self.initial_text(d) if init else ""
            return "%s %s%s;" % (self.c_type_of(rest.split("[")[0]) or ("int" if kind == "int" else c.c_bool), rest, value)

        out = [decl(d) for d in plain]
        if not use_struct:
            return out
        body = ["  " + decl(d, False) for d in fields] + extra
        if inner:
            body += ["  struct {"] + ["    " + decl(d, False) for d in inner] + ["  } in;"]
        names = lambda d: d.split(" ", 1)[1].split("[")[0]
        designators = [".%s = %s" % (names(d), self.initial_text(d)) for d in fields]
        designators += [".in.%s = %s" % (names(d), self.initial_text(d)) for d in inner]
        init = "{%s}" % ", ".join(designators) if designators else "{0}"
        if typedef:
            return out + ["typedef struct {"] + body + ["} state_t;", "state_t s = %s;" % init]
        return out + ["struct state {"] + body + ["} s = %s;" % init]

    def c_type_of(self, name):
        """The C type of the global (or field) name under --int c, else None."""
        c = self.case
        for i, v in enumerate(c.vars):
            a = c.array_of(i)[0]
            if (a.name if a else v.name) == name:
                return v.ctype
        return None

    def declare_scalars(self, n):
        c = self.case
        bools, ints = self.r.sample(BOOL_NAMES, 3), self.r.sample(INT_NAMES, 3)
        for i in range(n):
            if self.chance(0.4):
                v = Var(bools.pop(), "bool")
                if self.chance(0.5):
                    v.init = self.chance(0.5)
            else:
                v = Var(ints.pop(), "int", self.r.choice([1, 2, 2, 3]))
                if self.chance(0.5):
                    v.init = self.r.randint(v.lo, v.hi)
            c.vars.append(v)
        c.c_bool = self.r.choice(["_Bool", "bool"])

    # ---- elements
    def arrays_of(self, kind):
        return [a for a in self.case.arrays if self.vars[a.cells[0]].kind == kind]

    def index_expr(self, a, locs):
        """An index into a: a constant within it, or a local, a shared int, a
        remainder or a sum, which may lie outside it."""
        bases = [("loc", x) for x in locs] + [("sh", i) for i in self.ivars()]
        r = self.r.random()
        if not bases or r < 0.2:
            return ("num", self.r.randrange(len(a.cells)))
        b = self.r.choice(bases)
        if r < 0.6:
            return b
        if r < 0.8:
            return ("bin", "%", b, ("num", len(a.cells)))
        return ("bin", self.r.choice(["+", "-"]), b, ("num", 1))

    def elem_read(self, a, locs, default):
        """An element of a; at an index that is not constant, sometimes guarded (&& or ?:)."""
        index = self.index_expr(a, locs)
        e = ("elem", a.cells, index)
        if index[0] == "num" or self.chance(0.6):
            return e
        guard = in_bounds(index, len(a.cells))
        if default[0] == "tf" and self.chance(0.5):
            return ("bin", "&&", guard, e)
        return ("ite", guard, e, default)

    def int_expr(self, locs, depth=1):
        arrays = self.arrays_of("int") if self.in_code else []
        if arrays and self.chance(0.2):
            return self.elem_read(self.r.choice(arrays), locs, ("num", 0))
        if self.in_code and self.deref_local and self.chance(0.2):
            return ("deref", ("loc", self.deref_local))
        if self.in_code and self.case.ints == "c" and depth > 0 and self.chance(0.3):
            return self.c_expr(locs, depth)
        return minic.ExprGen.int_expr(self, locs, depth)

    def c_expr(self, locs, depth):
        """An operation that only C's integers have or that may go wrong in
        them: & | ^ << >> ~, a conversion, a constant near int's ends or an
        unsigned one, a divisor that may be 0."""
        r, a = self.r.random(), self.int_expr(locs, depth - 1)
        if r < 0.25:
            return ("bin", self.r.choice(["&", "|", "^"]), a, self.int_expr(locs, depth - 1))
        if r < 0.4:
            amount = ("num", self.r.choice([1, 2, 30, 31, 32])) if self.chance(0.5) else self.int_expr(locs, 0)
            return ("bin", self.r.choice(["<<", ">>"]), a, amount)
        if r < 0.5:
            return ("bnot", a)
        if r < 0.65:
            return ("cast", self.r.choice(C_INT_TYPES), a)
        if r < 0.85:
            return ("bin", self.r.choice(["+", "-", "*"]), a, self.r.choice(BIG))
        d = self.int_expr(locs, 0)
        return ("bin", self.r.choice(["/", "%"]), a, d if d[0] != "num" else ("num", 3))  # a literal 0 is an error

    def bool_expr(self, locs, depth=1):
        arrays = self.arrays_of("bool") if self.in_code else []
        if arrays and self.chance(0.2):
            return self.elem_read(self.r.choice(arrays), locs, ("tf", False))
        if self.in_code and self.deref_local and self.chance(0.1):
            other = ("null",) if self.chance(0.6) else ("addr", self.r.choice(self.case.targets))
            return ("bin", self.r.choice(["==", "!="]), ("loc", self.deref_local), other)
        return minic.ExprGen.bool_expr(self, locs, depth)

    # ---- pointers
    def pointer_expr(self, locs):
        """&x, NULL, c ? &x : &y, or &a[i] (i checked as an index) for a pointer local."""
        c, r = self.case, self.r.random()
        if r < 0.45:
            return ("addr", self.r.choice(c.targets))
        if r < 0.6:
            return ("null",)
        arrays = [a for a in c.arrays if a.cells[0] in c.targets]
        if r < 0.8 or not arrays:
            return ("ite", self.bool_expr(locs, 0), ("addr", self.r.choice(c.targets)), ("addr", self.r.choice(c.targets)))
        a = self.r.choice(arrays)
        return ("addr_elem", a.cells, self.index_expr(a, locs))

    def write_deref(self, locs):
        """*p = v (often *p + 1), sometimes only where p is not NULL."""
        target, r = ("deref", ("loc", self.deref_local)), self.r.random()
        if r < 0.35:
            value = ("bin", self.r.choice(["+", "-"]), target, ("num", 1))
        elif r < 0.6:
            value = ("num", self.r.randint(0, 2))
        else:
            value = self.int_expr(locs, 1)
        s = ("set", target, value)
        if self.chance(0.3):
            return ("if", ("bin", "!=", ("loc", self.deref_local), ("null",)), [s], [])
        return s

    def pointer_targets(self):
        """The shared ints of one C type (any int under --int math) that a pointer may name."""
        c = self.case
        ints = [i for i, v in enumerate(c.vars) if v.kind == "int"]
        if not ints:
            return []
        t = c.vars[self.r.choice(ints)].ctype
        return [i for i in ints if c.vars[i].ctype == t]

    def set_elem(self, rs):
        """a[i] = v (v often a[i] + 1: a[i]++, a[i] += 2), sometimes only where i is within a."""
        a = self.r.choice(self.case.arrays)
        index = self.index_expr(a, rs)
        target = ("elem", a.cells, index)
        v, r = self.vars[a.cells[0]], self.r.random()
        if v.kind == "bool":
            value = ("not", target) if r < 0.3 else self.bool_expr(rs, 1)
        elif r < 0.3:
            value = ("bin", self.r.choice(["+", "-"]), target, ("num", self.r.choice([1, 1, 2])))
        elif r < 0.6:
            value = ("num", self.r.randint(v.lo, v.hi))
        else:
            value = ("bin", "%", self.int_expr(rs, 1), ("num", v.hi + 1))
        if index[0] != "num" and self.chance(0.3):
            return ("if", in_bounds(index, len(a.cells)), [("set", target, value)], [])
        return ("set", target, value)

    # ---- statements
    def stmts(self, budget, depth, locs, ctx):
        """A list of about budget statements. ctx: 'top', 'loop', 'atomic', 'helper'."""
        out = []
        while budget[0] > 0:
            budget[0] -= 1
            s = self.stmt(budget, depth, locs, ctx)
            out.extend(s if isinstance(s, list) else [s])
            if ctx != "top" and self.chance(0.5):
                break
        return out

    def stmt(self, budget, depth, locs, ctx):
        choices = [("set_sh", 30), ("assume", 5), ("await", 5), ("assert", 9)]
        if locs and ctx != "helper":
            choices += [("set_loc", 10), ("nondet_mod", 3)]
            if ctx != "atomic":
                choices += [("nondet_range", 3)]
        if depth > 0:
            choices += [("if", 12)]
            if ctx not in ("atomic", "helper"):
                choices += [("while_star", 4), ("atomic", 9)]
                choices += [("checked_atomic", 9)]
                if self.ivars():
                    choices += [("detour", 3)]
                if self.case.counters_left:
                    choices += [("loop", 6)]
                if self.case.helper is not None:
                    choices += [("call", 5)]
        if ctx != "atomic":
            choices += [("nondet_sh", 3)]
        if ctx in ("top", "loop") and depth < 2:
            choices += [("return", 1)]
        if self.case.arrays:
            choices += [("set_elem", 14)]
        if self.deref_local:
            choices += [("write_deref", 12)] + ([("set_ptr", 5)] if ctx != "helper" else [])
        total = sum(w for _, w in choices)
        x = self.r.uniform(0, total)
        for kind, w in choices:
            x -= w
            if x <= 0:
                break
        rs = locs if ctx != "helper" else []
        if kind == "set_sh":
            i = self.r.randrange(len(self.case.vars))
            return ("set", ("sh", i), self.shared_value(i, rs))
        if kind == "set_loc":
            return ("set", ("loc", self.r.choice([x for x in locs if x not in self.case.counters])),
                    self.local_value(rs))
        if kind == "nondet_mod":
            return ("nondet_mod", self.r.choice([x for x in locs if x not in self.case.counters]))
        if kind == "nondet_range":
            lo = self.r.randint(-1, 1)
            x = self.r.choice([x for x in locs if x not in self.case.counters])
            if not minic.CTYPES.get(self.case.local_types.get(x, "int"), (32, True))[1]:
                lo = max(lo, 0)  # x >= -1 converts -1 to unsigned: no value would pass
            return ("nondet_range", x, lo, lo + self.r.randint(0, 3))
        if kind == "nondet_sh":
            return ("nondet_sh", self.r.randrange(len(self.case.vars)))
        if kind in ("assume", "await"):
            return (kind, self.likely(lambda: self.bool_expr(rs, 1), 0.3))
        if kind == "assert":
            if rs and self.chance(0.4):
                # about locals only: often true
                x = self.r.choice(rs)
                return ("assert", self.r.choice([("bin", ">=", ("loc", x), ("num", -3)), ("bin", "<", ("loc", x), ("num", 4)),
                                                 ("bin", "!=", ("loc", x), ("num", self.r.randint(0, 3)))]))
            return ("assert", self.bool_expr(rs, 1))
        if kind == "if":
            c = None if ctx != "helper" and self.chance(0.25) else self.bool_expr(rs, 1)
            then = self.stmts(budget, depth - 1, locs, ctx)
            els = self.stmts(budget, depth - 1, locs, ctx) if self.chance(0.5) else []
            return ("if", c, then, els)
        if kind == "while_star":
            return ("while", None, self.stmts(budget, depth - 1, locs, "loop"))
        if kind == "loop":
            i = self.case.counters_left.pop()
            self.case.counters.add(i)
            self.case.locals.append(i)
            self.case.local_types[i] = "int"
            self.case.decls.append(("decl", i, ("num", 0)))
            n = self.r.choice([1, 2, 2, 3])
            body = self.stmts(budget, depth - 1, locs, "loop")
            return ("while", ("bin", "<", ("loc", i), ("num", n)), body + [("set", ("loc", i), ("bin", "+", ("loc", i), ("num", 1)))])
        if kind == "atomic":
            body = self.stmts([self.r.randint(1, 3)], 1, locs, "atomic")
            return ("atomic", body)
        if kind == "detour":
            # out of range inside an atomic section and back: only the step's end counts
            i = self.r.choice(self.ivars())
            k = self.r.choice([1, 2, 3])
            body = [("set", ("sh", i), ("bin", "+", ("sh", i), ("num", k)))]
            if self.chance(0.5):
                body.append(("assert", self.bool_expr(rs, 1)))
            body.append(("set", ("sh", i), ("bin", "-", ("sh", i), ("num", k if self.chance(0.8) else k - 1))))
            return ("atomic", body)
        if kind == "checked_atomic":
            return self.checked_atomic(rs)
        if kind == "call":
            return self.call(rs)
        if kind == "return":
            return ("return",)
        if kind == "set_elem":
            return self.set_elem(rs)
        if kind == "write_deref":
            return self.write_deref(rs)
        if kind == "set_ptr":
            return ("set", ("loc", "p"), self.pointer_expr(rs))
        raise ValueError(kind)

    def call(self, locs):
        """helper(), or helper(&x) (helper(p), helper(NULL)) when it takes a pointer."""
        if not self.case.helper_param:
            return ("call", "helper")
        arg = ("loc", "p") if self.chance(0.3) else self.pointer_expr(locs)
        return ("call", "helper", "q", arg)

    def checked_atomic(self, rs):
        """An atomic section that writes a shared variable and asserts about the
        intermediate values before it writes again, often between two awaits
        (a list of statements): the assert must hold where it stands."""
        i = self.r.randrange(len(self.case.vars))
        body = [("set", ("sh", i), self.shared_value(i, rs))]
        if self.chance(0.3):
            body.insert(0, ("await", self.likely(lambda: self.bool_expr(rs, 1), 0.5)))
        v = self.case.vars[i]
        about_i = ("sh", i) if v.kind == "bool" else ("bin", self.r.choice(["==", "<=", "!="]), ("sh", i), ("num", self.r.randint(v.lo, v.hi)))
        body.append(("assert", about_i if self.chance(0.6) else self.bool_expr(rs, 1)))
        if self.chance(0.7):
            body.append(("set", ("sh", i), self.shared_value(i, rs)))
        out = [("atomic", body)]
        if self.chance(0.5):
            out.insert(0, ("await", self.likely(lambda: self.bool_expr(rs, 1), 0.5)))
        if self.chance(0.5):
            out.append(("await", self.likely(lambda: self.bool_expr(rs, 1), 0.5)))
        return out

    def make_code(self):
        self.in_code = True
        self.make_body()
        self.in_code = False

    def make_body(self):
        c = self.case
        c.counters_left, c.counters, c.decls = ["j", "i"], set(), []
        locs = self.r.sample(["x", "y"], self.r.choice([0, 1, 1, 2]))
        for x in locs:
            c.locals.append(x)
            c.local_types[x] = self.c_r.choice(["int", "int", "unsigned", "unsigned char", "signed char", "short"]) \
                if c.ints == "c" else "int"
            c.decls.append(("decl", x, self.local_value([]) if self.chance(0.5) else ("num", 0)))
        c.targets = self.pointer_targets() if self.pointer_case else []
        pointer = "%s *" % (c.vars[c.targets[0]].ctype or "int") if c.targets else None
        if pointer:
            c.locals.append("p")
            c.local_types["p"] = pointer
            c.decls.append(("decl", "p", self.pointer_expr(locs)) if self.chance(0.85) else ("decl", "p"))
        if self.chance(0.3):
            c.helper = []
            if pointer and self.chance(0.6):
                c.helper_param, self.deref_local = pointer + "q", "q"
                c.locals.append("q")
                c.local_types["q"] = pointer
            c.helper = self.stmts([self.r.randint(1, 2)], 1, [], "helper")
        self.deref_local = "p" if pointer else None
        body = self.stmts([self.r.randint(1, 8)], 2, locs, "top")
        if c.helper is not None and not any(s[:2] == ("call", "helper") for s in body):
            body.insert(self.r.randint(0, len(body)), self.call(locs))
        c.body = c.decls + body

    # ---- the spec
    def writes(self, s, out):
        k = s[0]
        if k == "set" and s[1][0] == "sh" or k == "nondet_sh":
            out.add(s[1][1] if k == "set" else s[1])
        elif k == "set" and s[1][0] == "elem":
            out.update(s[1][1])
        elif k == "set" and s[1][0] == "deref":
            out.update(self.case.targets)
        elif k == "call":
            for x in self.case.helper:
                self.writes(x, out)
        for x in s[1:]:
            if isinstance(x, list):
                for y in x:
                    self.writes(y, out)
        return out

    def havoc_edge(self, src, dst, W):
        W = sorted(W)
        if self.chance(0.5):
            return Edge(src, dst, guard=None, assigns=[(i, None) for i in W])
        parts = []
        for i in W:
            v = self.case.vars[i]
            parts.append(("bin", "||", ("prime", i), ("not", ("prime", i))) if v.kind == "bool"
                         else ("bin", ">=", ("prime", i), ("num", 0)))
        return Edge(src, dst, rel=conj(parts))

    def typed(self, i, E):
        """E as a spec value for variable i (an int stored in a C bool is E != 0)."""
        return minic.stored(self.case.vars, i, E)

    def precise_edge(self, src, dst, i, E):
        E = self.typed(i, E)
        if self.chance(0.5):
            return Edge(src, dst, guard=None, assigns=[(i, E)])
        return Edge(src, dst, rel=("bin", "==", ("prime", i), E))

    def random_edge(self, n):
        src, dst = self.r.randrange(n), self.r.randrange(n)
        vs = list(range(len(self.case.vars)))
        if self.chance(0.5):
            parts = []
            for i in self.r.sample(vs, self.r.randint(0, len(vs))):
                v = self.case.vars[i]
                if v.kind == "bool":
                    parts.append(self.r.choice([("bin", "==", ("prime", i), ("not", ("sh", i))), ("prime", i),
                                                ("not", ("prime", i)), ("bin", "==", ("prime", i), self.bool_expr([], 0))]))
                else:
                    parts.append(("bin", self.r.choice(["==", "==", ">", "<=", "!="]), ("prime", i), self.shared_value(i, [])))
                if self.chance(0.2):
                    parts.append(self.bool_expr([], 0))  # about the state before
            if self.chance(0.3):
                parts.append(self.bool_expr([], 0))
            return Edge(src, dst, rel=conj(parts))
        guard = self.bool_expr([], 0) if self.chance(0.6) else None
        assigns = []
        for i in self.r.sample(vs, self.r.randint(0, len(vs))):
            assigns.append((i, None if self.chance(0.25) else self.typed(i, self.shared_value(i, []))))
        return Edge(src, dst, guard=guard, assigns=assigns)

    def make_spec(self):
        c = self.case
        n = self.r.randint(2, 4)
        sp = Spec(self.r.sample(STATE_NAMES, n))
        c.spec = sp
        if self.chance(0.15):
            sp.inits.append(1)
        style = self.r.random()
        if style < 0.2:
            for _ in range(self.r.randint(1, 6)):
                sp.edges.append(self.random_edge(n))
            if self.chance(0.3):
                sp.asserts[self.r.randrange(n)] = self.likely(lambda: self.bool_expr([], 1), 0.4)
        else:
            self.derive(sp, n)
            if self.chance(0.4):
                self.perturb(sp, n)
        if not sp.edges:
            sp.edges.append(self.random_edge(n))
        if len(sp.edges) > 6:
            sp.edges = self.r.sample(sp.edges, 6)
        if self.chance(0.12):
            sp.invariant = self.likely(lambda: self.bool_expr([], 1), 0.6)
        for i, v in enumerate(c.vars):
            if v.init is None and c.array_of(i)[0] is None and self.chance(0.2):
                v.init = self.r.choice(v.domain())

    def derive(self, sp, n):
        """Edges that follow the code: one state per phase of its top-level
        shared writes, precise relations for simple writes, havoc elsewhere;
        state assertions that cover the code's asserts over shared variables."""
        phase = 0
        for s in self.case.body:
            W = self.writes(s, set())
            if s[0] == "assert" and spec_safe(s[1]) and self.chance(0.75):
                sp.asserts[phase] = conj([sp.asserts.get(phase), s[1]])
            if s[0] == "atomic":
                # the condition of an assert inside the section, asserted by the state
                # the section starts from: mid-step it must not excuse the assert
                inner = [x[1] for x in s[1] if x[0] == "assert" and spec_safe(x[1])]
                if inner and self.chance(0.7):
                    sp.asserts[phase] = conj([sp.asserts.get(phase), self.r.choice(inner)])
            if not W:
                continue
            advance = phase < n - 1 and self.chance(0.7)
            dst = phase + 1 if advance else phase
            if s[0] == "set" and s[1][0] == "sh" and spec_safe(s[2]) and self.chance(0.85):
                i, E = s[1][1], s[2]
                sp.edges.append(self.precise_edge(phase, dst, i, E))
                v = self.case.vars[i]
                if v.kind == "int" and self.chance(0.6):
                    out = [g for g in itertools.product(*[w.domain() for w in self.case.vars])
                           if not v.in_range(ev(E, g))]
                    if out:
                        sp.asserts[phase] = conj([sp.asserts.get(phase),
                                                  ("bin", "&&", ("bin", ">=", E, ("num", 0)), ("bin", "<=", E, ("num", v.hi)))])
            else:
                sp.edges.append(self.havoc_edge(phase, dst, W))
                if s[0] in ("while", "call") or self.chance(0.3):
                    sp.edges.append(self.havoc_edge(dst, dst, W))
            phase = dst

    def perturb(self, sp, n):
        r = self.r.random()
        if r < 0.25 and sp.edges:
            sp.edges.pop(self.r.randrange(len(sp.edges)))
        elif r < 0.45 and sp.edges:
            e = self.r.choice(sp.edges)
            e.dst = self.r.randrange(n)
        elif r < 0.65 and sp.edges:
            sp.edges[self.r.randrange(len(sp.edges))] = self.random_edge(n)
        elif r < 0.8 and sp.asserts:
            del sp.asserts[self.r.choice(list(sp.asserts))]
        else:
            sp.asserts[self.r.randrange(n)] = self.likely(lambda: self.bool_expr([], 1), 0.4)

    def generate(self):
        self.declare()
        self.make_code()
        self.make_spec()
        return self.case


def case_of(seed, ints="math"):
    return Gen(seed, ints).generate()


def verdict(case, limit=LIMIT, atomicity="statement"):
    return Checker(case, atomicity=atomicity).check(limit)


# ---------------------------------------------------------------- command line

def batch(directory, first, count, atomicity="statement", ints="math"):
    lines = []
    for seed in range(first, first + count):
        case = case_of(seed, ints)
        with open(os.path.join(directory, "case%d.athread" % seed), "w") as f:
            f.write(spec_text(case, seed))
        with open(os.path.join(directory, "case%d.c" % seed), "w") as f:
            f.write(c_text(case))
        v, _, _ = verdict(case, atomicity=atomicity)
        lines.append("case%d %s\n" % (seed, v))
    with open(os.path.join(directory, "expected"), "w") as f:
        f.writelines(lines)
    return 0


def stats(first, count, atomicity="statement", ints="math"):
    dist, biggest = {}, (0, None)
    for seed in range(first, first + count):
        v, _, n = verdict(case_of(seed, ints), atomicity=atomicity)
        dist[v] = dist.get(v, 0) + 1
        biggest = max(biggest, (n, seed))
    print(" ".join("%s %d" % kv for kv in sorted(dist.items())), "; largest search: %d states (seed %s)" % biggest)
    return 0


def option(argv, name, allowed):
    """(argv without --name VALUE, VALUE or allowed[0]; None when VALUE is not allowed)."""
    if name not in argv[:-1]:
        return argv, allowed[0]
    k = argv.index(name)
    value = argv[k + 1]
    return argv[:k] + argv[k + 2:], value if value in allowed else None


def main(argv):
    argv, atomicity = option(argv, "--atomicity", ("statement", "access"))
    argv, ints = option(argv, "--int", ("math", "c"))
    if atomicity is None or ints is None:
        sys.stderr.write("--atomicity must be statement or access, --int math or c\n")
        return 2
    if len(argv) == 5 and argv[1] == "--batch":
        return batch(argv[2], int(argv[3]), int(argv[4]), atomicity, ints)
    if len(argv) == 3 and argv[1] == "--replay-batch":
        return replay_batch(argv[2], atomicity, ints)
    if len(argv) == 5 and argv[1] == "--replay":
        import json
        seed = int(open(argv[2]).readline().split()[-1])  # "// gen-conform.py SEED"
        with open(argv[4]) as f:
            ok, why = replay_json(case_of(seed, ints), json.load(f), atomicity)
        print(("replayed: " if ok else "not replayable: ") + why)
        return 0 if ok else 1
    if len(argv) == 4 and argv[1] == "--stats":
        return stats(int(argv[2]), int(argv[3]), atomicity, ints)
    if len(argv) < 2 or not argv[1].isdigit():
        sys.stderr.write(__doc__)
        return 2
    seed = int(argv[1])
    case = case_of(seed, ints)
    v, why, n = verdict(case, atomicity=atomicity)
    if "--verdict" in argv[2:]:
        print(v)
        return 0
    print(spec_text(case, seed))
    print(c_text(case))
    print("// verdict: %s (%d states)" % (v, n))
    if why:
        print("// " + why.replace("\n", "\n// "))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
