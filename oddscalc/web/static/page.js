// oddscalc's page: what JavaScript adds to pages that read without it. A query form runs
// with a progress bar (server-sent events) and swaps in the answer; copy buttons copy;
// a study's table sorts by any column.
"use strict";

function clearErrors() {
  for (const old of document.querySelectorAll(".refused")) old.classList.remove("refused");
  for (const old of document.querySelectorAll(".error")) old.remove();
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
  } else {
    form.after(message);
  }
}

function runQuery(event) {
  const form = event.target;
  if (!window.EventSource) return; // the plain form still works: it asks the server for the permalink page
  event.preventDefault();
  const params = new URLSearchParams(new FormData(form));
  const progress = document.getElementById("progress");
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  progress.hidden = false;
  progress.removeAttribute("value");
  const source = new EventSource("/api/stream?" + params.toString());
  const done = () => { source.close(); button.disabled = false; progress.hidden = true; };
  source.addEventListener("progress", (message) => {
    const data = JSON.parse(message.data);
    if (data.total) { progress.max = data.total; progress.value = data.done; }
  });
  source.addEventListener("refused", (message) => {
    const data = JSON.parse(message.data);
    done();
    showError(form, data.error, data.option);
  });
  source.addEventListener("answer", (message) => {
    const data = JSON.parse(message.data);
    done();
    clearErrors();
    document.getElementById("answer").innerHTML = data.html;
    history.pushState(null, "", data.permalink);
    wire(document.getElementById("answer"));
  });
  source.onerror = () => { if (source.readyState === EventSource.CLOSED) done(); };
}

function copy(event) {
  const target = document.getElementById(event.target.dataset.copy);
  const text = target.value !== undefined ? target.value : target.textContent;
  navigator.clipboard.writeText(text).then(() => { event.target.textContent = "copied"; });
}

function sortBy(event) {
  const th = event.target.closest("th");
  const table = th.closest("table");
  const index = Array.from(th.parentNode.children).indexOf(th);
  const rows = Array.from(table.tBodies[0].rows);
  const down = th.dataset.order !== "down";
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
  th.dataset.order = down ? "down" : "up";
  for (const row of rows) table.tBodies[0].appendChild(row);
}

function wire(root) {
  for (const button of root.querySelectorAll("button.copy")) button.addEventListener("click", copy);
  for (const button of root.querySelectorAll("button.sort")) button.addEventListener("click", sortBy);
}

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("query-form");
  if (form) form.addEventListener("submit", runQuery);
  wire(document);
});
