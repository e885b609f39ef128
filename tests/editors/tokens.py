#!/usr/bin/env python3
# tests/editors/tokens.py -- the independent tokenizer of tests/editors.sh.
#
# tokens.py FILE... | tokens.py --keywords (lexer.l's keywords, one a line)
#
# Reads .athread files the way spec-lang/lexer.l does (longest match, the
# same token set; the keywords are read from lexer.l itself, so a keyword
# added there and not here, or not in the grammars, fails the test) and
# writes, for every token, the Vim syntax group and the TextMate scope that
# editors/vim and editors/vscode must give it:
#
#   FILE<TAB>LINE<TAB>COL<TAB>LEN<TAB>KIND<TAB>VIM-GROUP-REGEX<TAB>TM-SCOPE
#
# LINE and COL count from 1, COL and LEN in bytes (as Vim's col() does). A
# comment or label spanning lines is one row per line. Whitespace outside
# comments and labels gets no row: it must get no group (Vim) and no scope
# but the file's (TextMate), which the checkers test too.
#
# Highlighting rules that are not the lexer's (the grammars apply them on one
# line, which is where athread fmt puts them):
#   - a name directly before '->' (spaces or tabs between) and the name
#     directly after it are state names, and so is the name after '@';
#   - the names after 'state' up to ';', '}' or 'assert' are state names;
#   - the name after 'thread', 'system' or 'implements' on the same line is
#     a thread or system name;
#   - the C path after 'binds' on the same line is a binding (keywords in it
#     are names, as in the lexer);
#   - a primed keyword shows the keyword as a keyword and its prime as an
#     error (the lexer reports the whole 'tid'' as the error);
#   - an unterminated /* comment is a comment to the end of the file (the
#     lexer reports it at the '/*').
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# keyword -> (Vim group, TextMate scope). Every keyword of lexer.l must be here.
KEYWORDS = {
    "const": ("athreadStorage", "storage.modifier.const.athread"),
    "shared": ("athreadStorage", "storage.modifier.shared.athread"),
    "thread": ("athreadStructure", "storage.type.thread.athread"),
    "system": ("athreadStructure", "storage.type.system.athread"),
    "state": ("athreadStructure", "storage.type.state.athread"),
    "implements": ("athreadStructure", "keyword.other.implements.athread"),
    "binds": ("athreadStructure", "keyword.other.binds.athread"),
    "init": ("athreadProperty", "keyword.other.init.athread"),
    "assert": ("athreadProperty", "keyword.other.assert.athread"),
    "invariant": ("athreadProperty", "keyword.other.invariant.athread"),
    "when": ("athreadConditional", "keyword.control.when.athread"),
    "do": ("athreadConditional", "keyword.control.do.athread"),
    "forall": ("athreadQuantifier", "keyword.other.quantifier.forall.athread"),
    "exists": ("athreadQuantifier", "keyword.other.quantifier.exists.athread"),
    "in": ("athreadQuantifier", "keyword.other.quantifier.in.athread"),
    "int": ("athreadType", "storage.type.primitive.int.athread"),
    "bool": ("athreadType", "storage.type.primitive.bool.athread"),
    "true": ("athreadBoolean", "constant.language.boolean.true.athread"),
    "false": ("athreadBoolean", "constant.language.boolean.false.athread"),
    "count": ("athreadBuiltin", "support.function.builtin.count.athread"),
    "tid": ("athreadTid", "variable.language.tid.athread"),
}

