#!/usr/bin/env python3
"""tests/oracle/gen-race.py -- random pthread programs and their data races.

  gen-race.py SEED [--count N]   prints the C program of each seed SEED..SEED+N-1
                                 (with --count > 1 each is preceded by a
                                 "/* seed N */" line)
  gen-race.py SEED --count N --out DIR
                                 writes the program of each seed S to DIR/pS.c
  gen-race.py SEED --verdict [--count N] [--witness]
                                 prints one line per program:
                                   SEED VERDICT STATES
                                 VERDICT is "race" or "no-race", STATES the
                                 states the exhaustive search visited. With
                                 --witness a race line is followed by
                                   witness: T@LINE:COL ... (the schedule prefix,
                                   one step per entry, thread T = 0 is main)
                                   access: T KIND LOC LINE:COL ATOMIC
                                   access: T KIND LOC LINE:COL ATOMIC
                                 (KIND r or w, ATOMIC atomic or plain).
  gen-race.py --self-test        checks hand-written programs of known verdict

The verdict is an oracle for `athread races` (issue 20): it shares no code
with athread and never parses C. It searches the generator's own program
representation at access granularity: each shared access, lock, unlock,
create and join is one step, local computation is folded in. A data race is a
reachable state where two threads each have as their next step an access to
the same location (variable, struct field, array element), at least one a
write, not both atomic. Exhaustive DFS, no partial-order reduction, a visited
set of states. Python 3 standard library only.
"""
import os
import random
import sys

LOCS = ["g0", "g1", "arr[0]", "arr[1]", "arr[2]", "s.a", "s.b", "flag"]


def acc(kind, loc, atomic=False, idx_var=False):
    """An access node; `pos` (line, col) is filled in when the C is rendered."""
    return {"op": "acc", "kind": kind, "loc": loc, "atomic": atomic,
            "idx_var": idx_var, "pos": None}


def lock(m):
    return {"op": "lock", "m": m}


def unlock(m):
    return {"op": "unlock", "m": m}


def branch(then, other):
    """if (atomic load of flag) then else other: the load is a step, and the
    branch taken depends on the value, so locking is path-sensitive."""
    return {"op": "if", "cond": acc("r", "flag", atomic=True),
            "then": then, "else": other}


# ---------------------------------------------------------------- generator

def gen_access(rng, m, locked):
    """One access; unlocked accesses are more often atomic or to a
    thread's own part so that about half of the programs are race-free."""
    loc = rng.choice(LOCS[:7])
    kind = rng.choice("rw")
    atomic = loc in ("g1",) and rng.random() < 0.5 and not locked
    a = acc(kind, loc, atomic)
    if loc.startswith("arr") and rng.random() < 0.3:
        a["idx_var"] = True
    return a


def gen_region(rng, nlocks, drop):
    """A locked region of 1-2 accesses; with probability `drop` the lock is
    forgotten (the usual bug)."""
    m = rng.randrange(nlocks)
    body = [gen_access(rng, m, True) for _ in range(rng.randint(1, 2))]
    if rng.random() < drop:
        return body
    return [lock(m)] + body + [unlock(m)]


def gen_thread(rng, nlocks, drop):
    """A worker: 1-2 blocks, each a locked region, a branch or a flag store."""
    out = []
    for _ in range(rng.randint(1, 2)):
        r = rng.random()
        if r < 0.6:
            out += gen_region(rng, nlocks, drop)
        elif r < 0.85:
            out.append(branch(gen_region(rng, nlocks, drop),
                              gen_region(rng, nlocks, drop * 2)))
        else:
            out.append(acc("w", "flag", atomic=rng.random() < 0.9))
    return out


def gen_main_part(rng):
    """Main's own accesses before create / after join: ordered by
    happens-before, so they must never be reported."""
    return [acc(rng.choice("rw"), rng.choice(LOCS[:7]))
            for _ in range(rng.randint(0, 2))]


