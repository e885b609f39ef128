// review/page.js -- athread review's page: step through the composition's
// counterexample (buttons, slider, arrow keys), highlighting in each
// thread's diagram the state of every instance and the edge just taken;
// step through a thread's counterexample in its C code (the line, and the
// candidate set F on the diagram); zoom the diagrams (buttons, + - 0 keys)
// and pan them (drag, arrow keys). Reads the data in #review-data; loads
// nothing.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("review-data").textContent);
  const trace = data.compose.trace;
  const threadOf = {};
  data.instances.forEach(function (i) { threadOf[i.name] = i.thread; });

  // The state at step k (0: the initial one).
  function stateAt(k) { return k === 0 ? trace.initial : trace.steps[k - 1].state; }

  function nodeId(instance, stateName) {
    const thread = threadOf[instance];
    return "s_" + thread + "_" + data.states[thread].indexOf(stateName);
  }

  function clearMarks() {
    document.querySelectorAll(".node.at, .edge.taken").forEach(function (e) {
      e.classList.remove("at", "taken");
    });
    document.querySelectorAll("text.here").forEach(function (e) { e.remove(); });
  }

  // Marks each instance's state; the node's tooltip names the instances there.
  function markStates(state) {
    const at = {};
    Object.keys(state.instances).forEach(function (name) {
      const id = nodeId(name, state.instances[name]);
      (at[id] = at[id] || []).push(name);
    });
    Object.keys(at).forEach(function (id) {
      const node = document.getElementById(id);
      if (!node) return;
      node.classList.add("at");
      node.setAttribute("data-instances", at[id].join(", "));
      label(node, at[id].join(", "));
    });
  }

  // Writes the names of the instances in a state beside its node (or, with
  // kind "fnote", what a code counterexample says of the state).
  function label(node, names, kind) {
    const box = node.getBBox();
    const text = document.createElementNS(node.namespaceURI, "text");
    text.setAttribute("class", kind || "here");
    text.setAttribute("x", String(box.x + box.width + 4));
    text.setAttribute("y", String(box.y + 11));
    text.textContent = names;
    node.appendChild(text);
  }

  function markEdge(step) {
    const edge = document.getElementById("e_" + step.thread + "_" + step.edge);
    if (edge) edge.classList.add("taken");
  }

  // Scrolls the diagram box of a node so the node is in its middle, when it
  // is out of view (a diagram of 100+ states), without moving the page.
  function reveal(node) {
    const box = node && node.closest(".diagram");
    if (!box) return;
    const r = node.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    const left = r.left - b.left - box.clientLeft, top = r.top - b.top - box.clientTop;
    if (left < 0 || left + r.width > box.clientWidth) box.scrollLeft += left - (box.clientWidth - r.width) / 2;
    if (top < 0 || top + r.height > box.clientHeight) box.scrollTop += top - (box.clientHeight - r.height) / 2;
  }

  function showShared(k) {
    const table = document.getElementById("state");
    const shared = stateAt(k).shared;
    const changed = k === 0 ? [] : trace.steps[k - 1].changed;
    table.querySelectorAll("tr").forEach(function (r) { r.remove(); });
    Object.keys(shared).forEach(function (name) {
      const row = table.insertRow();
      row.insertCell().textContent = name;
      const value = row.insertCell();
      value.textContent = String(shared[name]);
      if (changed.indexOf(name) >= 0) value.classList.add("changed");
    });
    Object.keys(stateAt(k).instances).forEach(function (name) {
      const row = table.insertRow();
      row.insertCell().textContent = name;
      row.insertCell().textContent = "@" + stateAt(k).instances[name];
    });
  }

  function showStep(k) {
    clearMarks();
    markStates(stateAt(k));
    document.querySelectorAll(".node.at").forEach(reveal);
    if (k > 0) {
      const step = trace.steps[k - 1];
      markEdge(step);
      reveal(document.getElementById(nodeId(step.instance, step.to))); // the one that moved wins
    }
    showShared(k);
    document.querySelectorAll("ol.steps li").forEach(function (li, i) {
      li.classList.toggle("current", i === k - 1);
      if (i === k - 1) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    });
    document.getElementById("step").value = String(k);
    document.getElementById("step-label").textContent =
      k === 0 ? "initial state" : "step " + k + " of " + trace.steps.length;
    document.body.setAttribute("data-step", String(k));
  }

  // A step control over positions 0 .. last: its buttons (attribute attr
  // names the move) and its slider call show. Returns the moves.
  function stepControl(buttons, attr, slider, last, show) {
    const current = function () { return Number(slider.value); };
    const go = {
      first: function () { return 0; },
      back: function () { return Math.max(0, current() - 1); },
      forward: function () { return Math.min(last, current() + 1); },
      last: function () { return last; }
    };
    buttons.forEach(function (b) {
      b.addEventListener("click", function () { show(go[b.getAttribute(attr)]()); });
    });
    slider.addEventListener("input", function () { show(current()); });
    return go;
  }

  function setUpStepper() {
    const slider = document.getElementById("step");
    const go = stepControl(document.querySelectorAll("[data-go]"), "data-go", slider, trace.steps.length, showStep);
    document.addEventListener("keydown", function (e) {
      // the slider moves itself; a focused diagram scrolls
      if (e.target === slider || e.target.closest(".diagram") || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === "ArrowRight") showStep(go.forward());
      else if (e.key === "ArrowLeft") showStep(go.back());
      else return;
      e.preventDefault();
    });
    showStep(0);
  }

  // Scales the diagram in box by factor, keeping the middle of the view in
  // the middle; factor 0 fits the whole drawing in the box (never enlarging).
  function zoom(box, factor) {
    const svg = box.querySelector("svg");
    if (!svg.hasAttribute("data-width")) {
      const r = svg.getBoundingClientRect();
      svg.setAttribute("data-width", String(r.width));
      svg.setAttribute("data-height", String(r.height));
    }
    const width = Number(svg.getAttribute("data-width")), height = Number(svg.getAttribute("data-height"));
    const scale = factor === 0 ? fitScale(box, width, height) : Number(svg.getAttribute("data-scale") || 1) * factor;
    const x = (box.scrollLeft + box.clientWidth / 2) / box.scrollWidth;
    const y = (box.scrollTop + box.clientHeight / 2) / box.scrollHeight;
    svg.setAttribute("data-scale", String(scale));
    svg.style.width = width * scale + "px"; // the viewBox keeps the proportions
    svg.style.height = height * scale + "px";
    box.scrollLeft = x * box.scrollWidth - box.clientWidth / 2;
    box.scrollTop = y * box.scrollHeight - box.clientHeight / 2;
  }

  // The scale at which the drawing fits the box: its width, and its height
  // as resized by the reader or else its largest (max-height).
  function fitScale(box, width, height) {
    const room = box.style.height ? box.clientHeight : parseFloat(getComputedStyle(box).maxHeight);
    return Math.min(1, box.clientWidth / width, (room || Infinity) / height);
  }

  // True on the box's scroll bars or resize handle, which keep their own drag.
  function onFrame(box, e) {
    const r = box.getBoundingClientRect();
    return e.clientX >= r.left + box.clientLeft + box.clientWidth ||
      e.clientY >= r.top + box.clientTop + box.clientHeight ||
      (e.clientX > r.right - 20 && e.clientY > r.bottom - 20);
  }

  // Dragging a diagram with the mouse or a pen pans it (touch scrolls natively).
  function setUpPan(box) {
    let from = null;
    box.addEventListener("pointerdown", function (e) {
      if (e.button !== 0 || e.pointerType === "touch" || onFrame(box, e)) return;
      from = { x: e.clientX, y: e.clientY, left: box.scrollLeft, top: box.scrollTop };
      box.setPointerCapture(e.pointerId);
      box.classList.add("panning");
      box.focus({ preventScroll: true });
      e.preventDefault(); // no text selection
    });
    box.addEventListener("pointermove", function (e) {
      if (!from) return;
      box.scrollLeft = from.left - (e.clientX - from.x);
      box.scrollTop = from.top - (e.clientY - from.y);
    });
    const stop = function () { from = null; box.classList.remove("panning"); };
    box.addEventListener("pointerup", stop);
    box.addEventListener("pointercancel", stop);
  }

  // The zoom buttons act on the diagram after them; on a focused diagram,
  // + (or =) zooms in, - zooms out, 0 fits.
  function setUpZoom() {
    const keys = { "+": 1.25, "=": 1.25, "-": 0.8, "0": 0 };
    document.querySelectorAll(".zoom button").forEach(function (b) {
      b.addEventListener("click", function () {
        zoom(b.parentElement.nextElementSibling, Number(b.getAttribute("data-zoom")));
      });
    });
    document.querySelectorAll(".diagram").forEach(function (box) {
      setUpPan(box);
      box.addEventListener("keydown", function (e) {
        if (!(e.key in keys) || e.altKey || e.ctrlKey || e.metaKey) return;
        zoom(box, keys[e.key]);
        e.preventDefault();
      });
    });
  }

  // The node of a thread's state, by name.
  function stateNode(thread, name) {
    return document.getElementById("s_" + thread + "_" + data.states[thread].indexOf(name));
  }

  // "g = 1, x = -1" from an object of values.
  function values(o) {
    return Object.keys(o || {}).map(function (n) { return n + " = " + o[n]; }).join(", ");
  }

  // What position k of a code counterexample says, in words, a line each:
  // the environment's moves, the step, the values after it, F or the failure.
  function codeNow(cex, k) {
    if (k === 0) return "Before the first step: F = {" + cex.initial_candidates.join(", ") + "}.";
    const s = cex.steps[k - 1];
    const lines = (s.moves || []).map(function (m) { return "environment: " + m.move; });
    lines.push("line " + s.line + ": " + s.statement + " (shared before: " + values(s.environment) + ")");
    if (s.after) lines.push("shared after: " + values(s.after));
    lines.push(s.candidates ? "F becomes {" + s.candidates.join(", ") + "}" : "fails: " + cex.failure.message);
    return lines.join("\n");
  }

  // A thread's counterexample in its C code. Position 0 is before the first
  // step (F: the initial candidates); position k shows step k: its line
  // marked in the source pane, F after it drawn on the thread's diagram, or,
  // for the step no edge simulates, F before it marked as stuck.
  function setUpCodeTrace(box) {
    const thread = box.getAttribute("data-thread");
    const cex = data.code.threads[thread].counterexample;
    const slider = box.querySelector(".cstep");
    const section = document.getElementById("thread-" + thread);
    function mark(names, kind) {
      names.forEach(function (name) {
        const node = stateNode(thread, name);
        if (!node) return;
        node.classList.add(kind);
        label(node, kind === "stuck" ? "F (stuck)" : "F", "fnote");
      });
    }
    function markLine(s) {
      const pre = box.querySelector("pre[data-file=\"" + CSS.escape(s.file) + "\"]");
      const line = pre && pre.querySelector(".cl[data-line=\"" + s.line + "\"]");
      if (!line) return;
      line.classList.add("current");
      if (!s.candidates) line.classList.add("fail");
      pre.scrollTop = line.offsetTop - pre.clientHeight / 2;
    }
    function show(k) {
      section.querySelectorAll(".node.inf, .node.stuck").forEach(function (n) { n.classList.remove("inf", "stuck"); });
      section.querySelectorAll("text.fnote").forEach(function (t) { t.remove(); });
      box.querySelectorAll(".cl.current").forEach(function (l) { l.classList.remove("current", "fail"); });
      const s = k === 0 ? null : cex.steps[k - 1];
      if (!s) mark(cex.initial_candidates, "inf");
      else if (s.candidates) mark(s.candidates, "inf");
      else mark(s.candidates_before, "stuck");
      if (s) markLine(s);
      box.querySelectorAll(".csteps li").forEach(function (li, i) { li.classList.toggle("current", i === k - 1); });
      box.querySelector(".cnow").textContent = codeNow(cex, k);
      box.querySelector(".cstep-label").textContent =
        k === 0 ? "before the first step" : "step " + k + " of " + cex.steps.length;
      slider.value = String(k);
      box.setAttribute("data-step", String(k));
    }
    stepControl(box.querySelectorAll("[data-cgo]"), "data-cgo", slider, cex.steps.length, show);
    show(0);
  }

  setUpZoom();
  if (trace && trace.steps) setUpStepper();
  document.querySelectorAll(".ctrace").forEach(setUpCodeTrace);
})();
