"""tests/sarif/check-flows.py NAME KIND [WANT] -- compares the --sarif log
NAME.sarif of an athread run with its --json report NAME.json. KIND is
compose, conform, check or races; WANT is "0" when the run has no violation,
"open" when its verdict is unknown, else it has violations. For races: one
result per race (races.data-race, at its first access, the trace's steps
then the two accesses as its flow), one open result per candidate left
(races.candidate) and per other reason (races.unknown). Checks that each
violation of the report is one result (ruleId: the property's ID or
"conform." and the failure's kind, named by the driver's rules), located
where the report says, with one threadFlow holding one location per step
(and per move of the other threads) in order, each at the report's line and
column (SARIF counts code points) of a real line whose text there is the
step's source state or statement. Prints what differs; exit 1 if anything."""
import json
import re
import sys
from urllib.parse import unquote

problems = []


def expect(cond, what):
    if not cond:
        problems.append(what)


def code_point_column(file, line, col):
    with open(file, "rb") as f:
        text = f.read().split(b"\n")[line - 1]
    return len(text[: col - 1].decode("utf-8")) + 1


def text_at(file, line, column_cp):
    with open(file, encoding="utf-8") as f:
        lines = f.read().split("\n")
    expect(1 <= line <= len(lines), f"{file}:{line}: no such line")
    return lines[line - 1][column_cp - 1 :] if 1 <= line <= len(lines) else ""


def check_place(loc, at, what):
    """loc: a SARIF location; at: the report's {file, line, column}."""
    phys = loc.get("physicalLocation", {})
    uri = unquote(phys.get("artifactLocation", {}).get("uri", ""))
    region = phys.get("region", {})
    expect(uri == at["file"], f"{what}: uri {uri}, report {at['file']}")
    expect(region.get("startLine") == at["line"], f"{what}: line {region.get('startLine')}, report {at['line']}")
    want = code_point_column(at["file"], at["line"], at.get("column", 1))
    expect(region.get("startColumn") == want, f"{what}: column {region.get('startColumn')}, want {want}")
    return text_at(at["file"], at["line"], want)


def flow_locations(result):
    flows = result.get("codeFlows", [])
    expect(len(flows) == 1 and len(flows[0]["threadFlows"]) == 1, "not one codeFlow of one threadFlow")
    locs = flows[0]["threadFlows"][0]["locations"] if flows else []
    expect([l["executionOrder"] for l in locs] == list(range(1, len(locs) + 1)), "executionOrder is not 1, 2, ...")
    return locs


def check_compose(report, result):
    trace = report["trace"]
    v = trace["violation"]
    want_rule = v.get("property", "compose." + v["kind"].replace(" ", "-"))
    expect(result["ruleId"] == want_rule, f"ruleId {result['ruleId']}, report {want_rule}")
    check_place(result["locations"][0], v["location"], "the violation")
    locs = flow_locations(result)
    expect(len(locs) == len(trace["steps"]), f"{len(locs)} flow locations, {len(trace['steps'])} steps")
    for loc, step in zip(locs, trace["steps"]):
        what = f"step {step['step']}"
        text = check_place(loc["location"], step["location"], what)
        expect(text.startswith(step["from"]), f"{what}: the line there is '{text}', not the edge from {step['from']}")
        msg = loc["location"]["message"]["text"]
        expect(msg == f"{step['instance']}: {step['edge_text']}", f"{what}: message '{msg}'")
        expect(loc["state"].get(step["instance"], {}).get("text") == step["to"], f"{what}: state of the instance")


