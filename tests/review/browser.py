#!/usr/bin/python3
# tests/review/browser.py -- athread review's pages in headless Chromium
# (Selenium), with the network disabled: each example's page opens from
# file:// with no console error and no http(s) src or href; on an unsafe one, stepping forward and back
# (buttons, arrow keys, slider) marks in the diagrams exactly the states the
# JSON trace gives each instance and the edge the step takes, and the changed
# shared variables, and scrolls the moved state into view in its diagram box;
# the zoom buttons and keys scale a diagram, "fit" shows it whole, dragging
# pans it; Tab reaches the stepper, the slider, the zoom buttons and every
# diagram in that order, each with a visible outline; arrow keys on the
# slider step; printed (print media), every step is listed, the controls are
# hidden and no diagram is cut off; the marks differ by shape, not only by
# colour (dashes, widths, text marks).
# Run with Debian's /usr/bin/python3 (python3-selenium).
# Usage: tests/review/browser.py PAGE.html...   (made by athread review)
import json
import re
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
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
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1200,900", "--disable-smooth-scrolling"):  # keys scroll at once
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    offline(d)
    return d


def offline(d):
    """The network disabled (DevTools' offline mode): the pages must work without it."""
    d.execute_cdp_cmd("Network.enable", {})
    d.execute_cdp_cmd("Network.emulateNetworkConditions",
                      {"offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0})
    d.get("about:blank")
    online = d.execute_script("return navigator.onLine")
    check(online is False, "the browser runs offline (navigator.onLine is %r)" % online)


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


# Whether the element with id arguments[0] lies inside its diagram box's
# visible part.
IN_VIEW = """const n = document.getElementById(arguments[0]), box = n.closest('.diagram');
const r = n.getBoundingClientRect(), b = box.getBoundingClientRect();
const left = b.left + box.clientLeft, top = b.top + box.clientTop;
return r.left >= left - 1 && r.right <= left + box.clientWidth + 1 &&
  r.top >= top - 1 && r.bottom <= top + box.clientHeight + 1;"""


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
    if k > 0:
        step = trace["steps"][k - 1]
        moved = "s_%s_%d" % (step["thread"], data["states"][step["thread"]].index(step["to"]))
        check(d.execute_script(IN_VIEW, moved), "%s, step %d (%s): %s out of view in its diagram" % (name, k, how, moved))
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


# The size of each diagram box's drawing and the box's scroll state.
def view(d, box):
    return d.execute_script("""const box = arguments[0], r = box.querySelector('svg').getBoundingClientRect();
return {w: r.width, h: r.height, left: box.scrollLeft, top: box.scrollTop, cw: box.clientWidth,
  ch: box.clientHeight, sw: box.scrollWidth, sh: box.scrollHeight};""", box)


def fits(v):
    return v["sw"] <= v["cw"] + 1 and v["sh"] <= v["ch"] + 1


def near(a, b):
    return abs(a - b) <= 2


def drag(d, box, dx, dy):
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    ActionChains(d).move_to_element(box).click_and_hold().move_by_offset(dx, dy).release().perform()


def zoom_and_pan(d, data, name):
    """Zoom in and out by the buttons, pan by dragging, fit; and on a zoomed
    drawing, the last step's state is still brought into view."""
    for section in d.find_elements(By.CSS_SELECTOR, "section.thread"):
        thread = section.get_attribute("data-thread")
        box = section.find_element(By.CSS_SELECTOR, ".diagram")
        button = {z: section.find_element(By.CSS_SELECTOR, "[data-zoom='%s']" % z) for z in ("1.25", "0.8", "0")}
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        v0 = view(d, box)
        button["1.25"].click()
        v1 = view(d, box)
        check(near(v1["w"], v0["w"] * 1.25) and near(v1["h"], v0["h"] * 1.25),
              "%s, %s: zoom in scales the drawing by 1.25: %s then %s" % (name, thread, v0, v1))
        button["0.8"].click()
        v2 = view(d, box)
        check(near(v2["w"], v0["w"]) and near(v2["h"], v0["h"]), "%s, %s: zoom out undoes zoom in: %s then %s"
              % (name, thread, v0, v2))
        for _ in range(30):  # until the drawing overflows the box both ways
            v = view(d, box)
            if v["sw"] > v["cw"] + 150 and v["sh"] > v["ch"] + 150:
                break
            button["1.25"].click()
        d.execute_script("arguments[0].scrollTo(0, 0)", box)
        drag(d, box, -120, -90)
        v3 = view(d, box)
        check(near(v3["left"], 120) and near(v3["top"], 90), "%s, %s: a drag by (-120, -90) pans to (120, 90): %s"
              % (name, thread, v3))
        drag(d, box, 50, 40)
        v4 = view(d, box)
        check(near(v4["left"], 70) and near(v4["top"], 50), "%s, %s: a drag back by (50, 40) pans to (70, 50): %s"
              % (name, thread, v4))
        check(d.execute_script("return String(getSelection())") == "", "%s, %s: dragging selects no text" % (name, thread))
        button["1.25"].click()
        v = view(d, box)
        middle = [(a["left"] + a["cw"] / 2) / a["sw"] for a in (v4, v)] + [(a["top"] + a["ch"] / 2) / a["sh"] for a in (v4, v)]
        check(abs(middle[0] - middle[1]) < 0.01 and abs(middle[2] - middle[3]) < 0.01,
              "%s, %s: zooming keeps the middle of the view: %s then %s" % (name, thread, v4, v))
        button["0"].click()
        v5 = view(d, box)
        check(fits(v5) and v5["w"] <= v0["w"] + 1, "%s, %s: fit shows the whole drawing in the box: %s" % (name, thread, v5))
        if len(data["states"][thread]) >= 100:
            check(not fits(v0), "%s, %s: %d states overflow the box at first: %s"
                  % (name, thread, len(data["states"][thread]), v0))
            check(v5["h"] < v0["h"] / 2, "%s, %s: fit shrinks the large drawing: %s then %s" % (name, thread, v0, v5))
        for _ in range(3):
            button["1.25"].click()
    trace = data["compose"].get("trace")
    if trace:  # zoomed in: the last step still shows its state
        d.find_element(By.CSS_SELECTOR, "[data-go=last]").click()
        at_step(d, data, len(trace["steps"]), name, "last button, zoomed in")


# A short name of the focused element: the controls the keyboard must reach.
FOCUSED = """const e = document.activeElement;
if (!e || e === document.body) return 'body';
const thread = e.closest('section') && e.closest('section').getAttribute('data-thread');
let what = e.tagName.toLowerCase();
if (e.matches('[data-go]')) what = 'go:' + e.getAttribute('data-go');
else if (e.id === 'step') what = 'slider';
else if (e.matches('.zoom button')) what = 'zoom:' + thread + ':' + e.getAttribute('data-zoom');
else if (e.matches('.diagram')) what = 'diagram:' + thread;
const s = getComputedStyle(e);
return [what, s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2];"""


def key(d, k):
    ActionChains(d).send_keys(k).perform()


def tab_order(d, data, name):
    """Tab from the top reaches the stepper, then each thread's zoom buttons
    and diagram, each with a visible outline."""
    d.refresh()  # Tab then starts at the top
    want = ["go:first", "go:back", "slider", "go:forward", "go:last"] if data["compose"].get("trace") else []
    for t in data["states"]:
        want += ["zoom:%s:1.25" % t, "zoom:%s:0.8" % t, "zoom:%s:0" % t, "diagram:%s" % t]
    got, unlit = [], []
    for _ in range(300):
        key(d, Keys.TAB)
        f = d.execute_script(FOCUSED)
        if f == "body" or (got and f[0] == got[0]):
            break
        if f[0] in want:
            got.append(f[0])
            if not f[1]:
                unlit.append(f[0])
    check(got == want, "%s: Tab reaches %s, want %s" % (name, got, want))
    check(not unlit, "%s: no visible focus outline on %s" % (name, unlit))


def keys_on_controls(d, data, name):
    """Arrow keys on the slider step; + - 0 on a focused diagram zoom and fit;
    arrows on a focused diagram scroll it and leave the step alone."""
    trace = data["compose"].get("trace")
    if trace and trace["steps"]:
        d.execute_script("document.getElementById('step').focus()")
        d.find_element(By.CSS_SELECTOR, "[data-go=first]").click()
        d.execute_script("document.getElementById('step').focus()")
        key(d, Keys.ARROW_RIGHT)
        at_step(d, data, 1, name, "right arrow on the slider")
        key(d, Keys.END)
        at_step(d, data, len(trace["steps"]), name, "End on the slider")
        key(d, Keys.ARROW_LEFT)
        at_step(d, data, len(trace["steps"]) - 1, name, "left arrow on the slider")
    box = d.find_element(By.CSS_SELECTOR, "section.thread .diagram")
    d.execute_script("arguments[0].focus(); arguments[0].scrollIntoView({block: 'center'})", box)
    key(d, "0")
    v0 = view(d, box)
    key(d, "+")
    v1 = view(d, box)
    check(near(v1["w"], v0["w"] * 1.25), "%s: + on a focused diagram zooms in: %s then %s" % (name, v0, v1))
    for _ in range(8):
        key(d, "+")
    key(d, "-")
    v2 = view(d, box)
    check(near(v2["w"], v0["w"] * 1.25 ** 8), "%s: - on a focused diagram zooms out: %s then %s" % (name, v0, v2))
    step = d.execute_script("return document.body.getAttribute('data-step')")
    d.execute_script("arguments[0].scrollTo(0, 0)", box)
    key(d, Keys.ARROW_DOWN)
    key(d, Keys.ARROW_RIGHT)
    v3 = view(d, box)
    check(d.execute_script("return document.body.getAttribute('data-step')") == step,
          "%s: arrow keys on a focused diagram do not step" % name)
    check(v3["top"] > 0 and (v3["left"] > 0 or v3["sw"] <= v3["cw"]), "%s: arrow keys on a focused diagram scroll it: %s" % (name, v3))
    key(d, "0")
    check(fits(view(d, box)), "%s: 0 on a focused diagram fits it: %s" % (name, view(d, box)))
    for _ in range(4):
        key(d, "+")  # zoomed in before printing


def printed(d, data, name):
    """In print media every step is listed, the controls are hidden, and
    each diagram (zoomed in or not) is whole within the page's width."""
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        check(d.execute_script("return matchMedia('print').matches"), "%s: print media emulated" % name)
        shown = d.execute_script("return [...document.querySelectorAll('ol.steps li')]"
                                 ".filter(li => li.getClientRects().length && getComputedStyle(li).visibility === 'visible')"
                                 ".length")
        trace = data["compose"].get("trace")
        check(shown == (len(trace["steps"]) if trace else 0), "%s: printed, %s steps shown" % (name, shown))
        controls = d.execute_script("return [...document.querySelectorAll('.stepper, .zoom, nav')]"
                                    ".filter(e => e.getClientRects().length).length")
        check(controls == 0, "%s: printed, %d controls shown" % (name, controls))
        for box in d.find_elements(By.CSS_SELECTOR, ".diagram"):
            v = view(d, box)
            check(fits(v) and v["w"] <= v["cw"] + 1 and v["h"] > 0, "%s: printed, a diagram is cut off: %s" % (name, v))
    finally:
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def style_of(d, css, prop, pseudo=None):
    return d.execute_script("const e = document.querySelector(arguments[0]);"
                            "return e && getComputedStyle(e, arguments[2]).getPropertyValue(arguments[1])",
                            css, prop, pseudo)


def not_only_colour(d, data, name):
    """Every mark has a cue besides colour: the state's outline is dashed and
    thick, the taken edge four times as thick, changed values end in " *",
    the current step and the verdict have a sign before them."""
    verdict = style_of(d, ".verdict strong", "content", "::before")
    check(verdict and verdict not in ("none", "normal"), "%s: the verdict has a sign: %r" % (name, verdict))
    trace = data["compose"].get("trace")
    if not trace:
        return
    k = next((i + 1 for i, s in enumerate(trace["steps"]) if s["changed"]), 1 if trace["steps"] else 0)
    d.execute_script("const s = document.getElementById('step'); s.value = arguments[0];"
                     "s.dispatchEvent(new Event('input'));", str(k))
    at = ".node.at a > :first-child"
    other = ".node[id^=s_]:not(.at) a > :first-child"
    check(style_of(d, at, "stroke-dasharray") not in (None, "none"), "%s: the marked state's outline is dashed" % name)
    check(float(style_of(d, at, "stroke-width")[:-2]) >= 3, "%s: the marked state's outline is thick" % name)
    if d.execute_script("return !!document.querySelector(arguments[0])", other):
        check(style_of(d, other, "stroke-dasharray") == "none", "%s: other states' outlines are solid" % name)
    if k == 0:  # the initial state already breaks the invariant
        return
    taken = float(style_of(d, ".edge.taken path", "stroke-width")[:-2])
    untaken = float(style_of(d, ".edge:not(.taken) path", "stroke-width")[:-2])
    check(taken >= 3 * untaken, "%s: the taken edge is %gpx wide, others %gpx" % (name, taken, untaken))
    if trace["steps"][k - 1]["changed"]:
        check(style_of(d, "#state td.changed", "content", "::after") == '" *"', "%s: a changed value ends in *" % name)
    check("\u25b6" in style_of(d, "ol.steps li.current", "content", "::before"), "%s: the current step has a sign" % name)


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
    not_only_colour(d, data, name)
    zoom_and_pan(d, data, name)
    tab_order(d, data, name)
    keys_on_controls(d, data, name)
    printed(d, data, name)
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
