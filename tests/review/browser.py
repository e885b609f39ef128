#!/usr/bin/python3
# tests/review/browser.py -- athread review's pages in headless Chromium
# (Selenium): each example's page opens from file:// with no console error
# and no http(s) src or href; on an unsafe one, stepping forward and back
# (buttons, arrow keys, slider) marks in the diagrams exactly the states the
# JSON trace gives each instance and the edge the step takes, and the changed
# shared variables. Run with Debian's /usr/bin/python3 (python3-selenium).
# Usage: tests/review/browser.py PAGE.html...   (made by athread review)
import json
import re
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)


def browser():
    o = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def data_of(path):
    page = open(path).read()
    m = re.search(r'<script type="application/json" id="review-data">(.*?)</script>', page, re.S)
    return json.loads(m.group(1).replace("<\\/", "</"))


def expected_marks(data, k):
    """The ids of the nodes marked at step k, and of the edge taken."""
    trace = data["compose"]["trace"]
    state = trace["initial"] if k == 0 else trace["steps"][k - 1]["state"]
    thread = {i["name"]: i["thread"] for i in data["instances"]}
    nodes = set()
    for inst, s in state["instances"].items():
        t = thread[inst]
        nodes.add("s_%s_%d" % (t, data["states"][t].index(s)))
    edges = set()
    if k > 0:
        step = trace["steps"][k - 1]
        edges.add("e_%s_%d" % (step["thread"], step["edge"]))
    return nodes, edges


def here_labels(data, k):
    """"NODE-ID:NAMES" for each marked node: the instances there, in system order."""
    trace = data["compose"]["trace"]
    state = trace["initial"] if k == 0 else trace["steps"][k - 1]["state"]
    at = {}
    for i in data["instances"]:
        s = state["instances"][i["name"]]
        at.setdefault("s_%s_%d" % (i["thread"], data["states"][i["thread"]].index(s)), []).append(i["name"])
    return {"%s:%s" % (node, ", ".join(names)) for node, names in at.items()}


def marks(d):
    nodes = d.execute_script("return [...document.querySelectorAll('.node.at')].map(e => e.id)")
    edges = d.execute_script("return [...document.querySelectorAll('.edge.taken')].map(e => e.id)")
    changed = d.execute_script("return [...document.querySelectorAll('#state td.changed')]"
                               ".map(td => td.previousElementSibling.textContent)")
    here = d.execute_script("return [...document.querySelectorAll('text.here')]"
                            ".map(t => t.parentNode.id + ':' + t.textContent)")
    return set(nodes), set(edges), set(changed), set(here)


def at_step(d, data, k, name, how):
    nodes, edges = expected_marks(data, k)
    got_nodes, got_edges, got_changed, got_here = marks(d)
    trace = data["compose"]["trace"]
    changed = set(trace["steps"][k - 1]["changed"]) if k else set()
    check(got_nodes == nodes, "%s, step %d (%s): states marked %s, want %s" % (name, k, how, got_nodes, nodes))
    check(got_edges == edges, "%s, step %d (%s): edge marked %s, want %s" % (name, k, how, got_edges, edges))
    check(got_changed == changed, "%s, step %d (%s): changed %s, want %s" % (name, k, how, got_changed, changed))
    check(got_here == here_labels(data, k), "%s, step %d (%s): names beside the states %s, want %s"
          % (name, k, how, got_here, here_labels(data, k)))
    label = d.find_element(By.ID, "step-label").text
    check(label == ("initial state" if k == 0 else "step %d of %d" % (k, len(trace["steps"]))),
          "%s, step %d: the label says %r" % (name, k, label))


def step_through(d, data, name):
    n = len(data["compose"]["trace"]["steps"])
    at_step(d, data, 0, name, "opened")
    forward = d.find_element(By.CSS_SELECTOR, "[data-go=forward]")
    for k in range(1, n + 1):
        forward.click()
        at_step(d, data, k, name, "forward button")
    d.find_element(By.CSS_SELECTOR, "[data-go=back]").click()
    at_step(d, data, max(0, n - 1), name, "back button")
    body = d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    at_step(d, data, max(0, n - 2), name, "left arrow")
    body.send_keys(Keys.ARROW_RIGHT)
    at_step(d, data, min(n, max(0, n - 2) + 1), name, "right arrow")
    d.execute_script("const s = document.getElementById('step'); s.value = '0';"
                     "s.dispatchEvent(new Event('input'));")
    at_step(d, data, 0, name, "slider")


def system_diagram(d, name):
    """The overview's system diagram is there, and its zoom-in button enlarges it."""
    svgs = d.find_elements(By.CSS_SELECTOR, "#overview .diagram.system svg")
    check(len(svgs) == 1, "%s: %d system diagrams in the overview" % (name, len(svgs)))
    if not svgs:
        return
    before = svgs[0].size["width"]
    d.find_element(By.CSS_SELECTOR, "#overview .zoom [data-zoom='1.25']").click()
    after = svgs[0].size["width"]
    check(after > before * 1.2, "%s: zoom in on the system diagram: width %s, then %s" % (name, before, after))
    d.find_element(By.CSS_SELECTOR, "#overview .zoom [data-zoom='0']").click()


def review(d, path):
    name = path.rsplit("/", 1)[-1]
    d.get("file://" + path)
    data = data_of(path)
    refs = d.execute_script("return [...document.querySelectorAll('[src],[href]')]"
                            ".map(e => e.getAttribute('src') || e.getAttribute('href'))")
    check(not [r for r in refs if re.match(r"(?i)https?:", r)], "%s: no http(s) src or href: %s" % (name, refs))
    svgs = d.execute_script("return document.querySelectorAll('section.thread svg').length")
    check(svgs == len(data["states"]), "%s: %d diagrams for %d threads" % (name, svgs, len(data["states"])))
    system_diagram(d, name)
    if data["compose"].get("trace"):
        step_through(d, data, name)
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    check(not errors, "%s: console errors %s" % (name, errors))


def main():
    d = browser()
    try:
        for path in sys.argv[1:]:
            review(d, path)
    finally:
        d.quit()
    print("review in the browser: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
