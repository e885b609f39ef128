#!/usr/bin/env python3
"""tests/oracle/gen-system.py -- random .athread systems, and their verdicts.

  gen-system.py SEED             prints a random, valid system (lint -w clean)
  gen-system.py SEED --verdict   prints "safe" or "unsafe", computed by an
                                 explicit-state search of the generator's own
                                 model (docs/language.md sections 3-6)
  gen-system.py SEED --stats     the verdict, the reachable states, the instances
  gen-system.py --batch DIR FIRST COUNT
                                 writes DIR/seed-N.athread for COUNT seeds from
                                 FIRST and prints "N VERDICT STATES" for each
  gen-system.py --forall-batch DIR FIRST COUNT
                                 the same systems except that one thread is
                                 symmetric (no tid, never named by index) and
                                 has N instances (const N = 2), for
                                 compose --for-all N (tests/forall/run.sh);
                                 writes the files only

The verdict is a third oracle beside SPIN (athread promela) and athread
compose: it shares no code with either. Systems have 2-4 threads of 2-6
states over 1-4 shared variables (bool, small ranges, sometimes an unbounded
int kept small by % 3), both edge forms, labels, state assertions, thread
invariants, init predicates, system invariants with count(T@S) and T[i]@S,
and tid. About a third of the systems also have arrays (bool or small-range
elements, 2-3 of them, one initial value, one per element, or none): elements
read and written by constant indices, tid and variables (sometimes outside
the array: the instance then goes wrong), primed elements in relations, and
forall/exists over an array; init predicates index by constants. Python 3
standard library only.
"""
import itertools
import random
import re
import sys
from collections import deque

# Names that Promela, C or pan.c would choke on: the exporter must rename them.
AWKWARD_STATES = ["skip", "od", "fi", "len", "byte", "pc", "check", "now", "timeout", "X", "linux", "run"]
PLAIN_STATES = ["Idle", "Busy", "Wait", "Crit", "Done", "Ready", "Hold", "Stop", "Go", "Try"]
THREAD_NAMES = ["A", "B", "Worker", "Stopper", "proc", "T"]


# ---------------------------------------------------------------- C arithmetic

def c_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def c_mod(a, b):
    return a - b * c_div(a, b)


# ---------------------------------------------------------------- expressions
# An expression is a tuple: ('lit', v) ('bool', v) ('var', i) ('prime', i)
# ('const', name, v) ('tid',) ('count', thread, state) ('at', thread, k, state)
# ('un', op, a) ('bin', op, a, b) ('ite', c, a, b) ('elem', i, index)
# ('pelem', i, index) (primed) ('quant', 'forall'|'exists', name, lo, hi, body)
# ('bound', name).

PREC = {"<==>": 2, "==>": 3, "||": 4, "&&": 5, "==": 6, "!=": 6, "<": 7, "<=": 7, ">": 7, ">=": 7,
        "+": 8, "-": 8, "*": 9, "/": 9, "%": 9}


def render(e, m):
    """The athread text of e, parenthesized where needed (and a little more)."""
    k = e[0]
    if k == "lit":
        return str(e[1]) if e[1] >= 0 else "(%d)" % e[1]
    if k == "bool":
        return "true" if e[1] else "false"
    if k == "var":
        return m.vars[e[1]].name
    if k == "prime":
        return m.vars[e[1]].name + "'"
    if k in ("elem", "pelem"):
        return "%s%s[%s]" % (m.vars[e[1]].name, "'" if k == "pelem" else "", render(e[2], m))
    if k == "quant":
        return "(%s %s in %d..%d: %s)" % (e[1], e[2], e[3], e[4], render(e[5], m))
    if k == "bound":
        return e[1]
    if k == "const":
        return e[1]
    if k == "tid":
        return "tid"
    if k == "count":
        return "count(%s@%s)" % (m.threads[e[1]].name, m.threads[e[1]].states[e[2]])
    if k == "at":
        return "%s[%d]@%s" % (m.threads[e[1]].name, e[2], m.threads[e[1]].states[e[3]])
    if k == "un":
        return e[1] + wrap(e[2], m)
    if k == "ite":
        return "(%s ? %s : %s)" % (wrap(e[1], m), wrap(e[2], m), wrap(e[3], m))
    return "%s %s %s" % (wrap(e[2], m), e[1], wrap(e[3], m))


def wrap(e, m):
    s = render(e, m)
    return "(" + s + ")" if e[0] in ("bin",) or (e[0] == "un" and e[2][0] == "un") else s


class OutOfBounds(Exception):
    """An element outside its array was read."""


def expansion(e):
    """A quantifier as the &&- (||-) chain of its instances, left to right."""
    _, kind, name, lo, hi, body = e
    parts = [substitute(body, name, v) for v in range(lo, hi + 1)]
    if not parts:
        return ("bool", kind == "forall")
    out = parts[0]
    for p in parts[1:]:
        out = ("bin", "&&" if kind == "forall" else "||", out, p)
    return out


