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
  // Its words are the JS catalogue's (loaded before this file; English without it).
  var gettext = window.gettext || function (msgid) { return msgid; };
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
    slot.setAttribute("title", gettext("not yet confirmed"));
  }

  function noteStale(events) {
    // record.js names what the other phone recorded (.conflict-note): no second note.
    if (!root.querySelector(".conflict-note")) {
      var note = document.createElement("p");
      note.className = "notice stale-note";
      note.setAttribute("role", "status");
      note.textContent = gettext("Another phone recorded in the meantime: the table is as it is now — tap again.");
      root.insertBefore(note, root.firstChild);
    }
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
    if (!mine || busy || mine.last_seq <= seq || !window.Stichbuch) return;
    window.Stichbuch.reload();
  });
})();

/* Offline-first recording: with no network the recording page keeps its card grid
   (record.js draws it from the deck the server sent) and each tap is queued here, on
   the phone (IndexedDB, with its Idempotency-Key and expected_seq), listed at once as
   "not yet sent" and sent in order when the network returns. The server judges each
   one as it arrives: a 409 or 422 stops the queue and shows the event with the
   server's message; the rest waits. A retry after a lost answer sends the same key
   and body, and the server answers it from its idempotency record: nothing is
   stored twice. Offline the page cannot know whose turn it is or what is legal (that
   is the engine's word): the scorer names the player, and the entries are unchecked
   until sent. */
(function () {
  "use strict";
  var root = document.getElementById("record");
  var cfgEl = document.getElementById("record-config");
  var box = document.getElementById("offline-entry");
  if (!root || !cfgEl || !box || !window.StichbuchOutbox) return;
  var cfg = JSON.parse(cfgEl.textContent);
  var gettext = window.gettext || function (msgid) { return msgid; };
  var flushing = false;

  var tx = window.StichbuchOutbox.tx;
  var uuid = window.StichbuchOutbox.uuid;
  function items() {
    return tx("readonly", function (s) { return s.getAll(); }).then(function (all) {
      return (all || []).filter(function (i) { return i.game === cfg.game_id; })
        .sort(function (a, b) { return a.id - b.id; });
    });
  }
  function seqNow() { return Number(root.getAttribute("data-seq") || 0); }

  // Queue events: one item per request, its key and expected_seq fixed now (after
  // the items already waiting, else after the last event the server stored).
  function queue(events, key, expected) {
    return items().then(function (list) {
      var last = list[list.length - 1];
      if (expected === undefined) expected = last ? last.expected_seq + last.events.length : seqNow();
      if (key && list.some(function (i) { return i.key === key; })) return null;
      return tx("readwrite", function (s) {
        return s.add({ game: cfg.game_id, api: cfg.events_api, key: key || uuid(), expected_seq: expected, events: events, failed: null });
      });
    }).then(draw);
  }

  function describe(e) {
    if (window.Stichbuch && window.Stichbuch.describe) return window.Stichbuch.describe(e);
    return [e.type, e.card, e.level].filter(Boolean).join(" ");
  }

  function draw() {
    return items().then(function (list) {
      var offline = navigator.onLine === false;
      box.hidden = !offline && !list.length;
      var ul = box.querySelector(".offline-queue");
      while (ul.firstChild) ul.removeChild(ul.firstChild);
      list.forEach(function (item) {
        var li = document.createElement("li");
        li.className = item.failed ? "offline-failed" : "offline-waiting";
        li.setAttribute("data-seq", item.expected_seq + item.events.length);
        if (item.failed) li.setAttribute("role", "alert");
        li.textContent = item.events.map(describe).join(" · ") + " — " + (item.failed ? item.failed : gettext("not yet sent / unchecked"));
        if (item.failed) {
          var drop = document.createElement("button");
          drop.type = "button";
          drop.className = "btn-quiet offline-drop";
          drop.textContent = gettext("Drop it");
          drop.addEventListener("click", function () { dropItem(item); });
          li.appendChild(drop);
        }
        ul.appendChild(li);
      });
      if (window.Stichbuch) window.Stichbuch.queued(list);
    });
  }

  // A refused event is dropped by the scorer; the ones after it move up one place.
  function dropItem(item) {
    return items().then(function (list) {
      return tx("readwrite", function (s) {
        s.delete(item.id);
        list.forEach(function (other) {
          if (other.id > item.id) { other.expected_seq -= item.events.length; s.put(other); }
        });
      });
    }).then(function () {
      return window.Stichbuch ? window.Stichbuch.reload() : null;
    }).then(draw).then(flush);
  }

  function flush() {
    if (flushing || navigator.onLine === false) return Promise.resolve();
    flushing = true;
    var sent = 0, refused = false;
    function next() {
      return items().then(function (list) {
        var item = list[0];
        if (!item || item.failed) return null;
        var body = JSON.stringify({ expected_seq: item.expected_seq, events: item.events, answer: "new" });
        return window.StichbuchOutbox.send(item, cfg.events_api, body, root.getAttribute("data-csrf") || "", gettext("refused"))
          .then(function (ok) {
            if (!ok) { refused = true; return null; }
            sent += 1;
            return next();
          });
      });
    }
    return next().catch(function () { /* the network went again: later */ }).then(function () {
      flushing = false;
      return (sent || refused) && window.Stichbuch ? window.Stichbuch.reload() : null;
    }).then(draw);
  }

  // A tap while offline (record.js): into the outbox.
  document.addEventListener("record:queue", function (e) { queue(e.detail.events); });
  window.addEventListener("online", function () { draw().then(flush); });
  // The "online" event can come before requests go through again (and a cellar's
  // network comes and goes): try again every few seconds while anything waits.
  window.setInterval(function () { if (!box.hidden) flush(); }, 3000);
  window.addEventListener("offline", draw);
  // A request record.js sent into a dead network: queue it rather than lose it.
  document.addEventListener("record:network-error", function (e) {
    var body = e.detail.body || {};
    if (body.events && body.correct === undefined) queue(body.events, e.detail.key, body.expected_seq);
  });
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(function () {});
  draw().then(flush);
})();