def check_thread(thread, result):
    cx = thread["counterexample"]
    want_rule = "conform." + cx["failure"]["kind"].replace(" ", "-")
    expect(result["ruleId"] == want_rule, f"ruleId {result['ruleId']}, report {want_rule}")
    locs = flow_locations(result)
    steps = [l for l in locs if l["properties"]["kind"] in ("step", "check")]
    moves = [l for l in locs if l["properties"]["kind"] == "move"]
    expect(len(steps) == len(cx["steps"]), f"{len(steps)} step locations, {len(cx['steps'])} steps")
    all_moves = [m for s in cx["steps"] for m in s.get("moves", [])]
    expect(len(moves) == len(all_moves), f"{len(moves)} move locations, {len(all_moves)} moves")
    for k, (loc, step) in enumerate(zip(steps, cx["steps"]), 1):
        if "file" not in step:
            continue
        text = check_place(loc["location"], step, f"step {k}")
        word = re.match(r"\w+", step["statement"]).group(0)
        expect(text.startswith(word), f"step {k}: the line there is '{text}', not '{step['statement']}'")
        expect(loc["location"]["message"]["text"].startswith(thread["thread"] + ": "), f"step {k}: no thread named")
    for loc, move in zip(moves, all_moves):
        text = check_place(loc["location"], move["location"], move["move"])
        source = re.search(r" takes (\w+) ->", move["move"]).group(1)
        expect(text.startswith(source), f"{move['move']}: the line there is '{text}'")
    last = cx["steps"][-1]
    at = cx["failure"] if "file" in cx["failure"] else last
    check_place(result["locations"][0], {"file": at["file"], "line": at["line"], "column": at.get("column", 1)},
                "the failure")


def check_races(report, results):
    races = [c for c in report["cells"] if c["verdict"] == "race"]
    left = [c for c in report["cells"] if c["verdict"] == "unknown"]
    got = [r for r in results if r["ruleId"] == "races.data-race"]
    expect(len(got) == len(races), f"{len(got)} race results, {len(races)} races")
    opened = [r for r in results if r["ruleId"] in ("races.candidate", "races.unknown")]
    expect(len(opened) == len(left) + len(report["unknown"]), f"{len(opened)} open results")
    expect(all(r.get("kind") == "open" and r["level"] == "none" for r in opened), "an open result that is not open")
    for cell, result in zip(races, got):
        expect(result["level"] == "error", f"{cell['cell']}: level {result['level']}")
        check_place(result["locations"][0], cell["first"], f"{cell['cell']}: the first access")
        locs = flow_locations(result)
        expect(len(locs) == len(cell["trace"]) + 2, f"{cell['cell']}: {len(locs)} flow locations")
        for k, (loc, step) in enumerate(zip(locs, cell["trace"]), 1):
            if step["file"]:
                check_place(loc["location"], step, f"{cell['cell']}: step {k}")
            msg = loc["location"]["message"]["text"]
            expect(msg.startswith(f"{step['thread']}#{step['instance']}: "), f"step {k}: message '{msg}'")
        for loc, side in zip(locs[-2:], (cell["first"], cell["second"])):
            check_place(loc["location"], side, f"{cell['cell']}: an access")


def main():
    name, kind = sys.argv[1], sys.argv[2]
    want = sys.argv[3] if len(sys.argv) > 3 else "violations"
    log = json.load(open(name + ".sarif"))
    report = json.load(open(name + ".json"))
    run = log["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    results = [r for r in run["results"] if "ruleId" in r]  # (the others: the run's diagnostics)
    for r in results:
        expect(rules[r["ruleIndex"]] == r["ruleId"], f"ruleIndex {r['ruleIndex']} does not name {r['ruleId']}")
    expect(len(set(rules)) == len(rules), "a rule twice")
    if kind == "races":
        check_races(report, results)
    elif want == "0":
        expect(results == [], f"{len(results)} results of a run without violations")
    elif want == "open":
        unknown = 1 if kind == "compose" else sum(t["verdict"] == "unknown" for t in report["threads"])
        expect(len(results) == unknown, f"{len(results)} results, {unknown} unknown verdicts")
        expect(all(r.get("kind") == "open" and r["level"] == "none" and "codeFlows" not in r for r in results),
               "a result of an unknown verdict that is not of kind open and level none")
    else:
        system = report["system"] if kind == "check" else report if kind == "compose" else None
        threads = report["conform"] if kind == "check" else report if kind == "conform" else None
        failing = [t for t in (threads or {}).get("threads", []) if t["verdict"] == "does not conform"]
        unsafe = system is not None and system["verdict"] == "unsafe"
        expect(len(results) == unsafe + len(failing), f"{len(results)} results, {unsafe + len(failing)} violations")
        if unsafe and results:
            check_compose(system, results[0])
        for thread, result in zip(failing, results[unsafe:]):
            check_thread(thread, result)
    for p in problems:
        print(f"{name}: {p}")
    sys.exit(1 if problems else 0)


main()