# Operators and punctuation, longest first (lexer.l's rules).
OPERATORS = [
    ("<==>", "athreadOperator", "keyword.operator.logical.athread"),
    ("==>", "athreadOperator", "keyword.operator.logical.athread"),
    ("->", "athreadArrow", "keyword.operator.arrow.athread"),
    (":=", "athreadOperator", "keyword.operator.assignment.athread"),
    ("==", "athreadOperator", "keyword.operator.comparison.athread"),
    ("!=", "athreadOperator", "keyword.operator.comparison.athread"),
    ("<=", "athreadOperator", "keyword.operator.comparison.athread"),
    (">=", "athreadOperator", "keyword.operator.comparison.athread"),
    ("&&", "athreadOperator", "keyword.operator.logical.athread"),
    ("||", "athreadOperator", "keyword.operator.logical.athread"),
    ("..", "athreadOperator", "keyword.operator.range.athread"),
    ("!", "athreadOperator", "keyword.operator.logical.athread"),
    ("<", "athreadOperator", "keyword.operator.comparison.athread"),
    (">", "athreadOperator", "keyword.operator.comparison.athread"),
    ("+", "athreadOperator", "keyword.operator.arithmetic.athread"),
    ("-", "athreadOperator", "keyword.operator.arithmetic.athread"),
    ("*", "athreadOperator", "keyword.operator.arithmetic.athread"),
    ("/", "athreadOperator", "keyword.operator.arithmetic.athread"),
    ("%", "athreadOperator", "keyword.operator.arithmetic.athread"),
    ("=", "athreadOperator", "keyword.operator.assignment.athread"),
    ("?", "athreadOperator", "keyword.operator.ternary.athread"),
    (":", "athreadOperator", "punctuation.separator.colon.athread"),
    ("@", "athreadOperator", "keyword.operator.at.athread"),
    (";", "athreadDelimiter", "punctuation.terminator.statement.athread"),
    (",", "athreadDelimiter", "punctuation.separator.comma.athread"),
    ("{", "athreadDelimiter", "punctuation.section.braces.athread"),
    ("}", "athreadDelimiter", "punctuation.section.braces.athread"),
    ("[", "athreadDelimiter", "punctuation.section.brackets.athread"),
    ("]", "athreadDelimiter", "punctuation.section.brackets.athread"),
    ("(", "athreadDelimiter", "punctuation.section.parens.athread"),
    (")", "athreadDelimiter", "punctuation.section.parens.athread"),
]

ERROR = "Error$"
COMMENT_LINE = ("^athread\\(LineComment\\|Todo\\)$", "comment.line.double-slash.athread")
COMMENT_BLOCK = ("^athread\\(BlockComment\\|Todo\\)$", "comment.block.athread")

IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
CPATH = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[[0-9]+\])*")
NUMBER = re.compile(rb"[0-9]+[A-Za-z0-9_]*")
HEX = re.compile(rb"0[xX][0-9A-Fa-f]+")
SPACES = b" \t\r\f\v\n"


def lexer_keywords():
    """The keywords spec-lang/lexer.l has a rule for: lines like "word" TOK(KW_..)."""
    text = (ROOT / "spec-lang" / "lexer.l").read_text()
    return set(re.findall(r'^"([a-z]+)"\s+(?:\{ BEGIN\(CNAME\); )?TOK\(KW_', text, re.M))


class Tokens:
    def __init__(self, name, data):
        self.name, self.data, self.rows = name, data, []
        self.line_starts = [0] + [i + 1 for i, b in enumerate(data) if b == 10]

    def emit(self, start, end, kind, vim, tm):
        """One row per line of data[start:end]."""
        while start < end:
            nl = self.data.find(b"\n", start, end)
            stop = end if nl < 0 else nl
            if stop > start:
                line = self.line_of(start)
                col = start - self.line_starts[line - 1] + 1
                text = self.data[start:stop].decode("utf-8", "replace").replace("\t", " ")
                self.rows.append((self.name, line, col, stop - start, kind, vim, tm, text))
            start = stop + 1

    def line_of(self, offset):
        lo, hi = 0, len(self.line_starts)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid
        return lo + 1


def blank_between(data, a, b):
    """Only spaces and tabs in data[a:b]."""
    return all(c in b" \t" for c in data[a:b])


