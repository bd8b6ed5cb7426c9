/* The live ranking of a tournament: redrawn from the server's ranking (JSON) each time
   the server pushes it (server-sent events), or every 5 s without a push connection.
   Read-only: the places and the tie-break are the server's word, nothing is computed here. */
(function () {
  "use strict";
  var configEl = document.getElementById("ranking-config");
  var box = document.getElementById("ranking-table");
  if (!configEl || !box) return;
  var config = JSON.parse(configEl.textContent);
  // Sentences from the JS catalogue (base.html links it before this file); English without it.
  var gettext = window.gettext || function (msgid) { return msgid; };
  var POLL_MS = 5000;
  var pollTimer = null;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_m, key) { return values[key]; });
  }
  function signed(v) {
    return (v > 0 ? "+" : "") + v + " " + config.unit;
  }

  function draw(state) {
    var body = box.querySelector("tbody");
    var old = {};
    Array.prototype.forEach.call(body.querySelectorAll("tr"), function (tr) {
      old[tr.getAttribute("data-start")] = tr.querySelector(".total").textContent;
    });
    var head = box.querySelector("thead tr");
    var prizes = {};
    if (state.final) state.final.rows.forEach(function (r) { prizes[r.start_number] = r.prize; });
    while (head.children.length > 3) head.removeChild(head.lastChild);
    state.series.forEach(function (n) {
      head.appendChild(el("th", null, fmt(gettext("S%(n)s"), { n: n })));
    });
    head.appendChild(el("th", null, gettext("Points")));
    if (state.final) head.appendChild(el("th", null, gettext("Prize")));
    while (body.firstChild) body.removeChild(body.firstChild);
    state.rows.forEach(function (row) {
      var tr = el("tr");
      tr.setAttribute("data-start", row.start_number);
      tr.appendChild(el("td", null, row.place + "."));
      tr.appendChild(el("td", null, row.start_number));
      tr.appendChild(el("td", null, row.name));
      state.series.forEach(function (n) {
        tr.appendChild(el("td", "num", signed(row.by_series[String(n)] || 0)));
      });
      var total = el("td", "num total", signed(row.total));
      tr.appendChild(total);
      if (state.final) tr.appendChild(el("td", "num", prizes[row.start_number] ? prizes[row.start_number] + " " + config.unit : ""));
      if (old[String(row.start_number)] !== undefined && old[String(row.start_number)] !== total.textContent) {
        tr.className = "changed";
      }
      body.appendChild(tr);
    });
    var progress = document.getElementById("ranking-progress");
    if (progress && state.progress) {
      while (progress.firstChild) progress.removeChild(progress.firstChild);
      state.progress.forEach(function (p) {
        progress.appendChild(el("li", null, fmt(gettext("Table %(t)s: %(f)s of %(d)s"),
          { t: p.table, f: p.finished, d: p.deals })));
      });
    }
    document.body.setAttribute("data-ranking-drawn", String(Date.now()));
  }

  function poll() {
    fetch(config.state, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) { if (state) draw(state); })
      .catch(function () {});
  }
  function startPolling() {
    if (pollTimer === null) pollTimer = window.setInterval(poll, POLL_MS);
  }
  function stopPolling() {
    if (pollTimer !== null) { window.clearInterval(pollTimer); pollTimer = null; }
  }

  if (window.EventSource) {
    var source = new EventSource(config.stream);
    source.addEventListener("state", function (e) {
      stopPolling();
      draw(JSON.parse(e.data));
    });
    source.onerror = startPolling;
  } else {
    startPolling();
  }
})();
