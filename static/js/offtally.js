/* "Ergebnis eintragen" with no network: the tally is kept on the phone until sent.

   When "Save" is pressed with no network (or its request dies on the network), the
   tally the server composed for the form (its "tally-offline" JSON: the API's body,
   the deal and the tally events) goes into the same IndexedDB outbox the recording
   page uses, with an Idempotency-Key fixed now. It is listed at once as "not yet
   sent / unchecked" and sent when the network returns. A retry after a lost answer
   sends the same key and body, and the server answers it from its idempotency
   record: nothing is stored twice. A 409 or 422 stays listed with the tally and the
   server's message until the scorer drops it. No rule here: offline the tally is
   unchecked; the engine judges it when it arrives. */
(function () {
  "use strict";
  var box = document.getElementById("tally-outbox");
  if (!box || !window.StichbuchOutbox) return;
  var t = box.dataset;
  var flushing = false;
  var savePressed = false;

  var tx = window.StichbuchOutbox.tx;
  var uuid = window.StichbuchOutbox.uuid;
  function config() {
    var el = document.getElementById("tally-offline");
    return el ? JSON.parse(el.textContent) : null;
  }
  var evening = Number(box.dataset.evening);
  function items() {
    return tx("readonly", function (s) { return s.getAll(); }).then(function (all) {
      return (all || []).filter(function (i) { return i.kind === "tally" && i.evening === evening; })
        .sort(function (a, b) { return a.id - b.id; });
    });
  }
  function csrf() {
    var input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return input ? input.value : "";
  }
  function summary() {
    var rows = document.querySelectorAll("#tally .tally-preview .pays li");
    // The payouts shown before saving; without them, the choices made.
    if (!rows.length) rows = document.querySelectorAll('#tally button[aria-pressed="true"]');
    return Array.prototype.map.call(rows, function (el) { return el.textContent.trim(); }).join(", ");
  }

  // Keep the form's tally: once per body (a second tap on "Save" is not a second game).
  function queue() {
    var c = config();
    if (!c) return Promise.resolve();
    var body = JSON.stringify(c.body);
    var text = summary();
    return items().then(function (list) {
      if (list.some(function (i) { return i.body === body; })) return null;
      return tx("readwrite", function (s) {
        return s.add({ kind: "tally", evening: c.evening, api: c.api, key: uuid(), body: body,
          summary: text, failed: null });
      });
    }).then(function () {
      var save = document.getElementById("tally-save");
      if (save) save.disabled = true;
    }).then(draw);
  }

  function draw() {
    return items().then(function (list) {
      box.hidden = !list.length;
      var ol = box.querySelector(".tally-queue");
      while (ol.firstChild) ol.removeChild(ol.firstChild);
      list.forEach(function (item) {
        var li = document.createElement("li");
        li.className = item.failed ? "offline-failed" : "offline-waiting";
        li.textContent = item.summary + " — " + (item.failed || t.unsent);
        if (item.failed) {
          var drop = document.createElement("button");
          drop.type = "button";
          drop.className = "btn-quiet tally-drop";
          drop.textContent = t.drop;
          drop.addEventListener("click", function () {
            tx("readwrite", function (s) { s.delete(item.id); }).then(draw);
          });
          li.appendChild(drop);
        }
        ol.appendChild(li);
      });
    });
  }

  // In order; a refused tally stops the queue (the next deal followed from it).
  function flush() {
    if (flushing || navigator.onLine === false) return Promise.resolve();
    flushing = true;
    var sent = 0;
    function next() {
      return items().then(function (list) {
        var item = list[0];
        if (!item || item.failed) return null;
        return window.StichbuchOutbox.send(item, item.api, item.body, csrf(), t.refused)
          .then(function (ok) {
            if (!ok) return null;
            sent += 1;
            return next();
          });
      });
    }
    return next().catch(function () { /* the network went again: later */ }).then(function () {
      flushing = false;
      // The evening's games, balances and next deal are the server's: show them.
      if (sent) window.location.reload();
    }).then(draw);
  }

  // With no network the tap on "Save" never leaves the phone: it is queued instead.
  document.addEventListener("click", function (ev) {
    if (!ev.target.closest || !ev.target.closest("#tally")) return;
    savePressed = !!ev.target.closest("#tally-save");
    if (!savePressed || navigator.onLine !== false) return;
    ev.preventDefault();
    ev.stopPropagation();
    queue();
  }, true);
  // The request went out but died on the network: queue the same tally.
  document.addEventListener("htmx:sendError", function () {
    if (savePressed) queue();
    savePressed = false;
  });
  window.addEventListener("online", function () { draw().then(flush); });
  window.setInterval(function () { if (!box.hidden) flush(); }, 3000);
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(function () {});
  draw().then(flush);
})();
