// oddscalc's page: what JavaScript adds to pages that read without it. A query form runs with a
// progress bar (server-sent events) and swaps in the answer, then takes the reader to it; a grid
// form posts without losing its file; copy buttons copy; a study's table sorts by any column; the
// list of questions narrows as you type; a table too wide for the screen says so.
"use strict";

function say(text) {
  const status = document.getElementById("status");
  if (status) { status.textContent = ""; window.setTimeout(() => { status.textContent = text; }, 50); }
}

function clearErrors() {
  for (const old of document.querySelectorAll(".refused")) old.classList.remove("refused");
  for (const old of document.querySelectorAll(".error.live, #error")) old.remove();
}

function showError(form, line, option) {
  clearErrors();
  const message = document.createElement("p");
  message.className = "error live";
  message.setAttribute("role", "alert");
  message.textContent = line;
  const field = option && form.querySelector(`[data-field="${CSS.escape(option)}"]`);
  if (field) {
    field.classList.add("refused");
    field.closest("details")?.setAttribute("open", "");
    field.appendChild(message);
    field.querySelector("input, select")?.focus();
  } else {
    form.before(message);
  }
}

function showAnswer(html) {
  const answer = document.getElementById("answer");
  answer.innerHTML = html;
  answer.hidden = false;
  wire(answer);
  const title = document.getElementById("answer-title");
  const sentence = document.getElementById("sentence");
  if (title) {
    title.focus({ preventScroll: true });
    title.scrollIntoView({ block: "start", behavior: "smooth" });
  }
  say([title, sentence].filter(Boolean).map((part) => part.textContent.trim()).join(": "));
}

function fillSide(event) {
  // An engagement's side filled from a unit of a roster: its fields the unit's, the others of that side cleared.
  const button = event.currentTarget;
  const select = button.form.querySelector(`#preset-${button.value}`);
  const option = select && select.selectedOptions[0];
  if (!option || !option.dataset.fields) return; // the server fills it (/fill)
  event.preventDefault();
  const values = JSON.parse(option.dataset.fields);
  const side = button.closest("fieldset");
  for (const field of side.querySelectorAll("[data-field]")) {
    const input = field.querySelector("input, select");
    const value = values[field.dataset.field];
    if (input.type === "checkbox") input.checked = value === "on";
    else if (input.tagName === "SELECT") input.value = value ?? input.dataset.default ?? "";
    else input.value = value ?? "";
    if (value !== undefined) field.closest("details")?.setAttribute("open", "");
  }
  say(`${side.querySelector("legend").textContent}: ${option.textContent}`);
}

function runQuery(event) {
  const form = event.target;
  if (!window.EventSource) return; // the plain form still works: it asks the server for the permalink page
  if (event.submitter && event.submitter.name === "fill") return; // a side filled from a unit: the server's form
  event.preventDefault();
  const params = new URLSearchParams(new FormData(form));
  const progress = document.getElementById("progress");
  const button = form.querySelector("button.compute");
  button.disabled = true;
  progress.hidden = false;
  progress.removeAttribute("value");
  say("Computing…");
  const source = new EventSource("/api/stream?" + params.toString());
  const done = () => { source.close(); button.disabled = false; progress.hidden = true; };
  source.addEventListener("progress", (message) => {
    const data = JSON.parse(message.data);
    if (data.total) { progress.max = data.total; progress.value = data.done; }
  });
  source.addEventListener("refused", (message) => {
    const data = JSON.parse(message.data);
    done();
    const exact = form.querySelector('[name="--exact"]');
    if (data.option === "--exact" && exact && exact.checked && /sample instead/.test(data.error)) {
      exact.checked = false; // an exact answer too big to be quick: sampled instead, and said so
      form.dataset.sampled = data.error;
      form.requestSubmit();
      return;
    }
    showError(form, data.error, data.option);
    say(data.error);
  });
  source.addEventListener("answer", (message) => {
    const data = JSON.parse(message.data);
    done();
    clearErrors();
    let html = data.html;
    if (form.dataset.sampled) {
      html = `<p class="note">Sampled: ${escapeText(form.dataset.sampled.replace(/^error: /, ""))}</p>` + html;
      delete form.dataset.sampled;
    }
    history.pushState(null, "", data.permalink);
    showAnswer(html);
  });
  source.onerror = () => { if (source.readyState === EventSource.CLOSED) done(); };
}

