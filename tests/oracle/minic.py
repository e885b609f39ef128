"""tests/oracle/minic.py -- the small C language of the oracles' generated
programs: expressions, statements, their text in C and in the spec language,
random expressions, and the concrete meaning of one atomic step (language
reference, section 7). Shared by gen-conform.py (one thread against its
abstract thread) and gen-theorem.py (whole programs, every interleaving);
nothing here comes from athread. Python 3 standard library only.

Expressions are tuples: ('num', v) ('tf', bool) ('sh', i) ('loc', name)
('prime', i) ('not', a) ('bin', op, a, b), and in C code only ('ite', c, a, b)
(c ? a : b) and ('elem', cells, index): the element at index of an array whose
elements are the shared variables cells (a tuple of indices); an index outside
it raises OutOfBounds, which is undefined behaviour in C and a violation of
conformance. && || ==> and ?: evaluate their second operands only where C
does. A shared variable's name in the text may be an element ("a[2]", "s.q[2]";
primed in the spec "a'[2]"). Generated expressions are well typed (bool vs
int), so one over shared variables and numbers prints in both languages.
Integers are mathematical; / and % truncate toward zero; a C bool holds 0 or 1
(storing v stores v != 0).

Statements:
  ('decl', x, E)              int x = E;                        a step
  ('set', target, E)          target = E;  target ('sh', i), ('loc', x) or ('elem', cells, index)
                              (target op= X, ++ or -- when E is target op X; the index is evaluated first)
  ('nondet_mod', x)           x = nondet() % 4;
  ('nondet_range', x, lo, hi) x = nondet(); assume(x >= lo && x <= hi);  two steps
  ('nondet_sh', i)            g = __VERIFIER_nondet_int();  (bool: __VERIFIER_nondet_bool())
  ('assume', C) ('await', C) ('assert', C)
  ('if', C or None, then, else)   None is `*`
  ('while', C or None, body)
  ('atomic', body[, form])    one step; form 'block' (atomic { }, the default),
                              'begin_end' (__VERIFIER_atomic_begin/end()), or
                              'fn:NAME' (a function __VERIFIER_atomic_NAME, whose
                              body reads no locals)
  ('call', NAME)              NAME(); a function of shared statements, inlined
  ('return',)
  ('probe', k)                no C text, no step: where an assert may go later
  ('lock', i) ('unlock', i)   pthread_mutex_lock(&m); / pthread_mutex_unlock(&m);  one step each
                              on the bool variable i (a Var with mutex set, a pthread_mutex_t in
                              C): lock waits until m is false and sets it, unlock clears it
  ('cas', ok, i, E, D, form)  one step: if variable i equals E, it becomes D and the local ok 1,
                              else ok 0 (E and D read locals only); form 'sync':
                              ok = __sync_bool_compare_and_swap(&x, E, D); form 'atomic' (E a
                              local ('loc', v)): ok = __atomic_compare_exchange_n(&x, &v, D, 0,
                              __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); which on failure also sets v
                              to the value of x
  ('fetch_add', t, i, d)      t = __atomic_fetch_add(&x, d, __ATOMIC_SEQ_CST);  one step: x += d,
                              t the value before

Atomicity (Code(..., atomicity=)): "statement" runs each statement as one step.
"access" lets the environment move between any two shared accesses of a
statement (a read of ('sh', i), of an element, a write). A statement with two
or more accesses on some run is split: its accesses are numbered in C's
evaluation order (left to right; both operands of && || ==>; the condition of
?: then both branches; an element after its index), and all but the last read
each an independent value loaded before the statement: any value the variable
has in some environment state where no candidate goes wrong (dom(i)). The last
access stays in the statement's step and reads the step's state g: its write
(every read is loaded then), or else its last reads (the longest tail of the
numbering that one run reads at most once). The abstract thread does not move
at the loads. An atomic section stays one step.
"""
import itertools

ARITH = {"+", "-", "*", "/", "%"}
BITWISE = {"&", "|", "^", "<<", ">>"}


# ---------------------------------------------------------------- C arithmetic

def c_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def c_mod(a, b):
    return a - b * c_div(a, b)


# ---------------------------------------------------------------- expressions

class CFault(Exception):
    """Undefined behaviour where the code evaluates something: a violation
    that no candidate excuses."""


class OutOfBounds(CFault):
    """An index outside its array: the array's cells and the index."""
    def __init__(self, cells, index):
        CFault.__init__(self, "index %d outside an array of %d" % (index, len(cells)))
        self.cells, self.index = cells, index


class NullDeref(CFault):
    """*p where p is NULL (0) or names no object (-1: a pointer never set may
    hold anything): the pointer local's name."""
    def __init__(self, pointer, value=0):
        CFault.__init__(self, "the code dereferences %s, which %s" % (pointer, "is NULL" if value == 0 else "names no object"))
        self.pointer, self.value = pointer, value


class ArithFault(CFault):
    """--int c: an operation without a defined result; kind "overflow",
    "division by zero", "shift" or "negative shift" (athread's failure
    kinds), e the operation."""
    def __init__(self, kind, e):
        CFault.__init__(self, kind)
        self.kind, self.e = kind, e


def element(e, g, L=None, evaluate=None):
    """The shared variable that ('elem', cells, index) names in (g, L)."""
    k = (evaluate or ev)(e[2], g, L)
    if not 0 <= k < len(e[1]):
        raise OutOfBounds(e[1], k)
    return e[1][k]


