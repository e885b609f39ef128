#!/usr/bin/env python3
"""tests/readme/blocks.py -- runs the command blocks of a Markdown file.

A command block is a fence without a language whose first line starts with
"$ ". Each "$ " line is a command; the lines up to the next command are what
it must print (stdout and stderr together); a line "..." (indented or not)
stands for any number of lines the page leaves out. Commands run in order, in WORKDIR,
with "bin/athread" replaced by ATHREAD; files they write stay in WORKDIR, so
later blocks can read them (as a reader following the page would).
usage: blocks.py FILE.md ATHREAD WORKDIR  -- prints "readme: N passed, M failed"
"""
import difflib
import subprocess
import sys


def command_blocks(path):
    """Yields (line number, command, expected output) for every command."""
    inside, plain, lines, start = False, False, [], 0
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if line.startswith("```"):
            if inside and plain and lines and lines[0].startswith("$ "):
                yield from split_commands(start, lines)
            inside, plain, lines, start = not inside, line == "```", [], number + 1
        elif inside:
            lines.append(line)


def split_commands(start, lines):
    command = None
    for offset, line in enumerate(lines):
        if line.startswith("$ "):
            if command:
                yield command
            command = (start + offset, line[2:], [])
        else:
            command[2].append(line)
    yield command


def matches(want, got):
    """True when got is want with each "..." line replaced by zero or more lines."""
    if not want:
        return not got
    if want[0].strip() == "...":
        return any(matches(want[1:], got[skip:]) for skip in range(len(got) + 1))
    return bool(got) and want[0] == got[0] and matches(want[1:], got[1:])


def main():
    path, athread, workdir = sys.argv[1:4]
    passed = failed = 0
    for number, command, expected in command_blocks(path):
        if command.startswith("bin/athread "):
            command = athread + command[len("bin/athread"):]
        run = subprocess.run(["bash", "-c", command], cwd=workdir, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=120)
        got = run.stdout.rstrip("\n").split("\n") if run.stdout.strip() else []
        want = expected if any(expected) else []
        if matches(want, got):
            passed += 1
        else:
            failed += 1
            print("FAIL: %s:%d: %s" % (path, number, command))
            sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(want, got, "README", "athread", lineterm="", n=1))
    print("readme: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
