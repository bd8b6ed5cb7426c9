/* "Ergebnis eintragen" with no network: the tally is kept on the phone until sent.

   When "Save" is pressed with no network (or its request dies on the network), the
   tally the server composed for the form (its "tally-offline" JSON: the API's body,
   the deal and the tally events) goes into the same IndexedDB outbox the recording
   page uses, with an Idempotency-Key fixed now. It is listed at once as "not yet
   sent / unchecked" and sent when the network returns. A retry after a lost answer
   sends the same key and body, and the server answers it from its idempotency
   record: nothing is stored twice. A 409 or 422 stays listed with the tally and the
   server's message until the scorer drops it. No rule here: offline the tally is
   unchecked; the engine judges it when it arrives.

   From scratch with no network: the evening page drew every choice a tally may
   need at page load (#tally-scratch, from the engine's table view); offline, that
   form stands in for the one that asks the server at each tap. It only shows the
   block of fields the server listed for the Macher and call chosen (Königrufen: the
   declarer and contract; the auction itself is the one the server drew for them,
   speaker by speaker), and queues the events those choices make.

   Online, a tap on a choice or on "Save" is painted at once, marked as not yet
   confirmed; the server's answer (the form drawn again, or the saved evening)
   replaces it. */
(function () {
  "use strict";
  var box = document.getElementById("tally-outbox");
  if (!box || !window.StichbuchOutbox) return;
  // The words from the message catalogue (base.html links it); English as written without it.
  var gettext = window.gettext || function (msgid) { return msgid; };
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
    return keep(c.evening, c.api, c.body, summary()).then(function () {
      var save = document.getElementById("tally-save");
      if (save) save.disabled = true;
    });
  }
  function keep(eveningId, api, bodyObject, text) {
    var body = JSON.stringify(bodyObject);
    return items().then(function (list) {
      if (list.some(function (i) { return i.body === body; })) return null;
      return tx("readwrite", function (s) {
        return s.add({ kind: "tally", evening: eveningId, api: api, key: uuid(), body: body,
          summary: text, failed: null });
      });
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
        li.textContent = item.summary + " — " + (item.failed || gettext("not yet sent / unchecked"));
        if (item.failed) {
          var drop = document.createElement("button");
          drop.type = "button";
          drop.className = "btn-quiet tally-drop";
          drop.textContent = gettext("Drop it");
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
        return window.StichbuchOutbox.send(item, item.api, item.body, csrf(), gettext("refused"))
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
    if (navigator.onLine !== false) {
      paintTap(ev.target.closest('button[type="submit"]'));
      return;
    }
    if (!savePressed) return;
    ev.preventDefault();
    ev.stopPropagation();
    queue();
  }, true);
  // The request went out but died on the network: queue the same tally.
  document.addEventListener("htmx:sendError", function () {
    Array.prototype.forEach.call(document.querySelectorAll("#tally .unconfirmed"), function (el) {
      if (el.classList.contains("tally-pending")) el.remove(); else el.classList.remove("unconfirmed");
    });
    if (savePressed) queue();
    savePressed = false;
  });
  // A tap on the form, painted before the server's answer: the tapped choice
  // marked, and for "Save" a line saying the tally is on its way.
  function paintTap(button) {
    if (!button) return;
    button.classList.add("unconfirmed");
    if (button.id !== "tally-save") return;
    var line = document.createElement("p");
    line.className = "meta tally-pending unconfirmed";
    line.setAttribute("role", "status");
    line.textContent = summary() + " — " + gettext("not yet confirmed");
    button.parentNode.insertBefore(line, button);
  }

  // ------------------------------------------------ from scratch, with no network
  var scratch = document.getElementById("tally-scratch");
  var scratchData = document.getElementById("tally-scratch-data");
  var sd = scratchData ? JSON.parse(scratchData.textContent) : null;
  var koenig = !!(sd && sd.game === "koenigrufen");
  var chosen = {};
  function fresh(first) {
    chosen = { dealer: first && !sd.dealer_fixed ? sd.deal.dealer : "", losers: [] };
  }
  function dealerOf() { return sd.dealer_fixed ? sd.deal.dealer : chosen.dealer; }
  // Königrufen: the auction the server drew for this dealer, declarer and contract
  // (the engine's speakers, in its order), the contracts it offered the declarer and
  // the cards it lets be called for the contract; none of them decided here.
  function auction() {
    return sd.auctions[dealerOf() + "|" + chosen.declarer + "|" + chosen.contract] || null;
  }
  function offered() { return sd.contracts[dealerOf() + "|" + chosen.declarer] || []; }
  function callable() { return (sd.called || {})[chosen.contract] || []; }
  function block() {
    var key;
    if (koenig) {
      if (!chosen.declarer || !chosen.contract || !auction()) return null;
      key = chosen.declarer + "|" + chosen.contract;
    } else {
      if (!chosen.macher || !chosen.called) return null;
      key = chosen.macher + "|" + (chosen.called === "alone" ? "alone" : "card");
    }
    return scratch.querySelector('.scratch-fields[data-key="' + key + '"]');
  }
  function each(selector, fn) { Array.prototype.forEach.call(scratch.querySelectorAll(selector), fn); }
  function drawKoenig() {
    var contracts = offered();
    if (contracts.indexOf(chosen.contract) < 0) chosen.contract = contracts.length === 1 ? contracts[0] : "";
    var cards = callable();
    if (cards.indexOf(chosen.called) < 0) chosen.called = "";
    scratch.querySelector('[data-q="contract"]').hidden = !chosen.declarer;
    each('button[data-field="contract"]', function (b) { b.hidden = contracts.indexOf(b.dataset.value) < 0; });
    scratch.querySelector('[data-q="called"]').hidden = !cards.length;
    each('button[data-field="called"]', function (b) { b.hidden = cards.indexOf(b.dataset.value) < 0; });
  }
  // The fields the server marked required for the block shown are filled (the engine
  // still judges the tally when it is sent).
  function filled(shown) {
    if (!shown) return false;
    if (koenig && callable().length && !chosen.called) return false;
    return (shown.dataset.required || "").split(" ").every(function (f) {
      if (!f) return true;
      return f === "losers" ? chosen.losers.length > 0 : !!chosen[f];
    });
  }
  function drawScratch() {
    if (koenig) drawKoenig();
    var shown = block();
    each(".scratch-fields", function (el) { el.hidden = el !== shown; });
    each("button[data-field]", function (b) {
      var on = b.dataset.many ? chosen.losers.indexOf(b.dataset.value) >= 0 : chosen[b.dataset.field] === b.dataset.value;
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    var dealt = sd.dealer_fixed || chosen.dealer;
    document.getElementById("tally-scratch-save").disabled = !(dealt && shown && (!koenig || filled(shown)));
  }
  // Offline, the form that asks the server gives way to the one drawn at page load
  // (a tally filled in online and ready to save stays: its "Save" is queued).
  function showScratch() {
    if (!scratch || !sd) return;
    var form = document.getElementById("tally");
    var off = navigator.onLine === false && !(form && form.dataset.ready === "1");
    scratch.hidden = !off;
    if (form) form.hidden = off;
    if (off) drawScratch();
  }
  // The events the choices make: the deal the server proposed (with the dealer
  // chosen), the call or the auction the server drew, and a tally of the fields the
  // server listed for them.
  function scratchEvents(shown) {
    var deal = Object.assign({}, sd.deal);
    if (!sd.dealer_fixed) deal.dealer = chosen.dealer;
    var fields = (shown.dataset.fields || "").split(" ");
    var tally = { type: "tally" };
    if (fields.indexOf("won") >= 0 && chosen.won) tally.won = chosen.won === "1";
    if (fields.indexOf("partner") >= 0 && chosen.partner) tally.partner = chosen.partner;
    if (koenig) {
      if (fields.indexOf("losers") >= 0) tally.losers = chosen.losers.slice();
      var bids = auction().map(function (e) {
        var copy = Object.assign({}, e);
        if (copy.type === "bid" && callable().length) copy.called = chosen.called;
        return copy;
      });
      return [deal].concat(bids, [tally]);
    }
    var call = { type: "call", player: chosen.macher };
    if (chosen.called === "alone") call.alone = true; else call.card = chosen.called;
    if (fields.indexOf("level") >= 0 && chosen.level) tally.level = chosen.level === "-" ? null : chosen.level;
    var augen = shown.querySelector('input[data-field="augen"]');
    if (fields.indexOf("augen") >= 0 && augen && /^\d+$/.test(augen.value.trim())) tally.augen = Number(augen.value.trim());
    if (fields.indexOf("silent") >= 0 && chosen.silent) tally.silent = true;
    if (fields.indexOf("fuchs") >= 0 && chosen.fuchs) tally.fuchs = true;
    return [deal, call, tally];
  }
  // A choice that leads to another block forgets what was chosen after it.
  var KEEP = koenig
    ? { declarer: ["dealer", "declarer"], contract: ["dealer", "declarer", "contract"] }
    : { macher: ["dealer", "macher", "called"], called: ["dealer", "macher", "called"] };
  if (scratch && sd) {
    fresh(true);
    scratch.addEventListener("click", function (ev) {
      var b = ev.target.closest("button[data-field]");
      if (b) {
        var f = b.dataset.field;
        if (b.dataset.many) {
          var at = chosen.losers.indexOf(b.dataset.value);
          if (at >= 0) chosen.losers.splice(at, 1); else chosen.losers.push(b.dataset.value);
        } else {
          chosen[f] = chosen[f] === b.dataset.value ? "" : b.dataset.value;
        }
        if (KEEP[f]) {
          var kept = { losers: [] };
          KEEP[f].forEach(function (k) { kept[k] = chosen[k]; });
          chosen = kept;
        }
        drawScratch();
        return;
      }
      if (!ev.target.closest("#tally-scratch-save")) return;
      var shown = block();
      if (!shown) return;
      var text = Array.prototype.map.call(scratch.querySelectorAll('button[aria-pressed="true"]'), function (el) {
        return el.getAttribute("aria-label") || el.textContent.trim();
      }).join(", ");
      keep(sd.evening, sd.api, { events: scratchEvents(shown) }, text).then(function () {
        // The next deal's dealer is the scorer's to name (the page keeps no rotation).
        fresh(false);
        each("input[data-field]", function (i) { i.value = ""; });
        drawScratch();
      });
    });
    window.addEventListener("offline", showScratch);
    window.addEventListener("online", showScratch);
    showScratch();
  }

  window.addEventListener("online", function () { draw().then(flush); });
  window.setInterval(function () { if (!box.hidden) flush(); }, 3000);
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(function () {});
  draw().then(flush);
})();