def generate(seed):
    """A program: main's prologue, 2-3 workers, optional joins and epilogue."""
    rng = random.Random(seed)
    nlocks = rng.randint(1, 2)
    drop = rng.choice([0.0, 0.1, 0.2, 0.4])
    workers = [gen_thread(rng, nlocks, drop) for _ in range(rng.randint(2, 3))]
    join = rng.random() < 0.7
    between = []
    if rng.random() < 0.2:
        between = gen_region(rng, nlocks, drop)
    return {"nlocks": nlocks, "workers": workers, "pre": gen_main_part(rng),
            "between": between, "join": join,
            "post": gen_main_part(rng) if join else [],
            "idx": rng.randint(0, 2)}


# ---------------------------------------------------------------- C text

class Out:
    """Lines of C with the position of each access recorded as written."""

    def __init__(self):
        self.lines = []

    def emit(self, text, node=None, col_of=None):
        self.lines.append(text)
        if node is not None:
            node["pos"] = (len(self.lines), text.index(col_of) + 1)


def c_lvalue(a, idx):
    if a["idx_var"]:
        return "arr[i]"
    return a["loc"]


def emit_acc(out, a, ind):
    lv = c_lvalue(a, None)
    if a["atomic"] and a["kind"] == "w":
        out.emit(f"{ind}__atomic_store_n(&{lv}, 1, __ATOMIC_SEQ_CST);", a, "__")
    elif a["atomic"]:
        out.emit(f"{ind}r += __atomic_load_n(&{lv}, __ATOMIC_SEQ_CST);", a, "__")
    elif a["kind"] == "w":
        out.emit(f"{ind}{lv} = 2;", a, lv)
    else:
        out.emit(f"{ind}r += {lv};", a, lv)


def emit_stmts(out, stmts, ind):
    for s in stmts:
        if s["op"] == "acc":
            emit_acc(out, s, ind)
        elif s["op"] == "lock":
            out.emit(f"{ind}pthread_mutex_lock(&m{s['m']});")
        elif s["op"] == "unlock":
            out.emit(f"{ind}pthread_mutex_unlock(&m{s['m']});")
        else:
            out.emit(f"{ind}if (__atomic_load_n(&flag, __ATOMIC_SEQ_CST)) {{",
                     s["cond"], "__")
            emit_stmts(out, s["then"], ind + "  ")
            out.emit(f"{ind}}} else {{")
            emit_stmts(out, s["else"], ind + "  ")
            out.emit(f"{ind}}}")


def uses_idx(stmts):
    for s in stmts:
        if s["op"] == "acc" and s["idx_var"]:
            return True
        if s["op"] == "if" and (uses_idx(s["then"]) or uses_idx(s["else"])):
            return True
    return False


def emit_locals(out, stmts, prog):
    out.emit("  int r = 0;")
    if uses_idx(stmts):
        out.emit(f"  int i = {prog['idx']};")


def render(prog):
    """The C text; fills in every access's (line, col)."""
    out = Out()
    for line in ["#include <pthread.h>", "", "int g0, g1, flag;", "int arr[3];",
                 "struct pair { int a; int b; } s;"]:
        out.emit(line)
    for m in range(prog["nlocks"]):
        out.emit(f"pthread_mutex_t m{m} = PTHREAD_MUTEX_INITIALIZER;")
    for t, body in enumerate(prog["workers"], 1):
        out.emit("")
        out.emit(f"static void *t{t}(void *arg)")
        out.emit("{")
        emit_locals(out, body, prog)
        out.emit("  (void)arg;")
        emit_stmts(out, body, "  ")
        out.emit("  return (void *)(long)r;")
        out.emit("}")
    render_main(out, prog)
    return "\n".join(out.lines) + "\n"


def render_main(out, prog):
    n = len(prog["workers"])
    out.emit("")
    out.emit("int main(void)")
    out.emit("{")
    out.emit(f"  pthread_t th[{n}];")
    emit_locals(out, prog["pre"] + prog["between"] + prog["post"], prog)
    emit_stmts(out, prog["pre"], "  ")
    for t in range(n):
        out.emit(f"  pthread_create(&th[{t}], 0, t{t + 1}, 0);")
    emit_stmts(out, prog["between"], "  ")
    if not prog["join"]:
        out.emit("  (void)r;")
        out.emit("  pthread_exit(0);")
    else:
        for t in range(n):
            out.emit(f"  pthread_join(th[{t}], 0);")
        emit_stmts(out, prog["post"], "  ")
        out.emit("  return r > 1000;")
    out.emit("}")