def tokenize(name, data, keywords):
    t = Tokens(name, data)
    i, n = 0, len(data)
    prev = None  # (kind, start, end, text) of the previous token, comments aside
    state_list = False  # inside 'state A, B, ...'
    pending_state = []  # indexes of rows of names before a possible '->'
    while i < n:
        c = data[i]
        if c in SPACES:
            i += 1
            continue
        if data.startswith(b"//", i):
            end = data.find(b"\n", i)
            end = n if end < 0 else end
            t.emit(i, end, "comment", *COMMENT_LINE)
            i = end
            continue
        if data.startswith(b"/*", i):
            end = data.find(b"*/", i + 2)
            end = n if end < 0 else end + 2
            t.emit(i, end, "comment", *COMMENT_BLOCK)
            i = end
            continue
        start = i
        if prev and prev[0] == "kw" and prev[3] == "binds" and blank_between(data, prev[2], i):
            m = CPATH.match(data, i)
            if m:
                t.emit(i, m.end(), "binding", "^athreadBinding$", "variable.other.binding.athread")
                prev = ("binding", i, m.end(), m.group())
                i = m.end()
                continue
        m = IDENT.match(data, i)
        if m:
            word = m.group().decode()
            end = m.end()
            if word in keywords:
                vim, tm = KEYWORDS[word]
                t.emit(i, end, "kw", "^%s$" % vim, tm)
                prev = ("kw", i, end, word)
                state_list = word == "state"
                if end < n and data[end] == ord("'"):
                    t.emit(end, end + 1, "error", ERROR, "invalid.illegal.prime.athread")
                    prev, i = ("error", end, end + 1, "'"), end + 1
                    continue
                i = end
                continue
            if end < n and data[end] == ord("'"):
                t.emit(i, end + 1, "primed", "^athreadPrimed$", "variable.other.primed.athread")
                prev, i = ("primed", i, end + 1, word), end + 1
                continue
            kind, vim, tm = "ident", "^$", "variable.other.athread"
            after_arrow = prev and prev[0] == "op" and prev[3] in ("->", "@") and blank_between(data, prev[2], i)
            j = end
            while j < n and data[j] in b" \t":
                j += 1
            before_arrow = data.startswith(b"->", j)
            if state_list:
                kind, vim, tm = "state", "^athreadStateName$", "entity.name.label.state.athread"
            elif after_arrow or before_arrow:
                kind, vim, tm = "state", "^athreadState$", "entity.name.label.state.athread"
            elif prev and prev[0] == "kw" and prev[3] in ("thread", "system", "implements") and blank_between(data, prev[2], i):
                kind, vim, tm = "name", "^athreadName$", "entity.name.type.athread"
            t.emit(i, end, kind, vim, tm)
            prev, i = ("ident", i, end, word), end
            continue
        if c in b"0123456789":
            m = NUMBER.match(data, i)
            h = HEX.match(data, i)
            end = m.end()
            if h and h.end() == end:
                t.emit(i, end, "number", "^athreadNumber$", "constant.numeric.hex.athread")
            elif all(ch in b"0123456789" for ch in m.group()):
                t.emit(i, end, "number", "^athreadNumber$", "constant.numeric.decimal.athread")
            else:
                t.emit(i, end, "error", ERROR, "invalid.illegal.numeric.athread")
            prev, i = ("number", i, end, m.group()), end
            state_list = False
            continue
        if c == ord('"'):
            # A label: to the closing quote on the same line.
            j = i + 1
            pieces = []  # (start, end, kind)
            run = j
            closed = False
            while j < n and data[j] != 10:
                if data[j] == ord('"'):
                    closed = True
                    break
                if data[j] == ord("\\") and j + 1 < n and data[j + 1] != 10:
                    pieces.append((run, j, "label"))
                    pieces.append((j, j + 2, "escape" if data[j + 1] in b'"\\' else "bad-escape"))
                    j += 2
                    run = j
                    continue
                j += 1
            if not closed:
                t.emit(i, j, "error", ERROR, "invalid.illegal.unterminated.athread")
                prev, i = ("error", i, j, ""), j
                continue
            t.emit(i, i + 1, "label", "^athreadLabel$", "string.quoted.double.athread")
            pieces.append((run, j + 1, "label"))
            for a, b, kind in pieces:
                if kind == "label":
                    t.emit(a, b, "label", "^athreadLabel$", "string.quoted.double.athread")
                elif kind == "escape":
                    t.emit(a, b, "escape", "^athreadEscape$", "constant.character.escape.athread")
                else:
                    t.emit(a, b, "error", ERROR, "invalid.illegal.escape.athread")
            prev, i = ("label", i, j + 1, ""), j + 1
            continue
        for text, vim, tm in OPERATORS:
            if data.startswith(text.encode(), i):
                end = i + len(text)
                t.emit(i, end, "op", "^%s$" % vim, tm)
                prev, i = ("op", i, end, text), end
                if text != ",":
                    state_list = False
                break
        else:
            if c >= 0x80:
                end = i
                while end < n and data[end] >= 0x80:
                    end += 1
                t.emit(i, end, "error", ERROR, "invalid.illegal.non-ascii.athread")
            else:
                end = i + 1
                what = "prime" if c == ord("'") else "character"
                t.emit(i, end, "error", ERROR, "invalid.illegal.%s.athread" % what)
            prev, i = ("error", start, end, ""), end
            state_list = False
    return t.rows


def main(argv):
    keywords = lexer_keywords()
    if keywords != set(KEYWORDS):
        sys.stderr.write("tokens.py: lexer.l's keywords %s differ from this table's %s\n"
                         % (sorted(keywords), sorted(KEYWORDS)))
        return 1
    out = sys.stdout
    if argv[1:] == ["--keywords"]:
        out.write("\n".join(sorted(keywords)) + "\n")
        return 0
    for path in argv[1:]:
        data = Path(path).read_bytes()
        for row in tokenize(path, data, keywords):
            out.write("\t".join(str(x) for x in row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
