#!/usr/bin/python3
"""tests/witness/check-witness.py SCHEMA WITNESS [STEP_LINE ...]

Checks a violation witness written by `athread conform --witness`:
- it parses as YAML (Debian's python3-yaml) and validates against SCHEMA
  (the format 2.0 schema beside this file; Debian's python3-jsonschema);
- what the schema states only in words: format_version "2.0", each segment
  is avoid waypoints then exactly one follow, the target ends the last
  segment and no other; every location names an input file, and its line
  and column lie in that file; a branching waypoint points at `if` or `while`;
- input_file_hashes are the files' SHA-256;
- with STEP_LINEs (the lines of the text counterexample's steps, in order):
  the assumption waypoints are at those lines and the target at the last.
Exits 1 with the reasons when any check fails.
"""
import hashlib
import sys

import jsonschema
import yaml


def segment_problems(entry):
    """The segment rules: avoid* follow, the target last and only there."""
    problems = []
    segments = entry["content"]
    for n, seg in enumerate(segments):
        actions = [w["waypoint"]["action"] for w in seg["segment"]]
        if actions[-1] != "follow" or "follow" in actions[:-1]:
            problems.append(f"segment {n + 1}: actions {actions}, not avoid* follow")
        targets = [w for w in seg["segment"] if w["waypoint"]["type"] == "target"]
        last = n + 1 == len(segments)
        if targets and not last:
            problems.append(f"segment {n + 1}: a target before the last segment")
    if segments[-1]["segment"][-1]["waypoint"]["type"] != "target":
        problems.append("the last segment does not end with the target")
    return problems


def location_problems(entry, texts):
    """Every location in an input file, inside it; branching at if/while."""
    problems = []
    for seg in entry["content"]:
        for w in seg["segment"]:
            wp = w["waypoint"]
            loc = wp["location"]
            lines = texts.get(loc["file_name"])
            if lines is None:
                problems.append(f"{loc['file_name']} is not an input file")
                continue
            if loc["line"] > len(lines):
                problems.append(f"line {loc['line']} is past the end of {loc['file_name']}")
                continue
            text = lines[loc["line"] - 1]
            col = loc.get("column", 1)
            if col > len(text):
                problems.append(f"{loc['file_name']}:{loc['line']}: column {col} is past the end of the line")
            word = text[col - 1:].split(b"(")[0].strip()
            if wp["type"] == "branching" and word not in (b"if", b"while"):
                problems.append(f"{loc['file_name']}:{loc['line']}:{col}: a branching waypoint at {word!r}")
    return problems


def hash_problems(entry):
    problems = []
    task = entry["metadata"]["task"]
    for f in task["input_files"]:
        with open(f, "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()
        if task["input_file_hashes"].get(f) != digest:
            problems.append(f"the hash of {f} is not its SHA-256 {digest}")
    return problems


def step_problems(entry, steps):
    """The assumptions at the text counterexample's step lines, the target at the last."""
    waypoints = [w["waypoint"] for seg in entry["content"] for w in seg["segment"]]
    assumed = [w["location"]["line"] for w in waypoints if w["type"] == "assumption"]
    target = waypoints[-1]["location"]["line"]
    problems = []
    if assumed != steps:
        problems.append(f"assumption lines {assumed}, the counterexample's steps are at {steps}")
    if target != steps[-1]:
        problems.append(f"target at line {target}, the failing step at {steps[-1]}")
    return problems


def main():
    schema_path, witness_path = sys.argv[1], sys.argv[2]
    steps = [int(s) for s in sys.argv[3:]]
    with open(schema_path) as fh:
        schema = yaml.safe_load(fh)
    try:
        with open(witness_path) as fh:
            doc = yaml.safe_load(fh)
    except yaml.YAMLError as e:
        sys.exit(f"{witness_path}: not YAML: {e}")
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(doc)]
    if errors:
        sys.exit(f"{witness_path}: does not validate:\n  " + "\n  ".join(errors))
    problems = []
    for entry in doc:
        meta = entry["metadata"]
        if meta["format_version"] != "2.0":
            problems.append(f"format_version {meta['format_version']!r}")
        texts = {}
        for f in meta["task"]["input_files"]:
            with open(f, "rb") as fh:  # columns count bytes
                texts[f] = fh.read().split(b"\n")
        problems += segment_problems(entry) + location_problems(entry, texts) + hash_problems(entry)
        if steps:
            problems += step_problems(entry, steps)
    if problems:
        sys.exit(f"{witness_path}:\n  " + "\n  ".join(problems))


main()