# ---------------------------------------------------------------- search

def loc_of(a, prog):
    """The memory location: a variable index is resolved (it is constant)."""
    return f"arr[{prog['idx']}]" if a["idx_var"] else a["loc"]


def compile_stmts(stmts, code):
    """Flattens statements into instructions with jumps: ('acc', node),
    ('lock', m), ('unlock', m), ('br', node, else_pc), ('jmp', pc)."""
    for s in stmts:
        if s["op"] == "acc":
            code.append(("acc", s))
        elif s["op"] in ("lock", "unlock"):
            code.append((s["op"], s["m"]))
        else:
            at = len(code)
            code.append(None)
            compile_stmts(s["then"], code)
            jmp = len(code)
            code.append(None)
            code[at] = ("br", s["cond"], len(code))
            compile_stmts(s["else"], code)
            code[jmp] = ("jmp", len(code))


def compile_prog(prog):
    """Thread 0 is main: prologue, creates, middle, joins, epilogue."""
    n = len(prog["workers"])
    main = []
    compile_stmts(prog["pre"], main)
    main += [("create", t) for t in range(1, n + 1)]
    compile_stmts(prog["between"], main)
    if prog["join"]:
        main += [("join", t) for t in range(1, n + 1)]
        compile_stmts(prog["post"], main)
    codes = [main]
    for body in prog["workers"]:
        code = []
        compile_stmts(body, code)
        codes.append(code)
    for c in codes:
        c.append(("end",))
    return codes


def skip_jumps(code, pc):
    """Jumps are local computation: folded into the step before."""
    while code[pc][0] == "jmp":
        pc = code[pc][1]
    return pc


def next_access(codes, st, t, prog):
    """Thread t's next step if it is a shared access: (node, loc, kind)."""
    pcs, _, _ = st
    if pcs[t] is None:
        return None
    ins = codes[t][pcs[t]]
    if ins[0] in ("acc", "br"):
        a = ins[1]
        return (a, loc_of(a, prog), a["kind"])
    return None


def find_race(codes, st, prog):
    """Two threads about to access one location, a write, not both atomic."""
    n = len(codes)
    nxt = [next_access(codes, st, t, prog) for t in range(n)]
    for t in range(n):
        for u in range(t + 1, n):
            a, b = nxt[t], nxt[u]
            if a and b and a[1] == b[1] and "w" in (a[2] + b[2]) \
                    and not (a[0]["atomic"] and b[0]["atomic"]):
                return (t, a), (u, b)
    return None


def step(codes, st, t, prog):
    """The successor of st when thread t moves, or None if it is blocked."""
    pcs, locks, mem = st
    pc = pcs[t]
    if pc is None:
        return None
    ins = codes[t][pc]
    op = ins[0]
    pcs, locks, mem = list(pcs), list(locks), dict(mem)
    if op == "end":
        return None
    if op == "acc":
        if ins[1]["kind"] == "w":
            mem[loc_of(ins[1], prog)] = 2 if not ins[1]["atomic"] else 1
        pc += 1
    elif op == "br":
        pc = pc + 1 if mem.get("flag", 0) else ins[2]
    elif op == "lock":
        if locks[ins[1]] is not None:
            return None
        locks[ins[1]] = t
        pc += 1
    elif op == "unlock":
        locks[ins[1]] = None
        pc += 1
    elif op == "create":
        pcs[ins[1]] = 0
        pc += 1
    elif op == "join":
        tgt = pcs[ins[1]]
        if tgt is None or codes[ins[1]][tgt][0] != "end":
            return None
        pc += 1
    pcs[t] = skip_jumps(codes[t], pc)
    return (tuple(pcs), tuple(locks), tuple(sorted(mem.items())))


def describe(codes, st, t):
    """A schedule entry: thread@line:col for an access, else thread:op."""
    ins = codes[t][st[0][t]]
    if ins[0] in ("acc", "br"):
        return "%d@%d:%d" % ((t,) + ins[1]["pos"])
    return "%d:%s%s" % (t, ins[0], "" if len(ins) < 2 else ins[1])


