#!/usr/bin/env python3
# tests/editors/lexer-errors.py EXPECT SPEC DIAGNOSTICS -- run by
# tests/editors.sh: the tokens tokens.py marks as errors in SPEC (rows of
# EXPECT) must be the places where athread lint reports a lexical error
# (DIAGNOSTICS, its standard error; syntax errors aside). For a primed
# keyword the grammars show the keyword as such and its prime as the error,
# so the lexer's place moves to the prime.
import re
import sys

rows = [r.rstrip("\n").split("\t") for r in open(sys.argv[1], encoding="utf-8")]
rows = [r for r in rows if r[0] == sys.argv[2]]
shown = {(int(r[1]), int(r[2])) for r in rows if r[4] == "error"}
keyword_length = {(int(r[1]), int(r[2])): int(r[3]) for r in rows if r[4] == "kw"}
told = set()
for line in open(sys.argv[3], encoding="utf-8", errors="replace"):
    m = re.match(r"[^:]*:(\d+):(\d+): error: (.*)", line)
    if not m or "expected" in m.group(3):
        continue
    at = (int(m.group(1)), int(m.group(2)))
    if "keyword cannot be primed" in m.group(3):
        at = (at[0], at[1] + keyword_length.get(at, 0))
    told.add(at)
if not told or shown != told:
    print("only the lexer's: %s; only tokens.py's: %s" % (sorted(told - shown), sorted(shown - told)))
    sys.exit(1)
