#!/usr/bin/env python3
"""tests/stress/gen.py KIND N FILE [KIND N FILE]... -- big inputs for
tests/stress/run.sh (one process for all: Python starts slowly under load).

  big N        N counters 0..99, one thread each: 100^N states (safe)
  hard N       like big, with an invariant broken only after 99*N steps
  chain N      one thread whose states form a chain of N
  decls N      N shared declarations
  parens N     an initializer nested N parentheses deep
  sum N        a guard that is a flat sum of N terms (a tree N deep)
  nots N       N prefix operators '!' in a row
  cspec 0      the spec for the C files below (thread T implements worker)
  cstraight N  a C function of N straight-line assignments
  cnested N    a C function of N nested ifs
  csum N       a C assignment whose right side is a flat sum of N terms
  cparens N    a C expression nested N parentheses deep
"""
import sys


def counters(n, invariant):
    out = [f"shared int[0..99] c{i} = 0;\n" for i in range(n)]
    for i in range(n):
        out.append(f"thread T{i} {{\n  init state S;\n"
                   f"  S -> S when c{i} < 99 do c{i} := c{i} + 1;\n"
                   f"  S -> S when c{i} == 99 do c{i} := 0;\n}}\n")
    out.append("system Big {\n" + "".join(f"  T{i};\n" for i in range(n)) + f"  invariant {invariant};\n}}\n")
    return "".join(out)


def text(kind, n):
    if kind == "big":
        return counters(n, "c0 >= 0")
    if kind == "hard":
        return counters(n, " + ".join(f"c{i}" for i in range(n)) + f" != {99 * n}")
    if kind == "chain":
        return ("shared int x = 0;\nthread Chain {\n  init state S0;\n"
                + "".join(f"  state S{i};\n" for i in range(1, n))
                + "".join(f"  S{i} -> S{i + 1} when true;\n" for i in range(n - 1))
                + "}\nsystem One {\n  Chain;\n}\n")
    if kind == "decls":
        return "".join(f"shared bool v{i} = false;\n" for i in range(n)) + "thread T {\n  init state S;\n  S -> S do v0 := true;\n}\n"
    if kind == "parens":
        return "shared int x = " + "(" * n + "1" + ")" * n + ";\nthread T {\n  init state S;\n}\n"
    if kind == "sum":
        return "shared int x = 0;\nthread T {\n  init state S;\n  S -> S when x < " + " + ".join(["1"] * n) + " do x := x + 1;\n}\n"
    if kind == "nots":
        return "shared bool x = " + "!" * n + "true;\nthread T {\n  init state S;\n}\n"
    if kind == "cspec":
        return "shared int g;\nthread T implements worker {\n  init state S;\n  S -> S do g := *;\n}\n"
    head = "#include <athread.h>\nint g;\nvoid worker(void) {\n"
    if kind == "cstraight":
        return head + "  g = 0;\n" + "".join(f"  g = g + {i % 7};\n" for i in range(n)) + "}\n"
    if kind == "cnested":
        return head + "  if (g > 0) {\n" * n + "  g = 1;\n" + "}\n" * n + "}\n"
    if kind == "csum":
        return head + "  g = " + " + ".join(["1"] * n) + ";\n}\n"
    if kind == "cparens":
        return head + "  g = " + "(" * n + "1" + ")" * n + ";\n}\n"
    sys.exit(f"gen.py: unknown kind '{kind}'")


def main():
    args = sys.argv[1:]
    if not args or len(args) % 3:
        sys.exit("usage: gen.py KIND N FILE [KIND N FILE]...")
    for i in range(0, len(args), 3):
        with open(args[i + 2], "w") as f:
            f.write(text(args[i], int(args[i + 1])))


main()