def search(prog):
    """Exhaustive DFS; returns (race or None, schedule, states visited)."""
    codes = compile_prog(prog)
    n = len(codes)
    init = ((0,) + (None,) * (n - 1), (None,) * prog["nlocks"], ())
    seen = {init}
    stack = [(init, [])]
    while stack:
        st, path = stack.pop()
        race = find_race(codes, st, prog)
        if race:
            return race, path, len(seen)
        for t in range(n):
            nx = step(codes, st, t, prog)
            if nx is not None and nx not in seen:
                seen.add(nx)
                stack.append((nx, path + [describe(codes, st, t)]))
    return None, [], len(seen)


def report(seed, prog, witness):
    race, path, states = search(prog)
    print(f"{seed} {'race' if race else 'no-race'} {states}")
    if race and witness:
        print("witness: " + " ".join(path))
        for t, (a, loc, kind) in race:
            print("access: %d %s %s %d:%d %s" % (
                t, kind, loc, a["pos"][0], a["pos"][1],
                "atomic" if a["atomic"] else "plain"))


def main(argv):
    if "--self-test" in argv:
        return self_test()
    seed = int(argv[1])
    count = int(argv[argv.index("--count") + 1]) if "--count" in argv else 1
    for s in range(seed, seed + count):
        prog = generate(s)
        text = render(prog)
        if "--verdict" in argv:
            report(s, prog, "--witness" in argv)
        elif "--out" in argv:
            with open(os.path.join(argv[argv.index("--out") + 1], f"p{s}.c"), "w") as f:
                f.write(text)
        else:
            if count > 1:
                print(f"/* seed {s} */")
            sys.stdout.write(text)
    return 0


# ---------------------------------------------------------------- self-test

def hand(workers, pre=(), between=(), post=(), join=True, nlocks=1, idx=0):
    return {"nlocks": nlocks, "workers": workers, "pre": list(pre),
            "between": list(between), "join": join, "post": list(post),
            "idx": idx}


def known_cases():
    """Hand-written programs and the verdict they must get."""
    L, U = lock(0), unlock(0)
    return [
        ("unprotected counter", True,
         hand([[acc("r", "g0"), acc("w", "g0")], [acc("w", "g0")]])),
        ("both under one lock", False,
         hand([[L, acc("w", "g0"), U], [L, acc("w", "g0"), U]])),
        ("one branch forgets the lock", True,
         hand([[acc("w", "flag", True),
                branch([acc("w", "g0")], [L, acc("w", "g0"), U])],
               [L, acc("w", "g0"), U]])),
        ("branch forgets the lock but is never taken", False,
         hand([[branch([acc("w", "g0")], [L, acc("w", "g0"), U])],
               [L, acc("w", "g0"), U]])),
        ("main before create and after join", False,
         hand([[acc("w", "g0")], [L, acc("r", "s.a"), U]],
              pre=[acc("w", "g0"), acc("w", "s.a")],
              post=[acc("w", "g0"), acc("r", "s.a")])),
        ("main between create and join", True,
         hand([[acc("w", "g0")], [acc("r", "g1")]], between=[acc("r", "g0")])),
        ("two atomic accesses", False,
         hand([[acc("w", "g1", True)], [acc("w", "g1", True)]])),
        ("atomic vs plain write", True,
         hand([[acc("r", "g1", True)], [acc("w", "g1")]])),
        ("distinct array elements", False,
         hand([[acc("w", "arr[0]")], [acc("w", "arr[1]")]])),
        ("same array element through i", True,
         hand([[acc("w", "arr[2]")], [acc("w", "arr[0]", idx_var=True)]],
              idx=2)),
        ("distinct struct fields", False,
         hand([[acc("w", "s.a")], [acc("w", "s.b")]])),
        ("two readers", False,
         hand([[acc("r", "g0")], [acc("r", "g0")]])),
    ]


def self_test():
    bad = 0
    for name, racy, prog in known_cases():
        render(prog)
        race, _, states = search(prog)
        ok = bool(race) == racy
        bad += not ok
        print("%s %s: %s (%d states)" % ("ok " if ok else "BAD", name,
                                         "race" if race else "no-race", states))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
