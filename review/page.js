// review/page.js -- athread review's page: step through the composition's
// counterexample (buttons, slider, arrow keys), highlighting in each
// thread's diagram the state of every instance and the edge just taken;
// step through a thread's counterexample in its C code (the line, and the
// candidate set F on the diagram); zoom the diagrams. Reads the data in #review-data; loads nothing.
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
    if (k > 0) markEdge(trace.steps[k - 1]);
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

  function setUpStepper() {
    const slider = document.getElementById("step");
    const last = trace.steps.length;
    const current = function () { return Number(slider.value); };
    const go = {
      first: function () { return 0; },
      back: function () { return Math.max(0, current() - 1); },
      forward: function () { return Math.min(last, current() + 1); },
      last: function () { return last; }
    };
    document.querySelectorAll("[data-go]").forEach(function (b) {
      b.addEventListener("click", function () { showStep(go[b.getAttribute("data-go")]()); });
    });
    slider.addEventListener("input", function () { showStep(current()); });
    document.addEventListener("keydown", function (e) {
      if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return; // the slider moves itself
      if (e.key === "ArrowRight") showStep(go.forward());
      else if (e.key === "ArrowLeft") showStep(go.back());
      else return;
      e.preventDefault();
    });
    showStep(0);
  }

  // Zoom buttons scale the diagram beside them; "fit" returns to its size.
  function setUpZoom() {
    document.querySelectorAll(".zoom button").forEach(function (b) {
      b.addEventListener("click", function () {
        const svg = b.parentElement.nextElementSibling.querySelector("svg");
        const factor = Number(b.getAttribute("data-zoom"));
        const scale = factor === 0 ? 1 : Number(svg.getAttribute("data-scale") || 1) * factor;
        const width = Number(svg.getAttribute("data-width") || svg.getBoundingClientRect().width);
        svg.setAttribute("data-width", String(width));
        svg.setAttribute("data-scale", String(scale));
        svg.style.width = width * scale + "px"; // the viewBox keeps the proportions
        svg.style.height = "auto";
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
    const last = cex.steps.length;
    const current = function () { return Number(slider.value); };
    const go = {
      first: function () { return 0; },
      back: function () { return Math.max(0, current() - 1); },
      forward: function () { return Math.min(last, current() + 1); },
      last: function () { return last; }
    };
    box.querySelectorAll("[data-cgo]").forEach(function (b) {
      b.addEventListener("click", function () { show(go[b.getAttribute("data-cgo")]()); });
    });
    slider.addEventListener("input", function () { show(current()); });
    show(0);
  }

  setUpZoom();
  if (trace && trace.steps) setUpStepper();
  document.querySelectorAll(".ctrace").forEach(setUpCodeTrace);
})();