def pointee(p, L):
    """The shared variable the pointer local p (an expression ('loc', name))
    names: pointers are ints, 0 NULL, i + 1 shared variable i, -1 no object
    (the start of a pointer without initializer may be any of them)."""
    v = L[p[1]]
    if v is None:
        raise TypeError("unknown pointer")
    if v <= 0:
        raise NullDeref(p[1], v)
    return v - 1


def ev(e, g, L=None, g2=None):
    """The value of e: an int (booleans are 0/1). g, g2: shared values (tuples),
    L: the locals (a dict). A local that holds None raises TypeError, an index
    outside its array OutOfBounds."""
    k = e[0]
    if k == "num":
        return e[1]
    if k == "tf":
        return int(e[1])
    if k == "sh":
        return g[e[1]]
    if k == "prime":
        return g2[e[1]]
    if k == "loc":
        return L[e[1]]
    if k == "not":
        return int(not ev(e[1], g, L, g2))
    if k == "elem":
        return g[element(e, g, L)]
    if k in POINTERS:
        return pointer_value(e, g, L, ev)
    if k == "deref":
        return g[pointee(e[1], L)]
    if k == "ite":
        return ev(e[2] if ev(e[1], g, L, g2) else e[3], g, L, g2)
    op, a = e[1], ev(e[2], g, L, g2)
    if decided(op, a):
        return int(op != "&&")  # decided by the first operand
    return apply(op, a, ev(e[3], g, L, g2))


POINTERS = ("addr", "null", "addr_elem")


def pointer_value(e, g, L, evaluate):
    """The value of &x (('addr', i)), NULL (('null',)) or &a[i] (('addr_elem', cells, index))."""
    if e[0] == "null":
        return 0
    return (e[1] if e[0] == "addr" else element(e, g, L, evaluate)) + 1


def decided(op, a):
    """Does the first operand a alone decide && || ==>?"""
    return op in ("&&", "||", "==>") and bool(a) == (op == "||")