def substitute(e, name, value):
    if e == ("bound", name):
        return ("lit", value)
    return tuple(substitute(x, name, value) if isinstance(x, tuple) else x for x in e)


def cell_of(e, env):
    """The cell that ('var', i) or an element names (raises OutOfBounds)."""
    m = env[4]
    if e[0] in ("var", "prime"):
        return m.base[e[1]]
    k = evaluate(e[2], env)
    if not 0 <= k < m.vars[e[1]].length:
        raise OutOfBounds()
    return m.base[e[1]] + k


def evaluate(e, env):
    """env: (shared values, primed values or None, tid, pcs, model)."""
    k = e[0]
    if k in ("lit", "bool"):
        return e[1]
    if k in ("var", "elem"):
        return env[0][cell_of(e, env)]
    if k in ("prime", "pelem"):
        return env[1][cell_of(e, env)]
    if k == "quant":
        return evaluate(expansion(e), env)
    if k == "const":
        return e[2]
    if k == "tid":
        return env[2]
    if k == "count":
        m = env[4]
        return sum(1 for t in m.instance_tids(e[1]) if env[3][t - 1] == e[2])
    if k == "at":
        m = env[4]
        return env[3][m.instance_tids(e[1])[e[2] - 1] - 1] == e[3]
    if k == "un":
        v = evaluate(e[2], env)
        return (not v) if e[1] == "!" else -v
    if k == "ite":
        return evaluate(e[2], env) if evaluate(e[1], env) else evaluate(e[3], env)
    op, a = e[1], evaluate(e[2], env)
    if op == "&&":
        return a and evaluate(e[3], env)
    if op == "||":
        return a or evaluate(e[3], env)
    if op == "==>":
        return (not a) or evaluate(e[3], env)
    b = evaluate(e[3], env)
    return {"<==>": lambda: a == b, "==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b,
            "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b, "+": lambda: a + b,
            "-": lambda: a - b, "*": lambda: a * b, "/": lambda: c_div(a, b), "%": lambda: c_mod(a, b)}[op]()


def has_primes(e):
    if e[0] in ("prime", "pelem"):
        return True
    if e[0] == "quant":
        return has_primes(expansion(e))
    return any(isinstance(x, tuple) and has_primes(x) for x in e[1:])


def defined(e, env):
    """Evaluating e in the state before a step reads no element outside its
    array (docs/language.md section 6): && || ==> ?: protect their later
    operands unless the protecting condition reads primed values."""
    k = e[0]
    if k == "quant":
        return defined(expansion(e), env)
    if k in ("elem", "pelem"):
        if not defined(e[2], env):
            return False
        return 0 <= evaluate(e[2], env) < env[4].vars[e[1]].length
    if k == "bin" and e[1] in ("&&", "||", "==>"):
        if not defined(e[2], env):
            return False
        if has_primes(e[2]):
            return defined(e[3], env)
        a = evaluate(e[2], env)
        reached = (not a) if e[1] == "||" else a
        return (not reached) or defined(e[3], env)
    if k == "ite":
        if not defined(e[1], env):
            return False
        if has_primes(e[1]):
            return defined(e[2], env) and defined(e[3], env)
        return defined(e[2] if evaluate(e[1], env) else e[3], env)
    return all(defined(x, env) for x in e[1:] if isinstance(x, tuple))


def primes_in(e, out):
    if e[0] == "prime":
        out.add(e[1])
    for x in e[1:]:
        if isinstance(x, tuple):
            primes_in(x, out)
    return out


def conjuncts(e):
    if e[0] == "bin" and e[1] == "&&":
        return conjuncts(e[2]) + conjuncts(e[3])
    return [e]


def disjuncts(e):
    if e[0] == "bin" and e[1] == "||":
        return disjuncts(e[2]) + disjuncts(e[3])
    return [e]


def conj(parts):
    parts = [p for p in parts if p is not None]
    if not parts:
        return ("bool", True)
    e = parts[0]
    for p in parts[1:]:
        e = ("bin", "&&", e, p)
    return e


# ---------------------------------------------------------------- the model

class Var:
    def __init__(self, name, kind, lo=0, hi=1, init=None, length=None):
        self.name, self.kind, self.lo, self.hi, self.init = name, kind, lo, hi, init
        self.length = length  # an array's elements, None for a scalar; init is then a list per element or None
        self.one_value = False  # an array's init is written "= v" (every element the same)

    def domain(self):
        return [False, True] if self.kind == "bool" else list(range(self.lo, self.hi + 1))

    def literal(self, x):
        return ("true" if x else "false") if self.kind == "bool" else str(x)

    def decl(self):
        t = {"bool": "bool", "int": "int"}.get(self.kind, "int[%d..%d]" % (self.lo, self.hi))
        init = ""
        if self.length is not None and self.init is not None:
            if self.one_value:
                init = " = " + self.literal(self.init[0])
            else:
                init = " = {%s}" % ", ".join(self.literal(x) for x in self.init)
        elif self.init is not None:
            init = " = " + self.literal(self.init)
        size = "[%d]" % self.length if self.length is not None else ""
        return "shared %s %s%s%s;" % (t, self.name, size, init)


