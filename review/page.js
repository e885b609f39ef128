// review/page.js -- athread review's page: step through the composition's
// counterexample (buttons, slider, arrow keys), highlighting in each
// thread's diagram the state of every instance and the edge just taken;
// zoom the diagrams (buttons, + - 0 keys) and pan them (drag, arrow keys).
// Reads the data in #review-data; loads nothing.
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

  setUpZoom();
  if (trace && trace.steps) setUpStepper();
})();
