#!/usr/bin/python3
# tests/review/browser_code.py -- athread review's code counterexamples in
# headless Chromium (Selenium): on each page, for each thread that does not
# conform, stepping forward, back and with the slider marks exactly the
# states of F that conform's JSON trace gives (the failing step's F as
# stuck), the C line of the step (as failing at the last one), and the
# current step in the list; and no console error. Uses browser.py's driver
# and counters. Run with Debian's /usr/bin/python3 (python3-selenium).
# Usage: tests/review/browser_code.py PAGE.html...   (review SPEC FILE.c)
import sys

from selenium.webdriver.common.by import By

import browser as b


def expected(data, thread, cex, k):
    """(marked node ids, their kind, (file, line) marked, failing) at position k."""
    states = data["states"][thread]
    ids = lambda names: {"s_%s_%d" % (thread, states.index(n)) for n in names}
    if k == 0:
        return ids(cex["initial_candidates"]), "inf", None, False
    s = cex["steps"][k - 1]
    stuck = "candidates" not in s
    return ids(s["candidates_before"] if stuck else s["candidates"]), "stuck" if stuck else "inf", \
        (s["file"], s["line"]), stuck


def at(d, data, thread, cex, k, name, how):
    nodes, kind, line, failing = expected(data, thread, cex, k)
    where = "%s, %s, position %d (%s)" % (name, thread, k, how)
    got = d.execute_script(
        "const s = document.getElementById('thread-' + arguments[0]);"
        "return [[...s.querySelectorAll('.node.inf')].map(e => e.id), [...s.querySelectorAll('.node.stuck')].map(e => e.id),"
        " [...s.querySelectorAll('.cl.current')].map(l => [l.closest('pre').dataset.file, Number(l.dataset.line),"
        "   l.classList.contains('fail')]),"
        " [...s.querySelectorAll('.csteps li.current')].map(li => Number(li.dataset.step)),"
        " s.querySelectorAll('text.fnote').length]", thread)
    marked = set(got[0] if kind == "inf" else got[1])
    other = got[1] if kind == "inf" else got[0]
    b.check(marked == nodes and not other, "%s: F marked %s as %s, want %s" % (where, got[:2], kind, nodes))
    b.check(got[4] == len(nodes), "%s: %d F labels for %d states" % (where, got[4], len(nodes)))
    want_lines = [[line[0], line[1], failing]] if line else []
    b.check(got[2] == want_lines, "%s: C line marked %s, want %s" % (where, got[2], want_lines))
    b.check(got[3] == ([k] if k else []), "%s: current step in the list %s" % (where, got[3]))


def step_through(d, data, thread, name):
    cex = data["code"]["threads"][thread]["counterexample"]
    box = d.find_element(By.ID, "ctrace-" + thread)
    n = len(cex["steps"])
    at(d, data, thread, cex, 0, name, "opened")
    forward = box.find_element(By.CSS_SELECTOR, "[data-cgo=forward]")
    for k in range(1, n + 1):
        forward.click()
        at(d, data, thread, cex, k, name, "forward")
    box.find_element(By.CSS_SELECTOR, "[data-cgo=back]").click()
    at(d, data, thread, cex, n - 1, name, "back")
    box.find_element(By.CSS_SELECTOR, "[data-cgo=first]").click()
    at(d, data, thread, cex, 0, name, "first")
    d.execute_script("const s = document.querySelector('#ctrace-' + arguments[0] + ' .cstep'); s.value = arguments[1];"
                     "s.dispatchEvent(new Event('input'));", thread, str(n))
    at(d, data, thread, cex, n, name, "slider")
    text = box.find_element(By.CLASS_NAME, "cnow").text
    b.check(cex["failure"]["message"] in text, "%s, %s: the last step says why: %r" % (name, thread, text))


def review(d, path):
    name = path.rsplit("/", 1)[-1]
    d.get("file://" + path)
    data = b.data_of(path)
    for thread, report in sorted(data["code"]["threads"].items()):
        if report.get("counterexample"):
            step_through(d, data, thread, name)
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    b.check(not errors, "%s: console errors %s" % (name, errors))


def main():
    d = b.browser()
    try:
        for path in sys.argv[1:]:
            review(d, path)
    finally:
        d.quit()
    print("review with C files in the browser: %d passed, %d failed" % (b.passed, b.failed))
    return 1 if b.failed else 0


if __name__ == "__main__":
    sys.exit(main())