class Edge:
    def __init__(self, src, dst, label, kind, rel=None, guard=None, assigns=None):
        self.src, self.dst, self.label, self.kind = src, dst, label, kind
        self.rel, self.guard, self.assigns = rel, guard, assigns or []


class Thread:
    def __init__(self, name, states):
        self.name, self.states = name, states
        self.inits, self.asserts, self.invariants, self.edges = [], {}, [], []
        self.uses_tid = False
        self.count = 1
        self.bracket = False  # written T[1] rather than T


class Model:
    def __init__(self):
        self.consts, self.vars, self.threads = [], [], []
        self.init_preds, self.sys_invs = [], []
        self.first_tid = []
        self.base = []  # per variable: its first cell (arrays come after the scalars)

    def layout(self):
        self.base, n = [], 0
        for v in self.vars:
            self.base.append(n)
            n += v.length or 1
        return n

    def arrays(self):
        return [i for i, v in enumerate(self.vars) if v.length is not None]

    def instance_tids(self, t):
        return list(range(self.first_tid[t], self.first_tid[t] + self.threads[t].count))

    def total(self):
        return sum(t.count for t in self.threads)


# ---------------------------------------------------------------- generation

class Gen:
    def __init__(self, seed, forall=False):
        self.r = random.Random(seed)
        self.m = Model()
        self.forall = forall  # one thread gets N instances (--forall-batch); off: outputs unchanged
        self.sym = None       # that thread's index
        # Arrays draw from a stream of their own, so systems without arrays are
        # the ones this generator always made.
        self.ra = random.Random(seed * 7919 + 17)
        self.with_arrays = not forall and self.ra.random() < 0.35

    def chance(self, p):
        return self.r.random() < p

    # ---- leaves
    def int_vars(self):
        return [i for i, v in enumerate(self.m.vars) if v.kind != "bool" and v.length is None]

    def bool_vars(self):
        return [i for i, v in enumerate(self.m.vars) if v.kind == "bool" and v.length is None]

    # ---- arrays
    def index(self, ctx, vi):
        """An index into array vi: constant, the quantified variable, from tid
        or a variable (the last two may fall outside the array)."""
        n = self.m.vars[vi].length
        r = self.ra.random()
        if ctx.get("static_index") or r < 0.3:
            return ("lit", self.ra.randrange(n))
        if ctx.get("bound") and r < 0.5:
            return ("bound", ctx["bound"])
        if ctx.get("tid") and r < 0.7:
            ctx["used_tid"] = True
            return ("bin", "%", ("tid",), ("lit", n)) if self.ra.random() < 0.6 else ("bin", "-", ("tid",), ("lit", 1))
        rv = [i for i in self.int_vars() if self.m.vars[i].kind == "range"]
        if not rv:
            return ("lit", self.ra.randrange(n))
        i = self.ra.choice(rv)
        return ("var", i) if self.ra.random() < 0.7 else ("bin", "%", ("bin", "+", ("var", i), ("lit", 1)), ("lit", n))

    def element(self, ctx, kind):
        """An element of an array of the kind ("bool" or "int"), or None."""
        cands = [i for i in self.m.arrays() if (self.m.vars[i].kind == "bool") == (kind == "bool")]
        if not cands:
            return None
        vi = self.ra.choice(cands)
        idx = self.index(ctx, vi)
        if vi in ctx.get("primed_arrays", ()) and self.ra.random() < 0.5:
            return ("pelem", vi, idx)
        return ("elem", vi, idx)

    def quantifier(self, ctx):
        vi = self.ra.choice(self.m.arrays())
        v = self.m.vars[vi]
        el = ("elem", vi, ("bound", "q"))
        if v.kind == "bool":
            body = el if self.ra.random() < 0.5 else ("un", "!", el)
        else:
            body = ("bin", self.ra.choice(["<=", ">=", "!=", "=="]), el, ("lit", self.ra.randint(v.lo, v.hi)))
        if self.ra.random() < 0.4:
            body = ("bin", "||", self.bool_leaf(dict(ctx, bound="q")), body)
        # Now and then one past the end, except in a relation: a body that reads
        # primed values protects nothing, so athread would refuse the spec.
        past = self.ra.random() < 0.15 and not ctx.get("primes") and not ctx.get("primed_arrays")
        hi = v.length if past else v.length - 1
        return ("quant", self.ra.choice(["forall", "exists"]), "q", 0, hi, body)

    def element_value(self, vi, ctx):
        v = self.m.vars[vi]
        plain = {"tid": ctx.get("tid")}
        if v.kind == "bool":
            return self.bool_expr(plain, 1)
        if self.ra.random() < 0.5:
            return ("lit", self.ra.randint(v.lo, v.hi))
        return ("bin", "%", ("bin", "+", ("elem", vi, self.index(plain, vi)), ("lit", 1)), ("lit", v.hi + 1))

    def declare_arrays(self):
        for n in range(self.ra.randint(1, 2)):
            kind = self.ra.choice(["bool", "range"])
            v = Var("a%d" % n, kind, 0, self.ra.choice([1, 2]), length=self.ra.choice([2, 3]))
            r = self.ra.random()
            if r < 0.45:
                x = self.ra.choice(v.domain())
                v.init, v.one_value = [x] * v.length, True
            elif r < 0.75:
                v.init = [self.ra.choice(v.domain()) for _ in range(v.length)]
            self.m.vars.append(v)

    def int_leaf(self, ctx):
        if self.with_arrays and self.ra.random() < 0.2:
            el = self.element(ctx, "int")
            if el:
                return el
        r = self.r.random()
        iv = self.int_vars()
        if ctx.get("count") and r < 0.3:
            t = self.r.randrange(len(self.m.threads))
            return ("count", t, self.r.randrange(len(self.m.threads[t].states)))
        if ctx.get("tid") and (r < 0.12 or (not iv and r < 0.5)):
            ctx["used_tid"] = True
            return ("tid",)
        if iv and r < 0.75:
            i = self.r.choice(iv)
            if ctx.get("primes") and i in ctx["primes"] and self.chance(0.5):
                return ("prime", i)
            return ("var", i)
        if self.m.consts and self.chance(0.3):
            name, v = self.r.choice(self.m.consts)
            return ("const", name, v)
        return ("lit", self.r.choice([-1, 0, 1, 1, 2, 2, 3]))

    def bool_leaf(self, ctx):
        if self.with_arrays and self.ra.random() < 0.2:
            el = self.element(ctx, "bool")
            if el:
                return el
        bv = self.bool_vars()
        r = self.r.random()
        if ctx.get("count") and r < 0.25:
            if self.forall:  # never name the symmetric thread's instances by index
                others = [i for i in range(len(self.m.threads)) if i != self.sym]
                if not others:
                    return ("bool", self.chance(0.5))
                t = self.r.choice(others)
            else:
                t = self.r.randrange(len(self.m.threads))
            th = self.m.threads[t]
            return ("at", t, self.r.randint(1, th.count), self.r.randrange(len(th.states)))
        if bv and r < 0.6:
            i = self.r.choice(bv)
            if ctx.get("primes") and i in ctx["primes"] and self.chance(0.5):
                return ("prime", i)
            return ("var", i)
        if r < 0.65:
            return ("bool", self.chance(0.5))
        return self.compare(ctx, 0)

    # ---- compound
    def has_ints(self, ctx):
        return bool(self.int_vars()) or ctx.get("tid") or ctx.get("count")

    def compare(self, ctx, depth):
        if not self.has_ints(ctx) and self.bool_vars() and self.chance(0.8):
            return ("bin", self.r.choice(["==", "!="]), self.bool_leaf(ctx), self.bool_leaf(ctx))
        op = self.r.choice(["==", "!=", "<", "<=", ">", ">="])
        return ("bin", op, self.int_expr(ctx, depth), self.int_expr(ctx, depth))

    def int_expr(self, ctx, depth):
        if depth <= 0 or self.chance(0.55):
            return self.int_leaf(ctx)
        r = self.r.random()
        if r < 0.55:
            return ("bin", self.r.choice(["+", "-", "+", "-", "*"]), self.int_expr(ctx, depth - 1), self.int_expr(ctx, depth - 1))
        if r < 0.7:
            return ("bin", self.r.choice(["/", "%"]), self.int_expr(ctx, depth - 1), ("lit", self.r.choice([2, 3, -2])))
        if r < 0.8:
            return ("un", "-", self.int_expr(ctx, depth - 1))
        return ("ite", self.bool_expr(ctx, depth - 1), self.int_expr(ctx, depth - 1), self.int_expr(ctx, depth - 1))

    def bool_expr(self, ctx, depth):
        if self.with_arrays and not ctx.get("bound") and not ctx.get("static_index") and self.ra.random() < 0.08:
            return self.quantifier(ctx)
        if depth <= 0 or self.chance(0.4):
            return self.bool_leaf(ctx) if self.chance(0.5) else self.compare(ctx, 0)
        r = self.r.random()
        if r < 0.45:
            return ("bin", self.r.choice(["&&", "||", "&&", "||", "==>", "<==>"]), self.bool_expr(ctx, depth - 1), self.bool_expr(ctx, depth - 1))
        if r < 0.75:
            return self.compare(ctx, depth - 1)
        if r < 0.9:
            return ("un", "!", self.bool_expr(ctx, depth - 1))
        if self.bool_vars() and self.chance(0.5):
            return ("bin", self.r.choice(["==", "!="]), self.bool_leaf(ctx), self.bool_expr(ctx, depth - 1))
        return ("ite", self.bool_expr(ctx, depth - 1), self.bool_expr(ctx, depth - 1), self.bool_expr(ctx, depth - 1))

    def weak_bool(self, ctx):
        """A property that holds more often than a random expression."""
        e = self.bool_expr(ctx, 1)
        return ("bin", "||", e, self.bool_expr(ctx, 1)) if self.chance(0.6) else e

    def value_for(self, i, ctx, depth=1):
        """A value for variable i that keeps an unbounded int small."""
        v = self.m.vars[i]
        if v.kind == "bool":
            return self.bool_expr(ctx, depth)
        if v.kind == "int":
            return ("bin", "%", self.int_expr(ctx, depth + 1), ("lit", 3))
        r = self.r.random()
        if r < 0.35:
            return ("bin", self.r.choice(["+", "-"]), ("var", i), ("lit", 1))
        if r < 0.55:
            return ("lit", self.r.randint(v.lo, v.hi))
        return self.int_expr(ctx, depth)

    # ---- declarations
    def declare(self):
        m = self.m
        if self.chance(0.3):
            m.consts.append(("K", self.r.choice([1, 2])))
        n = self.r.randint(1, 4)
        for i in range(n):
            r = self.r.random()
            if r < 0.4:
                v = Var("f%d" % i, "bool")
                if self.chance(0.6):
                    v.init = self.chance(0.5)
            elif r < 0.88:
                lo = self.r.choice([0, 0, 0, -1, 1])
                hi = lo + self.r.choice([1, 2, 2, 3])
                v = Var("r%d" % i, "range", lo, hi)
                if self.chance(0.5):
                    v.init = self.r.randint(lo, hi)
            else:
                v = Var("u%d" % i, "int")
                v.init = self.r.randint(0, 2) if self.chance(0.6) else None
            m.vars.append(v)
        # a Promela-awkward variable name now and then
        if self.chance(0.15):
            self.r.choice(m.vars).name = self.r.choice(["len", "pc", "now", "int_1", "check", "tid_"])
        if self.with_arrays:
            self.declare_arrays()
        m.layout()

    def make_threads(self):
        m = self.m
        names = self.r.sample(THREAD_NAMES, self.r.randint(2, 4))
        for name in names:
            n = self.r.randint(2, 6)
            pool = PLAIN_STATES + (AWKWARD_STATES if self.chance(0.3) else [])
            t = Thread(name, self.r.sample(pool, n))
            t.inits = [0] + ([1] if self.chance(0.15) else [])
            m.threads.append(t)
        budget = 6
        for t in m.threads:
            t.count = 1
        for t in self.r.sample(m.threads, len(m.threads)):
            extra = self.r.choice([0, 0, 1, 2])
            if self.m.total() + extra <= budget:
                t.count += extra
        if self.forall:
            self.sym = self.r.randrange(len(m.threads))
            m.threads[self.sym].count = 2
            m.consts.append(("N", 2))
        tid = 1
        for t in m.threads:
            t.bracket = self.chance(0.2)
            m.first_tid.append(tid)
            tid += t.count

    def relation_part(self, ctx, primed, must_define, primed_arrays=()):
        parts = []
        for vi in primed_arrays:
            parts.append(("bin", "==", ("pelem", vi, self.index(ctx, vi)), self.element_value(vi, ctx)))
        if self.chance(0.5):
            parts.append(self.bool_expr({"tid": ctx["tid"]}, 1))
        for i in primed:
            v = self.m.vars[i]
            if i not in must_define and self.chance(0.25):
                continue  # primed elsewhere: any value here
            if i in must_define or self.chance(0.55):
                value = self.value_for(i, {"tid": ctx["tid"]})
                op = "==" if v.kind != "bool" or self.chance(0.7) else "<==>"
                reverse = v.kind != "int" and self.chance(0.2)  # the oracle's unbounded search wants u' == e
                parts.append(("bin", op, value, ("prime", i)) if reverse else ("bin", op, ("prime", i), value))
            elif v.kind == "bool":
                parts.append(self.r.choice([("bin", "!=", ("prime", i), ("var", i)),
                                            ("bin", "==", ("prime", i), self.bool_expr(ctx, 1)),
                                            ("prime", i), ("un", "!", ("prime", i))]))
            else:
                parts.append(("bin", self.r.choice(["!=", "<", ">", "<=", ">="]), ("prime", i), self.int_expr(ctx, 1)))
        if self.chance(0.2):
            parts.append(self.bool_expr(ctx, 1))  # may mention primes anywhere
        return conj(parts)

    def relational_edge(self, e, ctx):
        scalars = [i for i, v in enumerate(self.m.vars) if v.length is None]
        primed = self.r.sample(scalars, self.r.randint(0, min(2, len(scalars))))
        arrays = self.m.arrays()
        primed_arrays = self.ra.sample(arrays, self.ra.randint(0, 1)) if arrays else []  # each adds cases
        if not primed and not primed_arrays and self.chance(0.5):
            e.rel = ("bool", True) if self.chance(0.5) else self.bool_expr(ctx, 1)
            return
        ctx = dict(ctx, primes=set(primed), primed_arrays=set(primed_arrays))
        unbounded = {i for i in primed if self.m.vars[i].kind == "int"}
        rel = self.relation_part(ctx, primed, unbounded, primed_arrays)
        if self.chance(0.25):
            rel = ("bin", "||", rel, self.relation_part(ctx, primed, unbounded, primed_arrays))
        e.rel = rel

    def command_edge(self, e, ctx):
        if self.chance(0.7):
            e.guard = self.bool_expr(ctx, 1 + (self.chance(0.3)))
        scalars = [i for i, v in enumerate(self.m.vars) if v.length is None]
        targets = self.r.sample(scalars, self.r.randint(0, min(2, len(scalars))))
        for i in targets:
            if self.m.vars[i].kind != "int" and self.chance(0.2):
                e.assigns.append((i, None))
            else:
                e.assigns.append((i, self.value_for(i, ctx)))
        for vi in self.m.arrays():
            if self.ra.random() < 0.4:
                self.element_targets(e, ctx, vi)

    def element_targets(self, e, ctx, vi):
        """One or two assignments to elements of array vi; a second one has an
        index that is not constant (the two may meet: the instance goes wrong)."""
        first = self.index(ctx, vi)
        e.assigns.append((("elem", vi, first), None if self.ra.random() < 0.15 else self.element_value(vi, ctx)))
        second = self.index(ctx, vi)
        if self.ra.random() < 0.3 and second[0] != "lit" and first != second:
            e.assigns.append((("elem", vi, second), self.element_value(vi, ctx)))

    def make_edges(self):
        for ti, t in enumerate(self.m.threads):
            ctx = {"tid": not (self.forall and ti == self.sym)}
            n = self.r.randint(len(t.states), len(t.states) * 2)
            for k in range(n):
                src = k if k < len(t.states) - 1 else self.r.randrange(len(t.states))
                dst = (src + 1) % len(t.states) if self.chance(0.6) else self.r.randrange(len(t.states))
                label = '"%s%d"' % (self.r.choice(["go", "step", "take", "put"]), k) if self.chance(0.4) else None
                e = Edge(src, dst, label, "rel" if self.chance(0.5) else "cmd")
                if e.kind == "rel":
                    self.relational_edge(e, ctx)
                else:
                    self.command_edge(e, ctx)
                t.edges.append(e)
            for s in range(len(t.states)):
                if self.chance(0.09):
                    t.asserts[s] = self.weak_bool(ctx)
            if self.chance(0.06):
                t.invariants.append(self.weak_bool(ctx))
            t.uses_tid = ctx.get("used_tid", False)

    def make_system(self):
        m = self.m
        for i, v in enumerate(m.vars):
            if v.kind == "int" and v.init is None:
                m.init_preds.append(("bin", "==", ("var", i), ("lit", self.r.randint(0, 2))))
        if self.chance(0.4):
            m.init_preds.append(self.weak_bool({"static_index": True}))
            if next(initial_states(m), None) is None:
                m.init_preds.pop()  # keep systems that have initial states
        for _ in range(self.r.choice([0, 0, 0, 0, 1, 1, 2])):
            m.sys_invs.append(self.weak_bool({"count": True}))

    def generate(self):
        self.declare()
        self.make_threads()
        self.make_edges()
        self.make_system()
        return self.m