def apply(op, a, b):
    """The value of a op b (both operands evaluated)."""
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return c_div(a, b)
    if op == "%":
        return c_mod(a, b)
    if op in ("&&", "||", "==>"):
        return int(bool(b))
    if op == "<==>":
        return int(bool(a) == bool(b))
    return int({"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op])


class MathSem:
    """Mathematical integers (--int math): the module's ev and apply."""
    def ev(self, e, g, L=None):
        return ev(e, g, L)

    def binop(self, e, a, b):
        return apply(e[1], a, b)

    def unop(self, e, v):
        return int(not v)

    def ite(self, e, v):
        return v

    def stored(self, kind_or_type, v):
        """v as a variable of kind 'bool' or 'int' (or C type, unused here) holds it."""
        return int(v != 0) if kind_or_type in ("bool", "_Bool") else v


MATH = MathSem()


# ---------------------------------------------------------------- C's integers (--int c)
# Written from C11 (6.3.1, 6.5) for GCC's choices on x86-64: a conversion to a
# signed type reduces modulo 2^bits, >> of a negative value is arithmetic.

CTYPES = {"_Bool": (1, False), "bool": (1, False), "signed char": (8, True), "unsigned char": (8, False),
          "short": (16, True), "unsigned short": (16, False), "int": (32, True), "unsigned": (32, False)}
INT, UINT = (32, True), (32, False)


def wrap(v, t):
    """v converted to C type t = (bits, signed)."""
    bits, signed = t
    if bits == 1:
        return int(v != 0)
    v %= 1 << bits
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


def promote(t):
    return INT if t[0] < 32 else t


def usual(a, b):
    """The usual arithmetic conversions of two (promoted) types of 32 bits."""
    a, b = promote(a), promote(b)
    return a if a == b else UINT


def fits(v, t):
    return wrap(v, t) == v


class CSem:
    """C's integers (--int c): types are C types (CTYPES' names) of the shared
    variables (Var.ctype) and of the locals (local_types; a pointer local's
    is 'T *'). An operation without a defined result raises ArithFault."""
    def __init__(self, vars, local_types):
        self.vars, self.local_types = vars, local_types

    def is_pointer(self, e):
        return e[0] in POINTERS or e[0] == "loc" and self.local_types[e[1]].endswith("*")

    def type_of(self, e):
        k = e[0]
        if k == "num":
            return UINT if len(e) > 2 else INT
        if k in ("sh", "elem"):
            return CTYPES[self.vars[e[1] if k == "sh" else e[1][0]].ctype]
        if k == "loc":
            return CTYPES[self.local_types[e[1]]]
        if k == "deref":
            return CTYPES[self.local_types[e[1][1]].rstrip(" *")]
        if k == "cast":
            return CTYPES[e[1]]
        if k == "bnot":
            return promote(self.type_of(e[1]))
        if k == "ite":
            return usual(self.type_of(e[2]), self.type_of(e[3]))
        if k == "bin" and (e[1] in ARITH or e[1] in BITWISE):
            t = self.type_of(e[2])
            return promote(t) if e[1] in ("<<", ">>") else usual(t, self.type_of(e[3]))
        return INT  # comparisons, ! && ||, true/false

    def ev(self, e, g, L=None):
        k = e[0]
        if k in ("num", "sh", "loc"):
            return e[1] if k == "num" else g[e[1]] if k == "sh" else L[e[1]]
        if k == "tf":
            return int(e[1])
        if k == "elem":
            return g[element(e, g, L, self.ev)]
        if k == "deref":
            return g[pointee(e[1], L)]
        if k in POINTERS:
            return pointer_value(e, g, L, self.ev)
        if k == "ite":
            return self.ite(e, self.ev(e[2] if self.ev(e[1], g, L) else e[3], g, L))
        if k in ("not", "bnot", "cast"):
            return self.unop(e, self.ev(e[-1], g, L))
        a = self.ev(e[2], g, L)
        if decided(e[1], a):
            return int(e[1] != "&&")
        return self.binop(e, a, self.ev(e[3], g, L))

    def ite(self, e, v):
        return v if self.is_pointer(e[2]) else wrap(v, self.type_of(e))

    def unop(self, e, v):
        if e[0] == "not":
            return int(not v)
        if e[0] == "cast":
            return wrap(v, CTYPES[e[1]])
        t = self.type_of(e)
        return wrap(~wrap(v, t), t)

    def binop(self, e, a, b):
        op = e[1]
        if op in ("&&", "||"):
            return int(bool(b))
        if self.is_pointer(e[2]):
            return int((a == b) == (op == "=="))
        if op in ("<<", ">>"):
            return self.shift(e, a, b)
        t = usual(self.type_of(e[2]), self.type_of(e[3]))
        a, b = wrap(a, t), wrap(b, t)
        if op in ("/", "%"):
            if b == 0:
                raise ArithFault("division by zero", e)
            if not fits(c_div(a, b), t):
                raise ArithFault("overflow", e)  # INT_MIN / -1, and INT_MIN % -1 alike (C11 6.5.5)
            return c_div(a, b) if op == "/" else c_mod(a, b)
        if op in BITWISE:
            return wrap(a & b if op == "&" else a | b if op == "|" else a ^ b, t)
        if op not in ARITH:
            return apply(op, a, b)  # a comparison
        r = apply(op, a, b)
        if t[1] and not fits(r, t):
            raise ArithFault("overflow", e)
        return wrap(r, t)

    def shift(self, e, a, b):
        t = promote(self.type_of(e[2]))
        a, b = wrap(a, t), wrap(b, promote(self.type_of(e[3])))
        if not 0 <= b < t[0]:
            raise ArithFault("shift", e)
        if e[1] == ">>":
            return a >> b
        if t[1] and a < 0:
            raise ArithFault("negative shift", e)  # C11 6.5.7p4: a signed E1 << E2 must be nonnegative
        if t[1] and not fits(a << b, t):
            raise ArithFault("overflow", e)  # ... and fit
        return wrap(a << b, t)

    def stored(self, ctype, v):
        """v as a variable of C type ctype (a name in CTYPES) holds it; a pointer as it is."""
        return v if ctype.endswith("*") else wrap(v, CTYPES[ctype])


def show(e, names, spec):
    """The text of e in C (spec=False) or in the spec language (spec=True)."""
    k = e[0]
    if k == "num":
        return str(e[1]) + ("u" if len(e) > 2 else "")
    if k == "tf":
        return ("true" if e[1] else "false") if spec else str(int(e[1]))
    if k == "null":
        return "NULL"
    if k == "addr":
        return "&" + names[e[1]]
    if k == "addr_elem":
        return "&" + show(("elem",) + e[1:], names, spec)
    if k == "deref":
        return "*" + show(e[1], names, spec)
    if k == "cast":
        return "(%s)%s" % (e[1], paren(e[2], names, spec))
    if k == "bnot":
        return "~" + paren(e[1], names, spec)
    if k == "sh":
        return names[e[1]]
    if k == "prime":
        return primed(names[e[1]])
    if k == "loc":
        return e[1]
    if k == "not":
        return "!" + paren(e[1], names, spec)
    if k == "elem":
        return "%s[%s]" % (array_name(names[e[1][0]]), show(e[2], names, spec))
    if k == "ite":
        return "%s ? %s : %s" % (paren(e[1], names, spec), paren(e[2], names, spec), paren(e[3], names, spec))
    return "%s %s %s" % (paren(e[2], names, spec), e[1], paren(e[3], names, spec))


# ---------------------------------------------------------------- accesses (--atomicity access)

def natoms(e):
    """The shared accesses of e: reads of ('sh', i) and of elements (with their indices')."""
    k = e[0]
    if k == "sh":
        return 1
    if k == "elem":
        return natoms(e[2]) + 1
    if k == "deref":
        return 1
    return sum(natoms(x) for x in e[1:] if isinstance(x, tuple) and x and isinstance(x[0], str))


def tally(e, lo, pos=0):
    """(the most accesses numbered lo or more that one run of e reads, the number after e's)."""
    k = e[0]
    if k in ("sh", "deref"):
        return int(pos >= lo), pos + 1
    if k == "elem":
        n, pos = tally(e[2], lo, pos)
        return n + int(pos >= lo), pos + 1
    if k == "ite":
        c, pos = tally(e[1], lo, pos)
        a, pos = tally(e[2], lo, pos)
        b, pos = tally(e[3], lo, pos)
        return c + max(a, b), pos
    n = 0
    for x in e[1:]:
        if isinstance(x, tuple) and x and isinstance(x[0], str):
            m, pos = tally(x, lo, pos)
            n += m
    return n, pos


def first_in_place(e, writes):
    """Where the accesses of e that stay in the statement's step start (those
    before are loaded), or None when the statement has at most one access."""
    total = tally(e, 0)[0] if e is not None else 0
    if total + int(writes) <= 1:
        return None
    if writes:
        return natoms(e)
    lo = natoms(e)
    while lo > 0 and tally(e, lo - 1)[0] <= 1:
        lo -= 1
    return lo


def values(e, g, L, lo, dom, pos=0, fails=None, sem=None):
    """The set of values e may have when its accesses numbered below lo (from
    pos on) read loaded values (any of dom(i) for variable i) and the others
    read g, its operations those of sem (MATH by default). An index outside
    its array (any CFault) on some run raises, or, when a list fails is
    given, is appended to it and ends that run alone."""
    sem = sem or MATH
    k = e[0]
    if k == "sh":
        return set(dom(e[1])) if pos < lo else {g[e[1]]}
    if k in ("elem", "deref"):
        out, at = set(), pos + natoms(e[2]) if k == "elem" else pos
        for x in values(e[2], g, L, lo, dom, pos, fails, sem) if k == "elem" else {None}:
            try:
                i = pointee(e[1], L) if k == "deref" else e[1][x] if 0 <= x < len(e[1]) else None
                if i is None:
                    raise OutOfBounds(e[1], x)
            except CFault as f:
                if fails is None:
                    raise
                fails.append(f)
                continue
            out |= set(dom(i)) if at < lo else {g[i]}
        return out
    if k == "ite":
        pa = pos + natoms(e[1])
        pb = pa + natoms(e[2])
        out = set()
        for c in values(e[1], g, L, lo, dom, pos, fails, sem):
            vs = values(e[2], g, L, lo, dom, pa, fails, sem) if c else values(e[3], g, L, lo, dom, pb, fails, sem)
            out |= {sem.ite(e, v) for v in vs}
        return out
    if k in ("not", "bnot", "cast"):
        return {sem.unop(e, v) for v in values(e[-1], g, L, lo, dom, pos, fails, sem)}
    if k == "bin":
        op, pb, out = e[1], pos + natoms(e[2]), set()
        for a in values(e[2], g, L, lo, dom, pos, fails, sem):
            if decided(op, a):
                out.add(int(op != "&&"))
                continue
            for b in values(e[3], g, L, lo, dom, pb, fails, sem):
                try:
                    out.add(sem.binop(e, a, b))
                except CFault as f:
                    if fails is None:
                        raise
                    fails.append(f)
        return out
    return {sem.ev(e, g, L)}


def array_name(element_name):
    """The array of an element's name: "s.q" for "s.q[0]"."""
    return element_name.rsplit("[", 1)[0]


def primed(name):
    """x' for a variable, a'[2] for an element."""
    return name + "'" if not name.endswith("]") else array_name(name) + "'[" + name.rsplit("[", 1)[1]


def paren(e, names, spec):
    s = show(e, names, spec)
    return "(" + s + ")" if e[0] in ("bin", "ite", "cast") else s


def mentions(e, kind):
    """Does e have a node of kind (an element reads the shared state)?"""
    if e[0] == kind or (e[0] in ("elem", "deref") and kind == "sh"):
        return True
    return any(isinstance(x, tuple) and x and isinstance(x[0], str) and mentions(x, kind) for x in e[1:])


def primes_in(e, out):
    if e[0] == "prime":
        out.add(e[1])
    for x in e[1:]:
        if isinstance(x, tuple) and x and isinstance(x[0], str):
            primes_in(x, out)
    return out


def conj(parts, op="&&"):
    """The parts joined by op (None parts left out); the empty join is its unit."""
    parts = [p for p in parts if p is not None]
    if not parts:
        return ("tf", op == "&&")
    e = parts[0]
    for p in parts[1:]:
        e = ("bin", op, e, p)
    return e


def substitute(e, values):
    """e with ('sh', i) replaced by values[i]."""
    if e[0] == "sh":
        return values[e[1]]
    if e[0] == "not":
        return ("not", substitute(e[1], values))
    if e[0] == "bin":
        return ("bin", e[1], substitute(e[2], values), substitute(e[3], values))
    return e


class Var:
    """A shared variable: kind 'bool' or 'int' (range lo..hi); init None: any
    value. c_path: the C object it stands for ("s.x", "q[1]"), its name when
    None. ctype: its C type under --int c (a name in CTYPES), else None."""
    def __init__(self, name, kind, hi=1, init=None, c_path=None, lo=0, ctype=None):
        self.name, self.kind, self.hi, self.init, self.c_path = name, kind, hi, init, c_path
        self.lo, self.ctype = lo, ctype

    def domain(self):
        return [0, 1] if self.kind == "bool" else list(range(self.lo, self.hi + 1))

    def in_range(self, v):
        return self.lo <= v <= self.hi or self.kind == "bool"  # bools are stored as 0/1, always in range

    def spec_type(self):
        return "bool" if self.kind == "bool" else "int[%d..%d]" % (self.lo, self.hi)

    def value_text(self, v):
        return ("true" if v else "false") if self.kind == "bool" else str(v)

    def c_initial(self):
        """The C initializer's text: the value chosen for C's start (c_start,
        one the system's init predicate allows), else the spec's initial
        value, or 0 (C's default) when any value may start (conform checks
        that they agree)."""
        start = getattr(self, "c_start", None)
        if start is not None:
            return self.value_text(start)
        return self.value_text(self.init if self.init is not None else 0)


def is_bool(e, vars):
    if e[0] == "sh":
        return vars[e[1]].kind == "bool"
    return e[0] in ("tf", "not") or e[0] == "bin" and e[1] not in ARITH


def stored(vars, i, E):
    """E as the value variable i holds after `i = E` in C: an int stored in a
    C bool is E != 0."""
    if vars[i].kind == "bool" and not is_bool(E, vars):
        return ("bin", "!=", E, ("num", 0))
    return E


# ---------------------------------------------------------------- random expressions

class ExprGen:
    """Random well-typed expressions over the shared variables self.vars
    (a list of Var), the locals passed in, and small numbers."""
    def __init__(self, r, vars):
        self.r, self.vars = r, vars

    def chance(self, p):
        return self.r.random() < p

    def ivars(self):
        return [i for i, v in enumerate(self.vars) if v.kind == "int"]

    def bvars(self):
        return [i for i, v in enumerate(self.vars) if v.kind == "bool"]

    def int_expr(self, locs, depth=1):
        if depth <= 0 or self.chance(0.5):
            r = self.r.random()
            if self.ivars() and r < 0.45:
                return ("sh", self.r.choice(self.ivars()))
            if locs and r < 0.7:
                return ("loc", self.r.choice(locs))
            return ("num", self.r.choice([0, 1, 1, 2, 3]))
        r = self.r.random()
        if r < 0.75:
            return ("bin", self.r.choice(["+", "-", "+", "*"]), self.int_expr(locs, depth - 1), self.int_expr(locs, depth - 1))
        return ("bin", self.r.choice(["/", "%"]), self.int_expr(locs, depth - 1), ("num", self.r.choice([2, 3])))

    def compare(self, locs):
        op = self.r.choice(["==", "!=", "<", "<=", ">", ">="])
        for _ in range(5):  # rather about some variable than constant
            a = self.int_expr(locs, 1)
            if mentions(a, "sh") or mentions(a, "loc"):
                break
        b = ("num", self.r.randint(0, 3)) if self.chance(0.6) else self.int_expr(locs, 0)
        return ("bin", op, a, b)

    def bool_expr(self, locs, depth=1):
        if depth <= 0 or self.chance(0.5):
            if self.bvars() and self.chance(0.4):
                v = ("sh", self.r.choice(self.bvars()))
                return ("not", v) if self.chance(0.4) else v
            if not self.ivars() and not locs:
                return ("tf", self.chance(0.5))
            return self.compare(locs)
        r = self.r.random()
        if r < 0.7:
            return ("bin", self.r.choice(["&&", "||"]), self.bool_expr(locs, depth - 1), self.bool_expr(locs, depth - 1))
        return ("not", self.bool_expr(locs, depth - 1))

    def likely(self, make, ratio):
        """An expression from make() that holds in at least ratio of the shared
        states (tried a few times; expressions over locals or elements are taken as
        they are)."""
        gs = list(itertools.product(*[v.domain() for v in self.vars]))
        for _ in range(8):
            e = make()
            if mentions(e, "loc") or mentions(e, "elem") or sum(1 for g in gs if self.holds_in(e, g)) >= ratio * len(gs):
                return e
        return e

    def holds_in(self, e, g):
        """Does e (over shared variables only) hold in g?"""
        return ev(e, g)

    def local_value(self, locs):
        """A value for a local: finite because it reads only shared variables and
        numbers, or is taken % 4."""
        e = self.int_expr(locs, 1)
        if mentions(e, "loc"):
            e = ("bin", "%", e, ("num", 4))
        return e

    def shared_value(self, i, locs):
        v = self.vars[i]
        if v.kind == "bool":
            r = self.r.random()
            if r < 0.25:
                return ("not", ("sh", i))
            if r < 0.45:
                return ("tf", self.chance(0.5))
            if r < 0.55:
                return self.int_expr(locs, 1)  # an int stored in a C bool: v != 0
            return self.bool_expr(locs, 1)
        r = self.r.random()
        if r < 0.35:
            return ("bin", self.r.choice(["+", "-", "+"]), ("sh", i), ("num", 1))
        if r < 0.6:
            return ("num", self.r.randint(v.lo, v.hi))
        if r < 0.7:
            return ("bin", "%", self.int_expr(locs, 1), ("num", v.hi + 1))
        return self.int_expr(locs, 1)


# ---------------------------------------------------------------- C text

def atomic_form(s):
    return s[2] if len(s) > 2 else "block"


def assignment(s, names):
    """The C text of ('set', target, E): "t = E;", or for an element target
    "t += X;", "t++;" when E is t + X (t - X, t * X likewise)."""
    t, e = show(s[1], names, False), s[2]
    if s[1][0] == "elem" and e[0] == "bin" and e[2] == s[1] and e[1] in ("+", "-", "*"):
        if e[3] == ("num", 1) and e[1] != "*":
            return "%s%s;" % (t, e[1] * 2)
        return "%s %s= %s;" % (t, e[1], show(e[3], names, False))
    return "%s = %s;" % (t, show(e, names, False))


def declaration(ctype, name):
    """"int x", "unsigned char x", "int *p"."""
    return ctype + name if ctype.endswith("*") else ctype + " " + name


def global_declaration(v, c_bool):
    """The C declaration of shared variable v with its initializer: a mutex
    (v.mutex) is a pthread_mutex_t, initially free."""
    if getattr(v, "mutex", False):
        return "pthread_mutex_t %s = PTHREAD_MUTEX_INITIALIZER;" % v.name
    return "%s = %s;" % (declaration(v.ctype or ("int" if v.kind == "int" else c_bool), v.name), v.c_initial())


def c_text(vars, functions, c_bool="_Bool", lines=None, globals_text=None, local_types=None):
    """The C file: the globals (globals_text, a function giving the lines, or
    one declaration per variable, initialized as the spec says), then each
    (name, statements[, parameter]) of functions in order, each
    __VERIFIER_atomic_ function before its first use. lines (a dict), when
    given, gets id(statement) -> its line. local_types: each local's C type
    (int when not given); a Var's ctype, when set, is its global's."""
    if lines is None:
        lines = {}
    local_types = local_types or {}
    names = [v.c_path or v.name for v in vars]
    pointers = any(t.endswith("*") for t in local_types.values())
    out = ["#include <athread.h>"] + (["#include <stddef.h>"] if pointers else []) + \
        (["#include <pthread.h>"] if any(getattr(v, "mutex", False) for v in vars) else []) + [""]
    if globals_text is None:
        lines_ = [global_declaration(v, c_bool) for v in vars]
    else:
        lines_ = globals_text()
    out.extend(lines_)
    out.append("")
    printed = set()

    def cond(c):
        return "*" if c is None else show(c, names, False)

    def block(stmts, ind):
        for s in stmts:
            one(s, ind)

    def atomic_functions(stmts):
        for s in stmts:
            for x in s[1:]:
                if isinstance(x, list):
                    atomic_functions(x)
            if s[0] == "atomic" and atomic_form(s).startswith("fn:") and atomic_form(s) not in printed:
                printed.add(atomic_form(s))
                function("__VERIFIER_atomic_" + atomic_form(s)[3:], s[1])

    def one(s, ind):
        p = "  " * ind
        k = s[0]
        lines[id(s)] = len(out) + 1
        if k == "decl" and len(s) == 2:
            out.append("%s%s;" % (p, declaration(local_types.get(s[1], "int"), s[1])))
        elif k == "decl":
            out.append("%s%s = %s;" % (p, declaration(local_types.get(s[1], "int"), s[1]), show(s[2], names, False)))
        elif k == "set":
            out.append(p + assignment(s, names))
        elif k == "nondet_mod":
            out.append("%s%s = nondet() %% 4;" % (p, s[1]))
        elif k == "nondet_range":
            out.append("%s%s = nondet();" % (p, s[1]))
            out.append("%sassume(%s >= %d && %s <= %d);" % (p, s[1], s[2], s[1], s[3]))
        elif k == "nondet_sh":
            v = vars[s[1]]
            out.append("%s%s = %s();" % (p, names[s[1]], "__VERIFIER_nondet_bool" if v.kind == "bool" else "__VERIFIER_nondet_int"))
        elif k in ("assume", "await", "assert"):
            out.append("%s%s(%s);" % (p, k, show(s[1], names, False)))
        elif k == "if":
            out.append("%sif (%s) {" % (p, cond(s[1])))
            block(s[2], ind + 1)
            if s[3]:
                out.append("%s} else {" % p)
                block(s[3], ind + 1)
            out.append("%s}" % p)
        elif k == "while":
            out.append("%swhile (%s) {" % (p, cond(s[1])))
            block(s[2], ind + 1)
            out.append("%s}" % p)
        elif k == "atomic":
            form = atomic_form(s)
            if form == "block":
                out.append("%satomic {" % p)
                block(s[1], ind + 1)
                out.append("%s}" % p)
            elif form == "begin_end":
                out.append("%s__VERIFIER_atomic_begin();" % p)
                block(s[1], ind)
                out.append("%s__VERIFIER_atomic_end();" % p)
            else:
                out.append("%s__VERIFIER_atomic_%s();" % (p, form[3:]))
        elif k == "call":
            out.append("%s%s(%s);" % (p, s[1], show(s[3], names, False) if len(s) > 2 else ""))
        elif k in ("lock", "unlock"):
            out.append("%spthread_mutex_%s(&%s);" % (p, k, names[s[1]]))
        elif k == "cas" and s[5] == "sync":
            out.append("%s%s = __sync_bool_compare_and_swap(&%s, %s, %s);"
                       % (p, s[1], names[s[2]], show(s[3], names, False), show(s[4], names, False)))
        elif k == "cas":
            out.append("%s%s = __atomic_compare_exchange_n(&%s, &%s, %s, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);"
                       % (p, s[1], names[s[2]], s[3][1], show(s[4], names, False)))
        elif k == "fetch_add":
            out.append("%s%s = __atomic_fetch_add(&%s, %d, __ATOMIC_SEQ_CST);" % (p, s[1], names[s[2]], s[3]))
        elif k == "return":
            out.append("%sreturn;" % p)
        elif k != "probe":
            raise ValueError(k)

    def function(name, stmts, param="void"):
        out.append("void %s(%s) {" % (name, param))
        block(stmts, 1)
        out.append("}")
        out.append("")

    for f in functions:
        atomic_functions(f[1])
    for f in functions:
        function(*f)
    return "\n".join(out[:-1]) + "\n"


# ---------------------------------------------------------------- concrete steps

class AssertFails(Exception):
    """An assert inside an atomic step fails: the statement, and the values there."""
    def __init__(self, stmt, g, L):
        Exception.__init__(self, "assert fails inside a step")
        self.stmt, self.g, self.L = stmt, g, L


class Code:
    """One thread function as a control-flow graph whose nodes are steps and
    checks (node 0 is the thread's exit), and the meaning of each step.

    Nodes: ('exit',) ('cond', C, yes, no) ('assert', C, next) ('probe', k, next)
    ('step', statement, next) ('havoc_local', x, next) ('assume_range', x, lo, hi, next).
    Calls are inlined. lines (id(statement) -> line, from c_text) names the
    line of each node in node_line. probe(k, g, L), when given, is told the
    values at every probe passed inside a step. atomicity: "statement" or
    "access" (see the module's doc). sem: the integers' semantics, MATH or
    a CSem; the evaluation of undefined behaviour raises a CFault."""
    def __init__(self, vars, body, functions=None, lines=None, probe=None, atomicity="statement", sem=None):
        self.vars, self.functions = vars, functions or {}
        self.sem = sem or MATH
        self.access = atomicity == "access"
        self.lines, self.node_line = lines or {}, {}
        self.probe = probe
        self.nodes = [("exit",)]
        self.entry = self.compile(body, 0, 0)

    def new(self, node):
        self.nodes.append(node)
        return len(self.nodes) - 1

    def compile(self, stmts, nxt, ret):
        for s in reversed(stmts):
            nxt = self.compile_one(s, nxt, ret)
        return nxt

    def compile_one(self, s, nxt, ret):
        n = self.compile_node(s, nxt, ret)
        line = self.lines.get(id(s))
        if line is not None and self.own_node(s):
            self.node_line[n] = line
            if s[0] == "nondet_range":
                self.node_line[self.nodes[n][2]] = line + 1
        return n

    @staticmethod
    def own_node(s):
        """Does s compile to a node of its own (at its line)? Not a return, a
        probe, a call without argument, or a declaration without initializer."""
        if s[0] in ("return", "probe"):
            return False
        return len(s) > 2 if s[0] in ("call", "decl") else True

    def compile_node(self, s, nxt, ret):
        k = s[0]
        if k == "decl" and len(s) == 2:
            return nxt  # no initializer: no step; the local starts with any value
        if k == "if":
            return self.new(("cond", s[1], self.compile(s[2], nxt, ret), self.compile(s[3], nxt, ret)))
        if k == "while":
            w = self.new(None)
            self.nodes[w] = ("cond", s[1], self.compile(s[2], w, ret), nxt)
            return w
        if k == "call" and len(s) > 2:  # NAME(arg): passing the argument is a step, then the body
            body = self.compile(self.functions[s[1]], nxt, nxt)
            return self.new(("step", ("decl", s[2], s[3]), body))
        if k == "call":
            return self.compile(self.functions[s[1]], nxt, nxt)
        if k == "return":
            return ret
        if k == "assert":
            return self.new(("assert", s[1], nxt))
        if k == "probe":
            return self.new(("probe", s[1], nxt))
        if k == "nondet_range":
            return self.new(("havoc_local", s[1], self.new(("assume_range", s[1], s[2], s[3], nxt))))
        return self.new(("step", s, nxt))

    def store(self, g, L, target, v):
        """(g, L) after target = v, converted to the target's type (a C bool stores v != 0)."""
        if target[0] == "sh":
            i = target[1]
            v = self.sem.stored(self.vars[i].ctype or self.vars[i].kind, v)
            return g[:i] + (v,) + g[i + 1:], L
        if self.sem is not MATH:
            v = self.sem.stored(self.sem.local_types[target[1]], v)
        L = dict(L)
        L[target[1]] = v
        return g, L

    def run(self, stmts, g, L, fails=None):
        """Outcomes [(g, L)] of a loop-free statement list run without
        interruption (an atomic section, or one simple statement). An assert
        that fails on the values where it stands raises AssertFails, an index
        outside its array OutOfBounds, or, when a list fails is given, either
        is appended to it and ends that run alone."""
        outs = [(g, L)]
        for s in stmts:
            nxt = []
            for g1, L1 in outs:
                try:
                    nxt.extend(self.run_one(s, g1, L1, fails))
                except CFault as x:
                    if fails is None:
                        raise
                    fails.append(x)
            outs = nxt
        return outs

    def run_one(self, s, g, L, fails=None):
        k = s[0]
        if k in ("set", "decl"):
            target = self.cell(s[1] if k == "set" else ("loc", s[1]), g, L)
            return [self.store(g, L, target, self.sem.ev(s[2], g, L))]
        if k == "nondet_mod":
            return [self.store(g, L, ("loc", s[1]), v) for v in range(-3, 4)]
        if k == "nondet_sh":
            v = self.vars[s[1]]
            # any int: the values in range, and one outside it (in the
            # generated programs every value outside the range leaves it alike)
            vals = [0, 1] if v.kind == "bool" else list(range(v.lo, v.hi + 2))
            return [self.store(g, L, ("sh", s[1]), x) for x in vals]
        if k in ("assume", "await"):
            return [(g, L)] if self.sem.ev(s[1], g, L) else []
        if k == "assert":
            if self.sem.ev(s[1], g, L):
                return [(g, L)]
            if fails is None:
                raise AssertFails(s, g, L)
            fails.append(AssertFails(s, g, L))
            return []
        if k == "probe":
            if self.probe:
                self.probe(s[1], g, L)
            return [(g, L)]
        if k == "if":
            outs = []
            c = s[1] is None or self.sem.ev(s[1], g, L)
            if c:
                outs += self.run(s[2], g, L, fails)
            if s[1] is None or not c:
                outs += self.run(s[3], g, L, fails)
            return outs
        if k == "atomic":
            return self.run(s[1], g, L, fails)
        if k in ("lock", "unlock", "cas", "fetch_add"):
            return self.primitive(s, g, L)
        if k == "call":
            return self.run(self.functions[s[1]], g, L, fails)
        raise ValueError("not allowed in an atomic section: %s" % k)

    def primitive(self, s, g, L):
        """The outcomes [(g, L)] of a lock, unlock, compare-and-swap or
        fetch-and-add: one step each, at every atomicity."""
        k = s[0]
        if k in ("lock", "unlock"):
            return [] if k == "lock" and g[s[1]] else [self.store(g, L, ("sh", s[1]), int(k == "lock"))]
        if k == "fetch_add":
            g2, L2 = self.store(g, L, ("sh", s[2]), g[s[2]] + s[3])
            return [self.store(g2, L2, ("loc", s[1]), g[s[2]])]
        if g[s[2]] == self.sem.ev(s[3], g, L):
            g2, L2 = self.store(g, L, ("sh", s[2]), self.sem.ev(s[4], g, L))
            return [self.store(g2, L2, ("loc", s[1]), 1)]
        if s[5] == "atomic":
            L = self.store(g, L, s[3], g[s[2]])[1]
        return [self.store(g, L, ("loc", s[1]), 0)]

    # ---- --atomicity access
    def plan(self, s):
        """(the expression whose accesses a statement reads, where its in-place
        accesses start or None when it stays as it is, the elementary write's
        target or None). None for a statement that is never split."""
        k = s[0]
        if not self.access or k not in ("set", "decl", "assume", "await", "assert", "cond"):
            return None
        if k in ("assume", "await", "assert", "cond"):
            return (s[1], None if s[1] is None else first_in_place(s[1], False), None)
        target = s[1] if k == "set" else ("loc", s[1])
        e = s[2]
        if target[0] == "elem":  # the index is read first; a[i] op= X reads the element at that index
            e = ("bin", "+", target[2], e if not self.compound(s) else ("bin", "+", ("elem", target[1], ("num", 0)), e[3]))
        return (e, first_in_place(e, target[0] != "loc"), target)

    @staticmethod
    def compound(s):
        """Is s printed as a[i] op= X (a[i]++), which reads a[i] at the index of its write?"""
        t, e = s[1], s[2]
        return t[0] == "elem" and e[0] == "bin" and e[2] == t and e[1] in ("+", "-", "*")

    def holds_all(self, c, g, L, dom, fails=None):
        """Does assert(c) hold on every run (loads from dom)? An index outside
        its array raises OutOfBounds, or, with a list fails, is appended to it
        (and that run left out)."""
        p = self.plan(("assert", c))
        lo = p[1] if p else None
        if lo is not None:
            return all(values(c, g, L, lo, dom, 0, fails, self.sem))
        try:
            return bool(self.sem.ev(c, g, L))
        except CFault as x:
            if fails is None:
                raise
            fails.append(x)
            return True

    def truths(self, c, g, L, dom, fails=None):
        """The truth values condition c may have (loads from dom; an index
        outside its array as in values(), but raised when c is not split)."""
        lo = first_in_place(c, False) if self.access else None
        if lo is None:
            return {bool(self.sem.ev(c, g, L))}
        return {bool(v) for v in values(c, g, L, lo, dom, 0, fails, self.sem)}

    def split_outcomes(self, s, g, L, dom, lo, fails=None):
        """[(g', L')] of statement s split at its accesses (all numbered below lo
        loaded); an index outside its array (any CFault) as in values()."""
        k, sem = s[0], self.sem
        if k in ("assume", "await"):
            return [(g, L)] if any(values(s[1], g, L, lo, dom, 0, fails, sem)) else []
        target = s[1] if k == "set" else ("loc", s[1])
        if target[0] not in ("elem", "deref"):
            return [self.store(g, L, target, v) for v in sorted(values(s[2], g, L, lo, dom, 0, fails, sem))]
        outs = []
        xs = values(target[2], g, L, lo, dom, 0, fails, sem) if target[0] == "elem" else {None}
        for x in sorted(xs, key=lambda x: -1 if x is None else x):
            try:
                i = self.cell(target if x is None else ("elem", target[1], ("num", x)), g, L)[1]
                if self.compound(s):
                    vs = set()
                    for a in dom(i):
                        for b in values(s[2][3], g, L, lo, dom, 0, fails, sem):
                            vs.add(sem.binop(s[2], a, b))
                else:
                    vs = values(s[2], g, L, lo, dom, 0, fails, sem)
            except CFault as f:
                if fails is None:
                    raise
                fails.append(f)
                continue
            outs += [self.store(g, L, ("sh", i), v) for v in sorted(vs)]
        return outs

    def cell(self, target, g, L):
        """The target ('sh', i) that an element or *p target names, ('loc', x) or ('sh', i) as it is."""
        if target[0] == "elem":
            return ("sh", element(target, g, L, self.sem.ev))
        if target[0] == "deref":
            return ("sh", pointee(target[1], L))
        return target

    def step(self, node, g, L, dom=None):
        """[(g', L', next node)] of the step at node from (g, L); raises
        AssertFails when an assert inside it fails. dom(i): the values a load
        of variable i may read (--atomicity access)."""
        k = node[0]
        if k == "cond":
            c = node[1]
            vals = {True, False} if c is None else self.truths(c, g, L, dom)
            outs = []
            if True in vals:
                outs.append((g, L, node[2]))
            if False in vals:
                outs.append((g, L, node[3]))
            return outs
        if k == "havoc_local":
            return [(g, dict(L, **{node[1]: None}), node[2])]
        if k == "assume_range":
            return [(g, dict(L, **{node[1]: v}), node[4]) for v in range(node[2], node[3] + 1)]
        if k == "step":
            p = self.plan(node[1])
            if p is not None and p[1] is not None:
                return [(g2, L2, node[2]) for g2, L2 in self.split_outcomes(node[1], g, L, dom, p[1])]
            return [(g2, L2, node[2]) for g2, L2 in self.run_one(node[1], g, L)]
        raise ValueError(k)
