// review/page.js -- athread review's page: step through the composition's
// counterexample (buttons, slider, arrow keys), highlighting in each
// thread's diagram the state of every instance and the edge just taken;
// zoom the diagrams. Reads the data in #review-data; loads nothing.
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

  // Writes the names of the instances in a state beside its node.
  function label(node, names) {
    const box = node.getBBox();
    const text = document.createElementNS(node.namespaceURI, "text");
    text.setAttribute("class", "here");
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

  setUpZoom();
  if (trace && trace.steps) setUpStepper();
})();
