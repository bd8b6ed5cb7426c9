/* The recording page's events on their way: shown at once, confirmed by the server.

   - A tap shows at once: while an append is on its way (record.js's "record:render"
     event names it), the tapped card is painted on the table, marked as not yet
     confirmed; the server's answer redraws the table (confirmed) or leaves it as it
     was (refused: record.js shows the engine's message).
   - Several phones on one game: the live stream of the evening (live.js, its
     "live:state" event) says when this game's record moved on without us; the page
     then reloads the table.
   - A 409 (another phone recorded first): the table is reloaded and the tap offered
     again, with a quiet note instead of an error.
   No rule here: what is legal, whose turn it is, is the server's (the engine's) word. */
(function () {
  "use strict";
  var root = document.getElementById("record");
  var cfgEl = document.getElementById("record-config");
  if (!root || !cfgEl) return;
  var cfg = JSON.parse(cfgEl.textContent);
  var strings = (document.getElementById("offline-strings") || { dataset: {} }).dataset;
  var busy = false;
  var seq = Number(root.getAttribute("data-seq") || 0);

  // record.js redrew the page while the events are on their way: paint them again.
  function paintPending(events) {
    events.forEach(function (event) {
      if (event.type !== "play") return;
      var button = root.querySelector('.hand button[data-card="' + event.card + '"]');
      var slot = root.querySelector('.trick .slot[data-seat="' + event.player + '"]');
      if (button && slot) paintInto(slot, button);
    });
  }

  // The tap itself: before record.js sends it, the card goes onto the table's
  // next seat (the seat the server's state says is to act), marked unconfirmed.
  root.addEventListener("click", function (ev) {
    var button = ev.target.closest('.hand button[data-act="play"]');
    if (!button || button.disabled || busy) return;
    var slot = root.querySelector(".trick .slot.next");
    if (!slot) return;
    paintInto(slot, button);
  }, true);

  function paintInto(slot, button) {
    button.classList.add("unconfirmed");
    var card = document.createElement("span");
    card.className = button.className;
    card.innerHTML = button.innerHTML; // the card face record.js drew
    var empty = slot.querySelector(".pc");
    if (empty) slot.replaceChild(card, empty); else slot.insertBefore(card, slot.firstChild);
    slot.classList.remove("empty", "next");
    slot.classList.add("unconfirmed");
    slot.setAttribute("title", strings.unconfirmed || "");
  }

  function noteStale(events) {
    var note = document.createElement("p");
    note.className = "notice stale-note";
    note.setAttribute("role", "status");
    note.textContent = strings.stale || "";
    root.insertBefore(note, root.firstChild);
    events.forEach(function (event) {
      if (event.type !== "play") return;
      var again = root.querySelector('.hand button[data-act="play"][data-card="' + event.card + '"]');
      if (again) again.classList.add("reoffered");
    });
  }

  document.addEventListener("record:render", function (e) {
    var d = e.detail || {};
    busy = !!d.busy;
    seq = d.seq;
    if (d.sending) paintPending(d.sending);
    else if (d.stale) noteStale(d.stale);
  });

  // Another phone appended to this game: take the table as the server has it now.
  document.addEventListener("live:state", function (e) {
    var state = e.detail || {};
    var mine = (state.games || []).filter(function (g) { return g.id === cfg.game_id; })[0];
    if (!mine || busy || mine.last_seq === seq || !window.Stichbuch) return;
    window.Stichbuch.reload();
  });
})();