# ---------------------------------------------------------------- printing

def spec_text(m, seed):
    out = ["// random system, seed %d (tests/oracle/gen-system.py)" % seed]
    for name, v in m.consts:
        out.append("const %s = %d;" % (name, v))
    for v in m.vars:
        out.append(v.decl())
    for t in m.threads:
        out.append("")
        out.append("thread %s {" % t.name)
        for inv in t.invariants:
            out.append("  invariant %s;" % render(inv, m))
        for s, name in enumerate(t.states):
            line = "  %sstate %s" % ("init " if s in t.inits else "", name)
            if s in t.asserts:
                line += " assert " + render(t.asserts[s], m)
            out.append(line + ";")
        for e in t.edges:
            head = "  %s -> %s%s" % (t.states[e.src], t.states[e.dst], " " + e.label if e.label else "")
            if e.kind == "rel":
                out.append("%s : %s;" % (head, render(e.rel, m)))
                continue
            if e.guard is not None:
                head += " when " + render(e.guard, m)
            if e.assigns:
                head += " do " + ", ".join("%s := %s" % (render(i, m) if isinstance(i, tuple) else m.vars[i].name,
                                                         "*" if x is None else render(x, m)) for i, x in e.assigns)
            elif e.guard is None:
                head += " when true"
            out.append(head + ";")
        out.append("}")
    out.append("")
    out.append("system Random%d {" % seed)
    for ti, t in enumerate(m.threads):
        if ti == getattr(m, "sym", None):
            out.append("  %s[N];" % t.name)
            continue
        out.append("  %s%s;" % (t.name, "[%d]" % t.count if t.count > 1 or t.bracket else ""))
    for p in m.init_preds:
        out.append("  init %s;" % render(p, m))
    for p in m.sys_invs:
        out.append("  invariant %s;" % render(p, m))
    out.append("}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- the explicit-state oracle

def edge_goes_wrong(m, e, env):
    """Evaluating edge e reads outside an array, or two of its assignments
    write one element (docs/language.md section 6)."""
    if e.kind == "rel":
        return not defined(e.rel, env)
    if e.guard is not None and not defined(e.guard, env):
        return True
    if e.guard is not None and not evaluate(e.guard, env):
        return False
    cells = []
    for target, value in e.assigns:
        if isinstance(target, tuple):
            if not defined(target, env):
                return True
            cells.append(cell_of(target, env))
        if value is not None and not defined(value, env):
            return True
    return len(cells) != len(set(cells))


def instance_wrong(m, t, shared, tid, pcs):
    env = (shared, None, tid, pcs, m)
    s = pcs[tid - 1]
    checks = ([t.asserts[s]] if s in t.asserts else []) + t.invariants
    if any(not defined(c, env) or not evaluate(c, env) for c in checks):
        return True
    return any(edge_goes_wrong(m, e, env) for e in t.edges if e.src == s)


def wrong(m, shared, pcs):
    for ti, t in enumerate(m.threads):
        for tid in m.instance_tids(ti):
            if instance_wrong(m, t, shared, tid, pcs):
                return True
    env = (shared, None, 0, pcs, m)
    return any(not defined(p, env) or not evaluate(p, env) for p in m.sys_invs)


def in_type(v, x):
    return v.kind != "range" or v.lo <= x <= v.hi


def written_cells(m, e, env, out):
    """The cells relation e may change in the state env: its primed scalars and
    the primed elements whose index (evaluated before the step) is in range."""
    if e[0] == "prime":
        out[m.base[e[1]]] = m.vars[e[1]]
    elif e[0] == "pelem":
        k = evaluate(e[2], env) if defined(e[2], env) else -1
        if 0 <= k < m.vars[e[1]].length:
            out[m.base[e[1]] + k] = m.vars[e[1]]
    elif e[0] == "quant":
        written_cells(m, expansion(e), env, out)
    else:
        for x in e[1:]:
            if isinstance(x, tuple):
                written_cells(m, x, env, out)
    return out


def relation_successors(m, e, shared, tid, pcs):
    env = (shared, None, tid, pcs, m)
    written = written_cells(m, e.rel, env, {})
    cells = sorted(written)
    choices = []
    for c in cells:
        v = written[c]
        if v.kind != "int":
            choices.append(v.domain())
            continue
        # every top-level disjunct holds a conjunct u' == e with e prime-free
        i = m.base.index(c)
        cands = set()
        for d in disjuncts(e.rel):
            for cj in conjuncts(d):
                if cj[0] == "bin" and cj[1] == "==" and cj[2] == ("prime", i) and not primes_in(cj[3], set()):
                    cands.add(evaluate(cj[3], env))
        choices.append(sorted(cands))
    for values in itertools.product(*choices):
        nxt = list(shared)
        for c, x in zip(cells, values):
            nxt[c] = x
        if evaluate(e.rel, (shared, nxt, tid, pcs, m)):
            yield tuple(nxt)


def command_successors(m, e, shared, tid, pcs):
    env = (shared, None, tid, pcs, m)
    if e.guard is not None and not evaluate(e.guard, env):
        return
    targets = [(cell_of(i, env) if isinstance(i, tuple) else m.base[i], m.vars[i[1] if isinstance(i, tuple) else i])
               for i, _ in e.assigns]
    fixed = [(c, v, evaluate(x, env)) for (c, v), (_, x) in zip(targets, e.assigns) if x is not None]
    if any(not in_type(v, x) for _, v, x in fixed):
        return
    free = [(c, v) for (c, v), (_, x) in zip(targets, e.assigns) if x is None]
    for values in itertools.product(*[v.domain() for _, v in free]):
        nxt = list(shared)
        for c, _, x in fixed:
            nxt[c] = x
        for (c, _), x in zip(free, values):
            nxt[c] = x
        yield tuple(nxt)


def initial_states(m):
    domains = []
    for v in m.vars:
        if v.length is not None:
            domains += [[x] for x in v.init] if v.init is not None else [v.domain()] * v.length
        elif v.init is not None:
            domains.append([v.init])
        elif v.kind == "int":
            domains.append([c[3][1] for c in m.init_preds if c[0] == "bin" and c[1] == "==" and c[2][0] == "var"
                            and m.vars[c[2][1]] is v][:1])
        else:
            domains.append(v.domain())
    inst_inits = []
    for t in m.threads:
        inst_inits += [t.inits] * t.count
    for shared in itertools.product(*domains):
        if all(evaluate(p, (shared, None, 0, None, m)) for p in m.init_preds):
            for pcs in itertools.product(*inst_inits):
                yield (tuple(shared), tuple(pcs))


def verdict(m, limit=2_000_000):
    seen = set()
    work = deque()
    for s in initial_states(m):
        if s not in seen:
            seen.add(s)
            work.append(s)
    owner = []
    for ti, t in enumerate(m.threads):
        owner += [ti] * t.count
    while work:
        shared, pcs = work.popleft()
        if wrong(m, shared, pcs):
            return "unsafe", seen
        for k, ti in enumerate(owner):
            t, tid = m.threads[ti], k + 1
            for e in t.edges:
                if e.src != pcs[k]:
                    continue
                succ = relation_successors if e.kind == "rel" else command_successors
                for nxt in succ(m, e, shared, tid, pcs):
                    npcs = pcs[:k] + (e.dst,) + pcs[k + 1:]
                    s = (nxt, npcs)
                    if s not in seen:
                        seen.add(s)
                        work.append(s)
        if len(seen) > limit:
            return "unknown", seen
    return "safe", seen


def interchangeable(m, text):
    """The threads whose instances athread reduces by symmetry: several,
    no tid in the thread's text, never named by index (T[i]@S)."""
    def reads_tid(t):
        body = re.search(r"^thread %s \{$(.*?)^\}$" % t.name, text, re.M | re.S).group(1)
        return re.search(r"\btid\b", body) is not None
    return [t.count > 1 and not reads_tid(t) and not re.search(r"\b%s\[[0-9]+\]@" % t.name, text)
            for t in m.threads]


def orbits(m, seen, text):
    """How many states seen holds up to permutations of interchangeable
    instances: the count of athread's search with symmetry."""
    spans, first = [], 0
    for t, sym in zip(m.threads, interchangeable(m, text)):
        if sym:
            spans.append((first, first + t.count))
        first += t.count

    def canonical(pcs):
        pcs = list(pcs)
        for a, b in spans:
            pcs[a:b] = sorted(pcs[a:b])
        return tuple(pcs)
    return len({(shared, canonical(pcs)) for shared, pcs in seen})


def batch(directory, first, count):
    """Writes DIR/seed-N.athread for count seeds from first; prints "N
    verdict states orbits" for each (the states reached, and up to symmetry;
    all of them when safe)."""
    for seed in range(first, first + count):
        m = Gen(seed).generate()
        text = spec_text(m, seed)
        with open("%s/seed-%d.athread" % (directory, seed), "w") as f:
            f.write(text)
        v, seen = verdict(m)
        print("%d %s %d %d" % (seed, v, len(seen), orbits(m, seen, text)), flush=True)
    return 0


def forall_batch(directory, first, count):
    """Writes DIR/seed-N.athread with a symmetric thread of N instances."""
    for seed in range(first, first + count):
        g = Gen(seed, forall=True)
        m = g.generate()
        m.sym = g.sym
        with open("%s/seed-%d.athread" % (directory, seed), "w") as f:
            f.write(spec_text(m, seed))
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == "--batch":
        return batch(argv[2], int(argv[3]), int(argv[4]))
    if len(argv) == 5 and argv[1] == "--forall-batch":
        return forall_batch(argv[2], int(argv[3]), int(argv[4]))
    if len(argv) < 2 or not argv[1].lstrip("-").isdigit():
        sys.stderr.write("usage: gen-system.py SEED [--verdict | --stats]\n"
                         "       gen-system.py --batch DIR FIRST_SEED COUNT\n")
        return 2
    seed = int(argv[1])
    m = Gen(seed).generate()
    if "--verdict" in argv[2:]:
        print(verdict(m)[0])
    elif "--stats" in argv[2:]:
        v, seen = verdict(m)
        print("%s %d states, %d instances" % (v, len(seen), m.total()))
    else:
        sys.stdout.write(spec_text(m, seed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