function escapeText(text) {
  const span = document.createElement("span");
  span.textContent = text;
  return span.innerHTML;
}

function runGrid(event) {
  const form = event.target;
  if (!window.fetch || !window.DOMParser) return;
  event.preventDefault();
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  say("Computing the grid…");
  fetch(form.action, { method: "POST", body: new FormData(form) })
    .then((response) => response.text())
    .then((text) => {
      const page = new DOMParser().parseFromString(text, "text/html");
      clearErrors();
      const error = page.getElementById("error");
      if (error) { showError(form, error.textContent, null); say(error.textContent); return; }
      const found = page.getElementById("answer");
      showAnswer(found ? found.innerHTML : "");
    })
    .catch(() => showError(form, "error: the page could not be reached: try again", null))
    .finally(() => { button.disabled = false; });
}

function copy(event) {
  const target = document.getElementById(event.target.dataset.copy);
  const text = target.value !== undefined ? target.value : target.textContent.trim();
  navigator.clipboard.writeText(text).then(() => { event.target.textContent = "copied"; });
}

function sortBy(event) {
  const th = event.target.closest("th");
  const table = th.closest("table");
  const index = Array.from(th.parentNode.children).indexOf(th);
  const rows = Array.from(table.tBodies[0].rows);
  const down = th.getAttribute("aria-sort") !== "descending";
  const key = (row) => {
    const cell = row.cells[index];
    const value = cell.dataset.v;
    return value !== undefined && value !== "" ? Number(value) : cell.textContent;
  };
  rows.sort((a, b) => {
    const x = key(a), y = key(b);
    const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return down ? -order : order;
  });
  for (const other of th.parentNode.children) other.removeAttribute("aria-sort");
  th.setAttribute("aria-sort", down ? "descending" : "ascending");
  for (const row of rows) table.tBodies[0].appendChild(row);
  say(`sorted by ${th.textContent.trim()}, ${down ? "highest" : "lowest"} first`);
}

function narrow(event) {
  const words = event.target.value.toLowerCase().split(/\s+/).filter(Boolean);
  for (const item of document.querySelectorAll("li[data-search]")) {
    item.hidden = !words.every((word) => item.dataset.search.includes(word));
  }
  for (const section of document.querySelectorAll("section.game")) {
    const items = section.querySelectorAll("li[data-search]");
    if (items.length) section.hidden = Array.from(items).every((item) => item.hidden);
  }
}

function cue(root) {
  for (const box of root.querySelectorAll(".scroll")) {
    box.classList.toggle("overflows", box.scrollWidth > box.clientWidth + 1);
  }
}

function png(event) {
  // the plot shown, as a PNG drawn here (twice its size, on white): no wait for the server's drawing
  const svg = event.currentTarget.closest("figure").querySelector(".wide svg");
  if (!svg || !window.XMLSerializer || !HTMLCanvasElement.prototype.toBlob) return; // the server's PNG
  event.preventDefault();
  const width = svg.width.baseVal.value, height = svg.height.baseVal.value;
  const image = new Image();
  image.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = 2 * width;
    canvas.height = 2 * height;
    const context = canvas.getContext("2d");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    canvas.toBlob((blob) => {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = "oddscalc.png";
      document.body.appendChild(link);
      link.click();
      link.remove();
    }, "image/png");
  };
  image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(new XMLSerializer().serializeToString(svg));
}

function wire(root) {
  for (const link of root.querySelectorAll("figure a.png")) {
    link.addEventListener("click", png);
    link.hidden = false; // (an uploaded list's answer has no PNG of the server's: only this one)
  }
  for (const button of root.querySelectorAll("button.copy")) button.addEventListener("click", copy);
  for (const button of root.querySelectorAll("button.sort")) button.addEventListener("click", sortBy);
  cue(root);
}

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("query-form");
  if (form) form.addEventListener("submit", runQuery);
  for (const button of document.querySelectorAll("button.fill")) button.addEventListener("click", fillSide);
  const grid = document.getElementById("grid-form");
  if (grid) grid.addEventListener("submit", runGrid);
  const search = document.getElementById("search");
  if (search) search.addEventListener("input", narrow);
  wire(document);
  window.addEventListener("resize", () => cue(document));
});
