/* Stichbuch: recording a game at the table.
 *
 * The page embeds its configuration (#record-config: the game, the player names,
 * the card faces, the names of the engine's codes in the page's language) and the
 * table as the server saw it (#record-data: {state, last_seq, events}). Its
 * sentences are the JS catalogue's (gettext, /jsi18n/<language>/). Every tap that records something
 * sends ONE POST to /api/games/{id}/events/ with the sequence number we last saw;
 * the answer (or a fresh GET) is the table we draw next. Nothing of the game is
 * decided here: the engine says what is legal, this file only shows it.
 */
(function () {
  "use strict";

  var root = document.getElementById("record");
  if (!root) return;
  var cfg = JSON.parse(document.getElementById("record-config").textContent);
  var boot = JSON.parse(document.getElementById("record-data").textContent);
  // The page's sentences come from the JS catalogue (/jsi18n/<language>/, loaded
  // before this file); without it (never cached, no network) they stay English.
  var gettext = window.gettext || function (msgid) { return msgid; };
  var pgettext = window.pgettext || function (context, msgid) { return msgid; };
  // The names of the engine's codes (suits, ranks, levels, contracts, reasons, error
  // headings): data from the server, as its own pages name them (games.vocabulary).
  var W = cfg.words;
  cfg.csrf = root.getAttribute("data-csrf") || "";

  var state = boot.state;
  var seq = boot.last_seq;
  var events = boot.events || []; // the stored events, for the log and the called card
  var explanation = boot.explanation || null; // the server's sentence for a record stored invalid
  // Why each greyed card is refused: the engine's reasons as the server worded them.
  var reasons = boot.reasons || { play: {}, face_down: {} };
  var busy = false;
  var problem = null; // {title, event, detail, retry}
  var pending = null; // a request that failed on the network: {body, key}
  // For static/js/offline.js (the "record:render" event): the events on their way,
  // painted as not yet confirmed, and those a 409 sent back to be tapped again.
  var sending = null, stale = null;
  // What was tapped to send the events on their way ({act, card, player, level,
  // contract}): drawn again as not yet confirmed until the answer comes.
  var tapped = null;
  // The events waiting in the phone's outbox (offline.js keeps them): while any wait,
  // or the phone has no network, the table is the last one the server sent and taps
  // are queued, unchecked, instead of sent.
  var queued = [];
  var ui = resetUi();
  // Sent here to change an entry (the result form's answer for a game recorded card by
  // card): "Alle Einträge" opens at once.
  ui.logOpen = window.location.hash === "#entries";
  var leftOut = null; // {events, detail}: what an entry's change could not enter again
  var conflict = null; // {theirs, same}: what another phone recorded before our tap

  function resetUi() {
    return {
      fuchs: false, turned: false, panel: null,
      callMode: "partner", callCard: null, turnChoice: "none", macher: null,
      bid: null, bidCard: null,
      who: null, cards: [], reason: "", refused: null,
      offWho: null, offKind: "play"
    };
  }

  // ---------------------------------------------------------------- helpers
  function esc(s) {
    return String(s == null ? "" : s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, k) { return values[k] == null ? "" : values[k]; });
  }
  function name(pid) { return cfg.names[pid] || pid; }
  function money(v) { return fmt(cfg.points ? gettext("%(v)s pt") : gettext("%(v)s ct"), { v: v }); }
  function suitOf(code) { return code.charAt(0); }
  function rankOf(code) { return code.slice(1); }
  // The contracts bid with a card laid face down (the engine's).
  var FACE_DOWN = cfg.with_face_down || [];
  // The game's trumps, as the engine's table view lists them (none in Königrufen).
  function isTrump(code) { return (state.trumps || []).indexOf(code) >= 0; }
  function rankLabel(code) {
    var r = rankOf(code);
    return W.rank_labels[r] || r;
  }
  function cardName(code) {
    if (!code) return "";
    return fmt(gettext("%(rank)s of %(suit)s"), { suit: W.suits[suitOf(code)], rank: W.rank_names[rankOf(code)] });
  }
  function suitSvg(code) {
    return '<svg class="s" aria-hidden="true"><use href="#' + (cfg.face === "french" ? "f-" : "g-") + suitOf(code) + '"></use></svg>';
  }
  function cardFace(code, extra) {
    return '<span class="r">' + esc(rankLabel(code)) + "</span>" + suitSvg(code) + (extra || "");
  }
  function cardSpan(code, cls) {
    if (code === true || code === "?") return '<span class="pc back ' + (cls || "") + '" title="' + esc(gettext("face down")) + '"><span class="r">?</span></span>';
    return '<span class="pc s-' + suitOf(code) + (isTrump(code) ? " trump" : "") + " " + (cls || "") +
      '" title="' + esc(cardName(code)) + '">' + cardFace(code) + "</span>";
  }

  // The deck in play, row by row ({label, trump, cards}; null a gap): the engine's
  // table view lays it out (Fuchsen's trumps first, Königrufen's ranks in the order of
  // the contract); without a table yet, the deck the page was sent with.
  function deckRows() {
    return state.deck && state.deck.length ? state.deck : cfg.deck || [];
  }
  function playedCards() {
    var out = {};
    (state.tricks || []).forEach(function (t) { t.cards.forEach(function (pc) { out[pc[1]] = true; }); });
    (state.trick || []).forEach(function (pc) { out[pc[1]] = true; });
    return out;
  }

  // The events still standing after the undos, as the engine resolved them
  // (``state.effective``: their positions among the stored events).
  function effectiveEvents() {
    return (state.effective || []).map(function (i) { return events[i]; }).filter(Boolean);
  }
  // The called card, whether the Fuchs was said, who plays next, alone or not: the
  // engine's table view says (called_card, fuchs_said, next_player, alone).
  function calledCard() { return state.called_card || null; }
  function fuchsSaid() { return !!state.fuchs_said; }
  // The game's value at a level or contract under its house rules (the view's values).
  function valueOf(key) { return (state.values || {})[key || ""]; }

  function describe(e) {
    if (!e || typeof e !== "object") return "";
    var p = name(e.player);
    switch (e.type) {
      case "deal": return fmt(gettext("%(p)s deals"), { p: name(e.dealer) });
      case "call":
        if (e.alone) return fmt(gettext("%(p)s plays alone"), { p: p }) + (e.turned ? " · " + gettext("turned a card") : "");
        return fmt(gettext("%(p)s calls %(c)s"), { p: p, c: cardName(e.card) }) + (e.turned ? " · " + gettext("turned a card") : "");
      case "play": return fmt(gettext("%(p)s plays %(c)s"), { p: p, c: cardName(e.card) }) + (e.fuchs ? " · " + gettext("Fuchs!") : "") + (e.turned ? " · " + gettext("turned a card") : "");
      case "raise": return fmt(gettext("%(p)s says %(l)s"), { p: p, l: W.levels[e.level] || e.level });
      case "end_raising": return gettext("Trick done, the raising is over");
      case "bid": return fmt(gettext("%(p)s bids %(b)s"), { p: p, b: W.contracts[e.contract] || e.contract }) + (e.called ? " · " + fmt(gettext("calls %(c)s"), { c: cardName(e.called) }) : "") +
        (e.card ? " · " + fmt(gettext("face down: %(c)s"), { c: cardName(e.card) }) : "");
      case "pass": return fmt(gettext("%(p)s passes"), { p: p });
      case "join": return fmt(gettext("%(p)s joins"), { p: p }) + (e.card ? " · " + fmt(gettext("face down: %(c)s"), { c: cardName(e.card) }) : "");
      case "show": return fmt(gettext("%(p)s shows %(c)s"), { p: p, c: (e.cards || []).map(cardName).join(", ") });
      case "forfeit": return fmt(gettext("%(p)s forfeits"), { p: p });
      case "annul": return gettext("The game is annulled");
      case "undo": return gettext("Undo");
    }
    return String(e.type);
  }
  // Engine messages name players by their ids; put their names in.
  function withNames(message) {
    return String(message || "").replace(/\b(\d+)('s)?\b/g, function (m, id, s) {
      return cfg.names[id] ? cfg.names[id] + (s || "") : m;
    });
  }

  // The gist of an engine message in the page's language: which card proves it, whose turn.
  function hint(code, message) {
    var held = /(\S+) holds ([EGRS](?:10|[AKOU987]))\b/.exec(message || "");
    if (held && /^must_/.test(code)) return fmt(gettext("The record shows %(p)s holds %(c)s."), { p: name(held[1]), c: cardName(held[2]) });
    var turn = /it is (.+?)'s turn/.exec(withNames(message));
    if (turn && code === "not_your_turn") return fmt(gettext("It is %(p)s's turn."), { p: turn[1] });
    return "";
  }

  // ---------------------------------------------------------------- talking to the API
  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "k" + Date.now().toString(36) + Math.random().toString(36).slice(2);
  }
  // Correct the stored event at ``index`` (the record's position) to ``event``: the
  // server undoes back to it, appends the correction and the later events again.
  function sendCorrection(index, event) {
    if (busy) return Promise.resolve();
    return request({ expected_seq: seq, events: [event], answer: "new", correct: index }, uuid());
  }
  // Change the standing entry at ``index`` to ``event`` ("ändern" in "Alle Einträge"):
  // the later entries are entered again up to one that no longer fits (left out).
  function sendChange(index, event) {
    if (busy) return Promise.resolve();
    return request({ expected_seq: seq, events: [event], answer: "new", correct: index, stop_at_misfit: true }, uuid());
  }
  // The trick (1-based) of the entry stored at position ``index`` (the view's event_tricks).
  function trickOf(index) {
    var k = (state.effective || []).indexOf(index);
    var t = k >= 0 ? (state.event_tricks || [])[k] : null;
    return t == null || t < 0 ? 1 : t + 1;
  }
  function send(newEvents) {
    if (busy) return Promise.resolve();
    if (offlineMode()) return queue(newEvents);
    // "answer": "new": the 201 lists only the events we appended (we have the others).
    return request({ expected_seq: seq, events: newEvents, answer: "new" }, uuid());
  }
  // No network (or events already waiting): the events go into the phone's outbox
  // (offline.js gives them their Idempotency-Key and expected_seq) and are drawn at
  // once as not yet sent. Nobody checks them until they are sent: the engine does.
  function offlineMode() {
    return !cfg.readonly && !!window.indexedDB && (navigator.onLine === false || queued.length > 0);
  }
  function queue(newEvents) {
    queued = queued.concat(newEvents.map(function (e) { return { event: e, failed: null }; }));
    tapped = null;
    ui.offKind = "play";
    render();
    document.dispatchEvent(new CustomEvent("record:queue", { detail: { events: newEvents } }));
    return Promise.resolve();
  }
  function pendingText() {
    if (!busy || !sending || !sending.length) return "";
    var what = sending.map(function (e) {
      if (e.type !== "undo") return describe(e);
      var last = effectiveEvents().slice(-1)[0];
      return last ? fmt(gettext("Taking back: %(e)s"), { e: describe(last) }) : describe(e);
    }).join(" · ");
    return what + " — " + gettext("not yet confirmed");
  }
  // The tap painted at once, before the page is drawn again: the tapped button and
  // the line under the table say what is on its way, not yet confirmed.
  function paintNow() {
    // The tap is on its way from now on: the page says so at once, and the previous
    // refusal goes (it was about the entry before, not this one).
    root.setAttribute("aria-busy", "true");
    var refusal = root.querySelector(".engine-error");
    if (refusal) refusal.remove();
    var line = root.querySelector(".felt .sub");
    if (line) {
      line.textContent = pendingText();
      line.classList.add("pending", "unconfirmed");
    }
    markTapped();
    if (sending && sending.some(function (e) { return e.type === "undo"; })) {
      var last = root.querySelector(".last-event");
      if (last) last.classList.add("undoing", "unconfirmed");
    }
  }
  function markTapped() {
    if (!tapped || !busy) return;
    var sel = '[data-act="' + tapped.act + '"]';
    ["card", "player", "level", "contract"].forEach(function (k) {
      if (tapped[k]) sel += "[data-" + k + '="' + tapped[k] + '"]';
    });
    var el = root.querySelector(sel);
    if (el) el.classList.add("unconfirmed");
  }
  function afterPaint(fn) {
    if (window.requestAnimationFrame) requestAnimationFrame(function () { setTimeout(fn, 0); });
    else setTimeout(fn, 0);
  }
  function request(body, key) {
    busy = true;
    leftOut = null;
    conflict = null;
    root.classList.add("busy");
    problem = null;
    sending = body.events || null;
    stale = null;
    paintNow();
    // Drawn after the next frame: offline.js has painted the tap already, and the
    // phone shows it before this redraw of the page takes its time.
    afterPaint(render);
    return fetch(cfg.events_api, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": cfg.csrf, "Idempotency-Key": key, "Accept": "application/json" },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) { return { status: r.status, data: data }; });
    }).then(function (res) {
      pending = null;
      if (res.status === 201 || res.status === 200) {
        var data = res.data;
        if (body.answer === "new" && data && data.events) {
          // Only the appended events came back: add them to ours, keep the rest.
          events = events.concat(data.events.map(asEvent));
          data = Object.assign({}, data, { events: null });
        } else {
          events = events.concat(body.events);
        }
        var logOpen = ui.logOpen;
        ui = resetUi();
        ui.logOpen = logOpen;
        // An entry changed: the later entries that no longer fit were left out (the
        // server names the first and why); the page says so until the next tap.
        leftOut = data && data.left_out && data.left_out.length
          ? { events: data.left_out, detail: data.misfit_detail || "" } : null;
        return adopt(data);
      }
      if (res.status === 409) {
        // Another phone recorded first: take the table as it is now and say what it
        // recorded. The very entry we tried: it is in, carry on. Another one: name it,
        // and offer our tap again (the card marked) rather than an error.
        var mine = body.events || [];
        var from = seq;
        return reload().then(function () {
          var theirs = events.slice(from).filter(function (e) { return e.type !== "undo"; });
          var same = mine.length > 0 && mine.length <= theirs.length && mine.every(function (e, i) { return sameEntry(e, theirs[i]); });
          conflict = theirs.length ? { theirs: theirs, same: same } : null;
          stale = same || !mine.length ? null : mine;
        });
      }
      if (res.status === 422 && res.data && res.data.error) {
        // The error's index counts the stored events first; ours start at event_offset.
        var err = res.data.error;
        var local = (err.index || 0) - (res.data.event_offset || 0);
        var ev = local >= 0 ? body.events[local] : null;
        if (navigator.vibrate) navigator.vibrate([60, 40, 60]);
        // The server's detail is the engine's sentence in the page's language, with names:
        // it says what the hint would (who holds which card, whose turn it is).
        var said = res.data.detail;
        // An error at a stored event: a mistake found in hindsight. Name that entry
        // (trick, player, card) and offer to correct it.
        var stored = local < 0 && err.index >= 0 ? events[err.index] : null;
        var fix = stored && stored.type === "play" ? { index: err.index, event: stored, trick: trickOf(err.index) } : null;
        problem = { title: W.errors[err.code] || gettext("Not accepted"), code: err.code, event: ev ? describe(ev) : "",
          hint: said ? "" : hint(err.code, err.message), detail: said || withNames(err.message), fix: fix };
        return;
      }
      var detail = (res.data && (res.data.detail || JSON.stringify(res.data))) || String(res.status);
      problem = { title: res.status === 403 ? gettext("Only scorers may record games.") : gettext("Not accepted"), detail: detail };
    }).catch(function () {
      pending = { body: body, key: key };
      // offline.js queues it (same key: a retry from here is answered, not stored twice).
      document.dispatchEvent(new CustomEvent("record:network-error", { detail: { body: body, key: key } }));
      // With an outbox the event waits there, listed as not yet sent; without one
      // (no IndexedDB) the scorer sends it again.
      problem = window.StichbuchOutbox ? null : { title: gettext("No connection. Nothing was lost: send again when you have a signal."), detail: "", retry: true };
    }).then(function () {
      busy = false;
      sending = null;
      tapped = null;
      root.classList.remove("busy");
      render();
    });
  }
  // Take the table from an API answer (GET /api/games/{id}/, or a 201 whose events we took).
  function adopt(data) {
    if (!data || !data.state) return reload();
    state = data.state;
    if (data.last_seq != null) seq = data.last_seq;
    if (data.players) Object.keys(data.players).forEach(function (k) { cfg.names[k] = data.players[k]; });
    if (data.events) events = data.events.map(asEvent);
    if (data.explanation !== undefined) explanation = data.explanation;
    if (data.reasons) reasons = data.reasons;
  }
  // An event of an API answer ({seq, type, payload, ...}) as the record has it.
  function asEvent(e) { return Object.assign({ type: e.type }, e.payload || {}); }
  function reload() {
    return fetch(cfg.game_api, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        // A reload asked before our own append may be answered after it: an answer
        // older than the table we hold is dropped, not drawn over the newer one.
        if (!data || !data.state || (data.last_seq != null && data.last_seq < seq)) return;
        adopt(data);
      });
  }

  // ---------------------------------------------------------------- drawing
  function seatsHtml() {
    var players = state.players || [];
    var decl = state.declarers || [];
    return '<ul class="seats' + (players.length >= 6 ? " n6" : "") + '" aria-label="' + esc(gettext("Seats, clockwise")) + '">' + players.map(function (p) {
      var tags = [];
      if (p === state.dealer) tags.push(gettext("dealer"));
      if (p === state.sitting_out) tags.push(gettext("sits out"));
      if (p === state.macher) tags.push(gettext("Macher"));
      else if (cfg.kind === "fuchsen" && decl.indexOf(p) > 0) tags.push(gettext("Hilfer"));
      if (cfg.kind === "koenigrufen" && p === state.declarer) tags.push(gettext("declarer"));
      else if (cfg.kind === "koenigrufen" && decl.indexOf(p) > 0) tags.push(gettext("partner"));
      var cls = "seat" + (p === state.to_act ? " to-act" : "") + (p === state.sitting_out ? " out" : "") + (decl.indexOf(p) >= 0 ? " decl" : "");
      return '<li class="' + cls + '" data-player="' + esc(p) + '"' + (p === state.to_act ? ' aria-current="true"' : "") + ">" +
        esc(name(p)) + '<span class="tags">' + esc(tags.join(" · ")) + "</span></li>";
    }).join("") + "</ul>";
  }

  function statusText() {
    var who = state.to_act ? '<span class="who">' + esc(name(state.to_act)) + "</span>" : "";
    switch (state.status) {
      case "finished": return esc(gettext("Game over"));
      case "annulled": return esc(gettext("Annulled"));
      case "invalid": return esc(gettext("The record is invalid"));
      case "unavailable": return esc(gettext("The table cannot be shown just now: reload the page."));
    }
    switch (state.awaiting) {
      case "deal": return esc(gettext("Deal the cards"));
      case "call": return who ? fmt(esc(gettext("%(p)s calls")), { p: who }) : esc(gettext("The Macher calls"));
      case "bid": return fmt(esc(gettext("%(p)s bids")), { p: who });
      case "play":
        return fmt(esc((state.trick || []).length ? gettext("%(p)s plays") : gettext("%(p)s leads")), { p: who });
      case "raise_or_end": return esc(gettext("The first trick is complete: raise, or collect it"));
      case "partner": return esc(cfg.kind === "fuchsen" ? gettext("Who is the Hilfer?") : gettext("Who is the partner?"));
    }
    return "";
  }

  function levelBar() {
    var parts = [];
    if (cfg.kind === "fuchsen") {
      if (state.alone) parts.push('<span class="lvl">' + esc(gettext("alone (Herausspielen)")) + "</span>");
      var called = calledCard();
      if (called && !state.alone) parts.push(esc(gettext("called:")) + " " + cardSpan(called, "mini"));
      var lv = state.level;
      parts.push('<span class="lvl" data-level="' + esc(lv || "") + '">' + esc(lv ? W.levels[lv] : pgettext("tally in the replay", "no raise")) + " · " + esc(money(valueOf(lv))) + "</span>");
      if (fuchsSaid()) parts.push('<span class="flag">' + esc(gettext("Fuchs!")) + "</span>");
    } else {
      if (state.contract) parts.push('<span class="lvl">' + esc(W.contracts[state.contract] || state.contract) + " · " + esc(money(state.value != null ? state.value : valueOf(state.contract))) + "</span>");
      var c = calledCard();
      if (c && cfg.with_called.indexOf(state.contract) >= 0) parts.push(esc(gettext("called:")) + " " + cardSpan(c, "mini"));
    }
    return '<div class="levelbar">' + parts.join(" ") + "</div>";
  }

  // Which card of the trick on the table is winning it so far (the engine's
  // ``trick_winner``): a hint for the eye once two cards are down.
  function winningIndex(trick) {
    if (trick.length < 2 || !state.trick_winner) return -1;
    for (var j = 0; j < trick.length; j++) if (trick[j][0] === state.trick_winner) return j;
    return -1;
  }

  function trickHtml() {
    var active = state.active || [];
    if (!active.length) return "";
    var trick = state.trick || [];
    var start = trick.length ? active.indexOf(trick[0][0]) : active.indexOf(state.to_act);
    if (start < 0) start = 0;
    var slots = [];
    var winning = winningIndex(trick);
    for (var i = 0; i < active.length; i++) {
      var p = active[(start + i) % active.length];
      var played = trick[i];
      var cardHtml = played ? cardSpan(played[1]) : '<span class="pc"></span>';
      var label = played ? name(played[0]) : name(p);
      slots.push('<div class="slot' + (played ? "" : " empty") + (!played && p === state.to_act ? " next" : "") + (i === winning ? " winning" : "") +
        '" data-seat="' + esc(p) + '">' + cardHtml +
        '<span class="name">' + esc(label) + "</span></div>");
    }
    return '<div class="trick" style="grid-template-columns:repeat(' + active.length + ',minmax(0,1fr))" aria-label="' + esc(gettext("The trick on the table")) + '">' + slots.join("") + "</div>";
  }

  function gridHtml(opts) {
    // opts: {act, enabled: fn(code)->bool, picked: fn(code)->bool, hidePlayed}
    var played = playedCards();
    var rows = opts.deck || deckRows();
    return '<div class="hand">' + rows.map(function (row) {
      var trumpRow = !!row.trump;
      var label = row.label === "T"
        ? '<span class="row-label trump">' + esc(gettext("Trump")) + "</span>"
        : '<span class="row-label' + (trumpRow ? " trump-suit" : "") + '">' + suitSvg(row.label + "A") + "</span>";
      var cls = row.label === "T" ? " trumps" : " s-" + row.label + (trumpRow ? " trumps" : "");
      return '<div class="hand-row' + cls + '">' + label + row.cards.map(function (code) {
        if (!code || (opts.hidePlayed !== false && played[code])) return '<span class="pc gap"></span>';
        var on = opts.enabled(code);
        var pick = opts.picked && opts.picked(code);
        var waits = opts.queued && opts.queued(code);
        // A refused card stays tappable where the engine says why (opts.explains):
        // aria-disabled, not disabled, so the tap can show the reason.
        var says = !on && opts.explains;
        var off = busy || !on;
        return '<button type="button" class="pc s-' + suitOf(code) + (isTrump(code) ? " trump" : "") + (pick ? " picked" : "") + (waits ? " queued unconfirmed" : "") +
          (says ? " off" : "") + (ui.refused === code ? " refused" : "") +
          '" data-act="' + (says ? "refused" : opts.act) + '" data-card="' + code + '" aria-label="' + esc(rankLabel(code) + " – " + cardName(code)) + '"' +
          (pick ? ' aria-pressed="true"' : "") + (says ? ' aria-disabled="true"' : off ? " disabled" : "") + ">" + cardFace(code) + "</button>";
      }).join("") + "</div>";
    }).join("") + "</div>";
  }

  function raisesHtml() {
    var raises = (state.legal && state.legal.raises) || [];
    var canEnd = state.legal && state.legal.can_end_raising;
    if (!raises.length && !canEnd) return "";
    var out = '<div class="panel raises">';
    if (raises.length) {
      var level = raises[0][1];
      var mine = state.declarers || [];
      out += "<h2>" + esc(fmt(gettext("Say %(l)s (%(v)s)?"), { l: W.levels[level], v: money(valueOf(level)) })) + "</h2><div class=\"btns\">";
      raises.forEach(function (r) {
        var declSide = mine.indexOf(r[0]) >= 0 || r[0] === state.macher;
        out += '<button type="button" class="btn-raise' + (declSide ? " decl-side" : "") + '" data-act="raise" data-player="' + esc(r[0]) +
          '" data-level="' + esc(r[1]) + '"' + (busy ? " disabled" : "") + ">" + esc(W.levels[r[1]]) + " – " + esc(name(r[0])) + "</button>";
      });
      out += "</div>";
    }
    if (canEnd) {
      out += '<p class="meta">' + esc(gettext("No more raising: the first trick is collected.")) + '</p><button type="button" class="btn-big" data-act="end_raising"' + (busy ? " disabled" : "") + ">" + esc(gettext("Trick done (Stich fertig)")) + "</button>";
    }
    return out + "</div>";
  }

  // Who plays next: the engine's word (the player to act, or after the first trick
  // while the raising is open its winner, whose lead ends the raising).
  function nextPlayer() { return state.next_player || null; }
  function refusedText(code) {
    var said = (ui.turned && reasons.face_down && reasons.face_down[code]) || (reasons.play && reasons.play[code]);
    return said || gettext("This card may not be played now.");
  }
  function playHtml() {
    var legal = (state.legal && state.legal.cards) || [];
    var faceDown = (state.legal && state.legal.face_down) || [];
    // The raise panel and the toggles come after the grid, so the grid does not move
    // when they appear or go.
    var out = "";
    var who = nextPlayer();
    if (who) {
      var toggles = "";
      // The engine's offers: the Fuchs said with a card the player to act plays now,
      // the turned card played face down (his cards that may be it).
      if (state.legal && state.legal.fuchs) {
        toggles += '<label class="toggle' + (ui.fuchs ? " on" : "") + '"><input type="checkbox" data-act="toggle-fuchs"' + (ui.fuchs ? " checked" : "") + "> " + esc(gettext("Fuchs! — announce with this card")) + "</label>";
      }
      if (faceDown.length) {
        toggles += '<label class="toggle' + (ui.turned ? " on" : "") + '"><input type="checkbox" data-act="toggle-turned"' + (ui.turned ? " checked" : "") + "> " + esc(gettext("This is the turned card (face down)")) + "</label>";
      }
      var allowed = ui.turned ? faceDown : legal;
      var refusal = ui.refused
        ? '<p class="refusal" role="alert" data-card="' + esc(ui.refused) + '"><strong>' + esc(cardName(ui.refused)) + ":</strong> " +
          esc(refusedText(ui.refused)) + ' <span class="meta">' + esc(gettext("Tap a bright card — or, if an earlier entry was wrong, correct that entry.")) + "</span></p>"
        : '<p class="refusal empty" aria-hidden="true"></p>';
      out += '<div class="panel play"><h2>' + fmt(esc(gettext("Tap the card %(p)s plays")), { p: "<strong>" + esc(name(who)) + "</strong>" }) + "</h2>" +
        gridHtml({ act: "play", explains: true, enabled: function (c) { return allowed.indexOf(c) >= 0; } }) +
        refusal + (toggles ? '<div class="btns toggles">' + toggles + "</div>" : "") +
        (legal.length ? "" : '<p class="meta">' + esc(gettext("No card is legal now: undo the last entry or check the record.")) + "</p>") + "</div>";
    }
    return out + raisesHtml();
  }

  // Recording with no network: the card grid of the deck the server sent (deckRows),
  // every card not yet played on the last table the server drew, unchecked. The
  // scorer says who plays (the page cannot know whose turn it is: that is the
  // engine's word); a tap queues the event, and the engine judges it when it is sent.
  function offlineHtml() {
    var waitingCards = {};
    queued.forEach(function (q) {
      if (q.event.type === "play") waitingCards[q.event.card] = true;
    });
    var who = ui.offWho;
    var out = '<div class="panel play offline-grid"><h2>' + esc(gettext("No network: recording unchecked")) + '</h2><p class="meta">' + esc(gettext("Tap who, then the card. Nobody has checked these entries: the rules judge each one when the network is back.")) + "</p>" +
      '<div class="btns off-who" role="group" aria-label="' + esc(gettext("Who?")) + '">' + (state.active || []).map(function (p) {
        return '<button type="button" class="' + (who === p ? "" : "btn-quiet") + '" data-act="off-who" data-player="' + esc(p) + '"' +
          ' aria-pressed="' + (who === p ? "true" : "false") + '">' + esc(name(p)) + "</button>";
      }).join("") + "</div>";
    if (cfg.kind === "fuchsen") {
      out += '<div class="choice" role="radiogroup">' + ["play", "call"].map(function (k) {
        return '<label><input type="radio" name="offkind" data-act="offkind" value="' + k + '"' + (ui.offKind === k ? " checked" : "") + "> " +
          esc(k === "play" ? gettext("plays the card") : gettext("calls the card")) + "</label>";
      }).join("") + "</div>";
      // What the engine offered at page load (cfg.offline): a Fuchs said with the card,
      // the turned card played face down. Unchecked, like every entry here.
      var extras = cfg.offline || {};
      var offToggles = "";
      if (extras.fuchs) {
        offToggles += '<label class="toggle' + (ui.offFuchs ? " on" : "") + '"><input type="checkbox" data-act="toggle-offfuchs"' + (ui.offFuchs ? " checked" : "") + "> " + esc(gettext("Fuchs! — announce with this card")) + "</label>";
      }
      if (extras.turned) {
        offToggles += '<label class="toggle' + (ui.offTurned ? " on" : "") + '"><input type="checkbox" data-act="toggle-offturned"' + (ui.offTurned ? " checked" : "") + "> " + esc(gettext("This is the turned card (face down)")) + "</label>";
      }
      if (offToggles) out += '<div class="btns toggles off-extras">' + offToggles + "</div>";
    }
    // Königrufen: the bids, pass and join the engine offered on the last table the
    // server drew (its legal moves); the scorer says who speaks.
    var offLegal = state.legal || {};
    if (cfg.kind !== "fuchsen" && state.awaiting === "bid") {
      out += '<div class="btns off-bids">' + (offLegal.bids || []).map(function (b) {
        return '<button type="button" class="bid-btn' + (ui.offBid === b ? "" : " btn-quiet") + '" data-act="off-bid" data-contract="' + esc(b) + '"' + (who ? "" : " disabled") + ">" +
          esc(W.contracts[b] || b) + (cfg.with_called.indexOf(b) >= 0 ? "<small>" + esc(gettext("calls a card")) + "</small>" : "") + "</button>";
      }).join("") +
        (offLegal.can_join ? '<button type="button" class="bid-btn" data-act="off-join"' + (who ? "" : " disabled") + ">" + esc(gettext("Join (mitbetteln / mitplaudern)")) + "</button>" : "") +
        (offLegal.can_pass ? '<button type="button" class="bid-btn btn-quiet" data-act="off-pass"' + (who ? "" : " disabled") + ">" + esc(gettext("Pass (gut / weiter)")) + "</button>" : "") +
        "</div>";
      if (ui.offBid) out += '<p class="meta off-called">' + esc(fmt(gettext("%(b)s: tap the called card"), { b: W.contracts[ui.offBid] })) + "</p>";
    }
    out += gridHtml({
      act: "off-card",
      enabled: function (c) { return !!who && !waitingCards[c]; },
      queued: function (c) { return !!waitingCards[c]; }
    });
    if (cfg.kind === "fuchsen") {
      out += '<div class="btns off-raise">' + Object.keys(W.levels).map(function (l) {
        return '<button type="button" class="btn-raise" data-act="off-raise" data-level="' + esc(l) + '"' + (who ? "" : " disabled") + ">" +
          esc(who ? fmt(gettext("%(p)s says %(l)s"), { l: W.levels[l], p: name(who) }) : W.levels[l]) + "</button>";
      }).join("") + '<button type="button" data-act="off-end">' + esc(gettext("Trick done (Stich fertig)")) + "</button></div>";
    }
    return out + "</div>";
  }

  function callHtml() {
    var opts = (state.legal && state.legal.calls) || { cards: [], cards_turning: [], alone: false, turn: ["?"] };
    var macher = state.to_act || ui.macher;
    var out = '<div class="panel call"><h2>' + esc(gettext("The call")) + "</h2>";
    if (!state.to_act) {
      out += '<p class="meta">' + esc(gettext("Who has the Eichel-Ober (Macher)?")) + '</p><div class="btns">' + (state.active || []).map(function (p) {
        return '<button type="button" class="' + (ui.macher === p ? "" : "btn-quiet") + '" data-act="pick-macher" data-player="' + esc(p) + '">' + esc(name(p)) + "</button>";
      }).join("") + "</div>";
    }
    out += '<div class="choice" role="radiogroup">' +
      '<label><input type="radio" name="callmode" data-act="callmode" value="partner"' + (ui.callMode === "partner" ? " checked" : "") + "> " + esc(gettext("Call a partner")) + "</label>" +
      '<label><input type="radio" name="callmode" data-act="callmode" value="alone"' + (ui.callMode === "alone" ? " checked" : "") + "> " + esc(gettext("Play alone")) + "</label></div>";
    if (ui.callMode === "partner") {
      // The engine's callable cards: without a turned card, or with one.
      var callable = (ui.turnChoice !== "none" ? opts.cards_turning : opts.cards) || [];
      out += '<p class="meta">' + esc(gettext("Tap the called card:")) + "</p>" + gridHtml({
        act: "pick-call", hidePlayed: false,
        enabled: function (c) { return callable.indexOf(c) >= 0; },
        picked: function (c) { return c === ui.callCard; }
      });
    }
    // Turning: a specific card when the Macher's hand is known, else just "turned".
    var turnCodes = (opts.turn || []).filter(function (c) { return c !== "?"; });
    var unknownHand = (opts.turn || []).indexOf("?") >= 0;
    if (unknownHand || turnCodes.length) {
      out += '<p class="meta">' + esc(macher ? fmt(gettext("Did %(p)s turn a card?"), { p: name(macher) }) : gettext("Did the Macher turn a card?")) + '</p><div class="choice">' +
        '<label><input type="radio" name="turn" data-act="turn" value="none"' + (ui.turnChoice === "none" ? " checked" : "") + "> " + esc(gettext("No")) + "</label>";
      if (unknownHand) out += '<label><input type="radio" name="turn" data-act="turn" value="?"' + (ui.turnChoice === "?" ? " checked" : "") + "> " + esc(gettext("Yes, card unknown")) + "</label>";
      turnCodes.forEach(function (c) {
        out += '<label><input type="radio" name="turn" data-act="turn" value="' + c + '"' + (ui.turnChoice === c ? " checked" : "") + "> " + cardSpan(c, "mini") + "</label>";
      });
      out += "</div>";
    }
    var ready = macher && (ui.callMode === "alone" || ui.callCard);
    var label = !ready ? (macher ? gettext("Now tap the called card") : gettext("First tap the Macher"))
      : ui.callMode === "alone" ? fmt(gettext("%(p)s plays alone"), { p: name(macher) })
      : fmt(gettext("%(p)s calls %(c)s"), { p: name(macher), c: cardName(ui.callCard) });
    out += '<button type="button" class="btn-big" data-act="call"' + (ready && !busy ? "" : " disabled") + ">" + esc(label) + "</button></div>";
    return out;
  }

  // Mitbetteln or mitplaudern, by the highest bid so far.
  function joinLabel() {
    var bids = effectiveEvents().filter(function (e) { return e.type === "bid"; });
    var top = bids.length ? bids[bids.length - 1].contract : "";
    // The join's words by the contract joined (words only: whether one may join is
    // the engine's ``legal``).
    var joinAs = {
      bettler: gettext("Join the Bettler (mitbetteln)"),
      plauderer: gettext("Join the Plauderer (mitplaudern)")
    };
    return joinAs[top] || gettext("Join (mitbetteln / mitplaudern)");
  }

  function auctionHtml() {
    var legal = state.legal || {};
    var who = state.to_act;
    var out = '<div class="panel auction"><h2>' + fmt(esc(gettext("Auction — %(p)s speaks")), { p: "<strong>" + esc(name(who)) + "</strong>" }) + "</h2>";
    var bids = effectiveEvents().filter(function (e) { return e.type === "bid" || e.type === "pass" || e.type === "join"; });
    if (bids.length) out += '<ul class="evlist">' + bids.map(function (e) { return "<li>" + esc(describe(e)) + "</li>"; }).join("") + "</ul>";
    out += '<div class="btns">';
    (legal.bids || []).forEach(function (b) {
      out += '<button type="button" class="bid-btn' + (ui.bid === b ? "" : " btn-quiet") + '" data-act="bid" data-contract="' + b + '"' + (busy ? " disabled" : "") + ">" +
        esc(W.contracts[b] || b) + "<small>" + esc(money(valueOf(b))) + (cfg.with_called.indexOf(b) >= 0 ? " · " + esc(gettext("calls a card")) : "") + "</small></button>";
    });
    if (legal.can_join) out += '<button type="button" class="bid-btn" data-act="join"' + (busy ? " disabled" : "") + ">" + esc(joinLabel()) + "<small>" + esc(gettext("becomes the declarer's partner")) + "</small></button>";
    if (legal.can_pass) out += '<button type="button" class="bid-btn btn-quiet" data-act="pass"' + (busy ? " disabled" : "") + ">" + esc(gettext("Pass (gut / weiter)")) + "<small>" + esc(gettext("out of the auction")) + "</small></button>";
    out += "</div>";
    var faceDownPossible = legal.can_join || (legal.bids || []).some(function (b) { return FACE_DOWN.indexOf(b) >= 0; });
    if (faceDownPossible) {
      out += '<label class="toggle' + (ui.withCard ? " on" : "") + '" style="margin-top:.4rem"><input type="checkbox" data-act="toggle-facedown"' +
        (ui.withCard ? " checked" : "") + "> " + esc(gettext("With the face-down card (optional)")) + "</label>";
    }
    if (ui.bid && (ui.bid === "join" || FACE_DOWN.indexOf(ui.bid) >= 0)) {
      var what = ui.bid === "join" ? joinLabel() : W.contracts[ui.bid];
      out += '<p class="meta">' + esc(fmt(gettext("%(b)s: tap the card laid face down"), { b: what })) + "</p>" + gridHtml({
        act: "pick-bidcard", hidePlayed: false, enabled: function () { return true; }, picked: function (c) { return c === ui.bidCard; }
      }) + '<button type="button" class="btn-big" data-act="bid-facedown"' + (ui.bidCard && !busy ? "" : " disabled") + ">" +
        esc(fmt(gettext("%(b)s, face down: %(c)s"), { b: what, c: ui.bidCard ? cardName(ui.bidCard) : "…" })) + "</button>";
    }
    if (ui.bid && cfg.with_called.indexOf(ui.bid) >= 0) {
      out += '<p class="meta">' + esc(fmt(gettext("%(b)s: tap the called card"), { b: W.contracts[ui.bid] })) + "</p>" + gridHtml({
        act: "pick-bidcard", hidePlayed: false, enabled: function () { return true; }, picked: function (c) { return c === ui.bidCard; }
      }) + '<button type="button" class="btn-big" data-act="bid-called"' + (ui.bidCard && !busy ? "" : " disabled") + ">" +
        esc(fmt(gettext("%(b)s, calling %(c)s"), { b: W.contracts[ui.bid], c: ui.bidCard ? cardName(ui.bidCard) : "…" })) + "</button>";
    }
    return out + "</div>";
  }

  function partnerHtml() {
    var called = calledCard();
    var decl = state.macher || state.declarer;
    // Fuchsen calls him the Hilfer, Königrufen the partner.
    var fuchsen = cfg.kind === "fuchsen";
    var out = '<div class="panel partner"><h2>' + esc(called ? fmt(gettext("Who holds %(c)s?"), { c: cardName(called) }) : fuchsen ? gettext("Who is the Hilfer?") : gettext("Who is the partner?")) + "</h2>" +
      '<p class="meta">' + esc(fuchsen ? gettext("The result depends on the Hilfer: name him.") : gettext("The result depends on the partner: name him.")) + '</p><div class="btns">';
    // Only the players the engine says may hold the called card.
    var candidates = (state.legal && state.legal.partners) || [];
    (state.active || []).forEach(function (p) {
      if (p === decl || (candidates.length && candidates.indexOf(p) < 0)) return;
      out += '<button type="button" data-act="name-partner" data-player="' + esc(p) + '"' + (called && !busy ? "" : " disabled") + ">" + esc(name(p)) + "</button>";
    });
    return out + "</div></div>";
  }

  // The deal was taken back: deal again at this table (the same seats), or start over.
  function lastDeal() {
    var deals = events.filter(function (e) { return e.type === "deal"; });
    return deals.length ? deals[deals.length - 1] : null;
  }
  function dealHtml() {
    var deal = lastDeal();
    var out = '<div class="panel deal"><h2>' + esc(gettext("Deal the cards")) + "</h2>";
    if (deal && deal.players) {
      out += '<p class="meta">' + esc(gettext("The deal was taken back. Who deals now?")) + '</p><div class="btns">' + deal.players.map(function (p) {
        return '<button type="button" class="' + (p === (ui.dealer || deal.dealer) ? "" : "btn-quiet") + '" data-act="pick-dealer" data-player="' + esc(p) + '">' + esc(name(p)) + "</button>";
      }).join("") + '</div><button type="button" class="btn-big" data-act="redeal">' +
        esc(fmt(gettext("Deal again — %(p)s deals"), { p: name(ui.dealer || deal.dealer) })) + "</button>";
    }
    return out + '<p><a href="' + esc(cfg.new_game_url) + '">' + esc(gettext("New game")) + "</a></p></div>";
  }

  function resultHtml() {
    var r = state.result || {};
    var out = '<div class="panel result" data-status="' + esc(state.status) + '">';
    if (state.status === "annulled") return out + "<h2>" + esc(gettext("Annulled")) + '</h2><p class="meta">' + esc(gettext("Nobody pays for this game.")) + "</p>" + afterLinks() + "</div>";
    if (state.status === "unavailable") return out + "<h2>" + esc(gettext("The table cannot be shown just now: reload the page.")) + "</h2></div>";
    if (state.status === "invalid") return out + "<h2>" + esc(gettext("The record is invalid")) + "</h2><p>" + esc(explanation || withNames(r.error && r.error.message)) + "</p></div>";
    var decl = (r.declarers || []).map(name).join(" + ");
    var headline;
    if (r.won === null || r.won === undefined) headline = W.contracts[r.contract] || gettext("Game over");
    else if ((r.declarers || []).length > 1) headline = fmt(r.won ? pgettext("several players", "%(p)s won") : pgettext("several players", "%(p)s lost"), { p: decl });
    else headline = fmt(r.won ? gettext("%(p)s won") : gettext("%(p)s lost"), { p: decl || "—" });
    out += "<h2>" + esc(headline) + "</h2><p>" + esc([
      cfg.kind === "fuchsen" ? (state.alone ? gettext("alone (Herausspielen)") : (r.level ? W.levels[r.level] : pgettext("tally in the replay", "no raise"))) : (W.contracts[r.contract] || ""),
      W.reasons[r.reason] || r.reason,
      // A Stilles Spiel's bonus is named beside the value it is part of (the engine's view).
      state.silent_bonus ? fmt(gettext("value %(v)s (Stilles Spiel +%(b)s)"), { v: money(r.value), b: money(state.silent_bonus) }) : fmt(gettext("value %(v)s"), { v: money(r.value) })
    ].filter(Boolean).join(" · ")) + "</p>";
    if (r.augen) out += "<p>" + esc(fmt(gettext("Augen: Macher's side %(d)s, opponents %(o)s"), { d: r.augen.declarers, o: r.augen.opponents })) + "</p>";
    out += schurlnLosers(r);
    if (r.payouts) {
      out += '<table class="tbl"><tbody>' + (state.players || Object.keys(r.payouts)).map(function (p) {
        var v = r.payouts[p] || 0;
        return '<tr data-player="' + esc(p) + '"><td>' + esc(name(p)) + '</td><td class="num ' + (v > 0 ? "pos" : v < 0 ? "neg" : "") + '">' + (v > 0 ? "+" : "") + esc(money(v)) + "</td></tr>";
      }).join("") + "</tbody></table>";
    }
    return out + afterLinks() + "</div>";
  }
  // "Neues Spiel" deals at once (the next dealer clockwise), as the evening page's button
  // does; the deal form, for another dealer or typed hands, is the link beside it.
  function newGameHtml() {
    if (cfg.readonly) return "";
    return '<form method="post" action="' + esc(cfg.new_game_url) + '" class="inline">' +
      '<input type="hidden" name="csrfmiddlewaretoken" value="' + esc(cfg.csrf) + '"><input type="hidden" name="quick" value="1">' +
      '<button type="submit" id="new-game">' + esc(gettext("New game")) + "</button></form>";
  }
  // Schurln: who pays (the result's payouts), with the count of aces and tens that
  // made him pay where the game was played out (the engine's view counts them).
  function schurlnLosers(r) {
    // A decided game with no side that won or lost: Schurln (the engine's result).
    if (r.won !== null || !r.payouts) return "";
    var losers = Object.keys(r.payouts).filter(function (p) { return r.payouts[p] < 0; });
    if (!losers.length) return "";
    var counts = state.aces_tens;
    var who = losers.map(function (p) {
      return counts && counts[p] !== undefined ? fmt(gettext("%(p)s with %(n)s aces and tens"), { p: name(p), n: counts[p] }) : name(p);
    }).join(", ");
    return '<p class="schurln-losers">' + esc(fmt(losers.length > 1 ? gettext("Losers: %(p)s") : gettext("Loser: %(p)s"), { p: who })) + "</p>";
  }
  function afterLinks() {
    return '<div class="btns" style="margin-top:.5rem">' + newGameHtml() +
      '<a class="button secondary" href="' + esc(cfg.evening_url) + '">' + esc(gettext("Back to the evening")) + "</a>" +
      '<a class="button secondary" href="' + esc(cfg.replay_url) + '">' + esc(gettext("Replay")) + "</a></div>" +
      (cfg.readonly ? "" : '<p class="meta"><a href="' + esc(cfg.new_game_url) + '">' + esc(gettext("Another dealer, or type in the hands")) + "</a></p>");
  }

  function toolsHtml() {
    var decided = state.status !== "in_progress" || state.awaiting === "partner";
    var started = effectiveEvents().some(function (e) { return e.type !== "deal"; });
    var out = '<div class="tools">' +
      '<button type="button" data-act="undo"' + (events.length && !busy ? "" : " disabled") + ' title="' + esc(gettext("Take back the latest entry")) + '">' + esc(gettext("Undo")) + "</button>" +
      '<button type="button" data-act="panel" data-panel="show"' + (busy ? " disabled" : "") + ">" + esc(gettext("Show")) + "</button>" +
      '<button type="button" data-act="panel" data-panel="forfeit"' + (decided || !started || busy ? " disabled" : "") + ">" + esc(gettext("Forfeit")) + "</button>" +
      '<button type="button" class="danger" data-act="panel" data-panel="annul"' + (state.status === "annulled" || busy ? " disabled" : "") + ">" + esc(gettext("Annul")) + "</button></div>";
    var standing = effectiveEvents();
    var last = standing.slice(-1)[0];
    if (last) out += '<p class="meta last-event">' + esc(gettext("Latest entry:")) + " " + esc(describe(last)) + "</p>";
    if (standing.length > 1) {
      out += '<details class="log" id="entries"' + (ui.logOpen ? " open" : "") + "><summary>" + esc(fmt(gettext("All entries (%(n)s)"), { n: standing.length })) +
        '</summary><ol class="evlist">' + standing.map(function (e, k) {
          return '<li class="' + (e.type === "raise" ? "raise" : "") + '"><span>' + esc(describe(e)) + "</span>" + editButton(e, (state.effective || [])[k]) + "</li>";
        }).join("") + "</ol></details>";
    }
    if (ui.panel === "undo") {
      out += '<div class="panel confirm" role="alertdialog" aria-labelledby="undo-q" aria-describedby="undo-d"><h2 id="undo-q">' + esc(gettext("Reopen the finished game?")) +
        '</h2><p id="undo-d" class="meta">' + esc(gettext("Undo takes back the latest entry: the game is open again, and its payout leaves the balances until it is finished again.")) + '</p><div class="btns"><button type="button" class="btn-danger" data-act="do-undo"' + (busy ? " disabled" : "") + ">" +
        esc(gettext("Yes, take it back")) + '</button><button type="button" class="btn-quiet" data-act="panel" data-panel="">' + esc(gettext("Cancel")) + "</button></div></div>";
    } else if (ui.panel === "show") {
      out += '<div class="panel"><h2>' + esc(gettext("Show cards")) + '</h2><p class="meta">' + esc(gettext("A player shows cards without playing them, e.g. the partner after an early end.")) + "</p>" + whoButtons() +
        gridHtml({ act: "pick-show", enabled: function () { return true; }, picked: function (c) { return ui.cards.indexOf(c) >= 0; } }) +
        '<div class="btns"><button type="button" data-act="do-show"' + (ui.who && ui.cards.length ? "" : " disabled") + ">" + esc(gettext("Show")) + '</button><button type="button" class="btn-quiet" data-act="panel" data-panel="">' + esc(gettext("Cancel")) + "</button></div></div>";
    } else if (ui.panel === "forfeit") {
      out += '<div class="panel"><h2>' + esc(gettext("Forfeit (table penalty)")) + '</h2><p class="meta">' + esc(gettext("The game ends; this player's side loses.")) + "</p>" + whoButtons() +
        '<label for="reason">' + esc(gettext("Reason (optional)")) + '</label><input id="reason" data-act="reason" value="' + esc(ui.reason) + '">' +
        '<div class="btns" style="margin-top:.4rem"><button type="button" class="btn-danger" data-act="do-forfeit"' + (ui.who ? "" : " disabled") + ">" + esc(gettext("Forfeit the game")) + '</button><button type="button" class="btn-quiet" data-act="panel" data-panel="">' + esc(gettext("Cancel")) + "</button></div></div>";
    } else if (ui.panel === "annul") {
      out += '<div class="panel"><h2>' + esc(gettext("Annul the game")) + '</h2><p class="meta">' + esc(gettext("Misdeal or new deal: the game is void, nobody pays.")) + "</p>" +
        '<label for="reason">' + esc(gettext("Reason (optional)")) + '</label><input id="reason" data-act="reason" value="' + esc(ui.reason) + '">' +
        '<div class="btns" style="margin-top:.4rem"><button type="button" class="btn-danger" data-act="do-annul">' + esc(gettext("Annul the game")) + '</button><button type="button" class="btn-quiet" data-act="panel" data-panel="">' + esc(gettext("Cancel")) + "</button></div></div>";
    }
    return out;
  }
  function whoButtons() {
    return '<div class="btns">' + (state.active || []).map(function (p) {
      return '<button type="button" class="' + (ui.who === p ? "" : "btn-quiet") + '" data-act="pick-who" data-player="' + esc(p) + '">' + esc(name(p)) + "</button>";
    }).join("") + "</div>";
  }

  function tricksHtml() {
    var tricks = state.tricks || [];
    if (!tricks.length) return "";
    var raises = effectiveEvents().filter(function (e) { return e.type === "raise"; });
    return "<h2>" + esc(gettext("Tricks")) + '</h2><ol class="tricks" reversed>' + tricks.slice().reverse().map(function (t, i) {
      var no = tricks.length - i;
      var extra = no === 1 && raises.length ? '<div class="extra">' + esc(raises.map(describe).join(" · ")) + "</div>" : "";
      return '<li><span class="no">' + no + '</span><div class="cards">' + t.cards.map(function (pc) {
        return '<span class="play' + (pc[0] === t.winner ? " won" : "") + '">' + cardSpan(pc[1], "small") + '<span class="n">' + esc(name(pc[0])) + "</span></span>";
      }).join("") + '<span class="meta">→ ' + esc(name(t.winner)) + "</span></div>" + extra + "</li>";
    }).join("") + "</ol>";
  }

  // "ändern" beside an entry of "Alle Einträge": the entries a tap can say again (a
  // card, a raise, a call, a word of the auction); a result typed in opens its form.
  var EDITABLE = ["play", "raise", "call", "bid", "pass", "join"];
  function editButton(e, index) {
    if (cfg.readonly || index == null) return "";
    if (e.type === "tally") {
      return '<a class="edit-entry" href="' + esc(cfg.change_url) + '">' + esc(gettext("Change the result")) + "</a>";
    }
    if (EDITABLE.indexOf(e.type) < 0) return "";
    return '<button type="button" class="btn-quiet btn-small edit-entry" data-act="edit-entry" data-index="' + index + '" aria-label="' +
      esc(fmt(gettext("Change: %(e)s"), { e: describe(e) })) + '"' + (busy ? " disabled" : "") + ">" + esc(gettext("change")) + "</button>";
  }
  function editHtml() {
    var ed = ui.editing;
    var e = ed.event;
    var who = e.player;
    var out = '<div class="panel editing" id="editing"><h2>' + esc(fmt(gettext("Change: %(e)s"), { e: describe(e) })) + "</h2>";
    var players = '<div class="btns" role="group">' + (state.active || state.players || []).map(function (p) {
      return '<button type="button" class="' + (who === p ? "" : "btn-quiet") + '" data-act="edit-who" data-player="' + esc(p) + '" aria-pressed="' + (who === p ? "true" : "false") + '">' + esc(name(p)) + "</button>";
    }).join("") + "</div>";
    if (e.type === "play") {
      out += '<p class="meta">' + esc(gettext("Tap the right card. The later entries are entered again.")) + "</p>" +
        gridHtml({ act: "edit-pick", hidePlayed: false, enabled: function (c) { return c !== e.card; } });
    } else if (e.type === "raise") {
      out += '<p class="meta">' + esc(gettext("Who said it, and which level? The later entries are entered again.")) + "</p>" + players + '<div class="btns">' + Object.keys(W.levels).filter(Boolean).map(function (l) {
        return '<button type="button" class="btn-raise' + (l === e.level && who === e.player ? " picked" : "") + '" data-act="edit-level" data-level="' + esc(l) + '">' + esc(W.levels[l]) + "</button>";
      }).join("") + "</div>";
    } else if (e.type === "call") {
      out += '<p class="meta">' + esc(gettext("Who is the Macher, and which card was called (or alone)?")) + "</p>" + players +
        gridHtml({ act: "edit-pick", hidePlayed: false, enabled: function () { return true; }, picked: function (c) { return c === e.card; } }) +
        '<button type="button" class="btn-quiet" data-act="edit-alone">' + esc(gettext("Play alone")) + "</button>";
    } else {
      out += '<p class="meta">' + esc(fmt(gettext("What did %(p)s really say? The later entries are entered again."), { p: name(e.player) })) + '</p><div class="btns">' +
        (cfg.bids || []).map(function (b) {
          return '<button type="button" class="bid-btn' + (ed.bid === b ? "" : " btn-quiet") + '" data-act="edit-contract" data-contract="' + esc(b) + '">' + esc(W.contracts[b] || b) + "</button>";
        }).join("") +
        '<button type="button" class="bid-btn btn-quiet" data-act="edit-word" data-word="pass">' + esc(gettext("passes")) + "</button>" +
        '<button type="button" class="bid-btn btn-quiet" data-act="edit-word" data-word="join">' + esc(gettext("joins")) + "</button></div>";
      if (ed.bid) {
        out += '<p class="meta">' + esc(fmt(gettext("%(b)s: tap the called card"), { b: W.contracts[ed.bid] })) + "</p>" +
          gridHtml({ act: "edit-pick", hidePlayed: false, enabled: function () { return true; } });
      }
    }
    return out + '<button type="button" class="btn-quiet" data-act="edit-cancel">' + esc(gettext("Cancel")) + "</button></div>";
  }
  // Two entries are the same when they say the same thing (the keys' order aside).
  function sameEntry(a, b) {
    if (!a || !b) return false;
    var keys = Object.keys(a).concat(Object.keys(b));
    return keys.every(function (k) { return JSON.stringify(a[k]) === JSON.stringify(b[k]); });
  }
  // Another phone was first: what it recorded, and whether it was our very entry.
  function conflictHtml() {
    if (!conflict) return "";
    var what = conflict.theirs.map(describe).join(" · ");
    return '<div class="notice conflict-note" role="status"><p>' +
      esc(fmt(conflict.same ? gettext("Already in: %(e)s — another phone recorded it. Carry on.") : gettext("Another phone recorded first: %(e)s. Your tap was not entered; enter it again only if it is still to come."), { e: what })) + "</p></div>";
  }
  // What a change left out: the first entry that no longer fits, and how many after it.
  function leftOutHtml() {
    if (!leftOut) return "";
    var first = describe(leftOut.events[0]);
    var more = leftOut.events.length - 1;
    var text = more ? fmt(gettext("Changed. The entry “%(e)s” no longer fits the game as it is now: it and the %(n)s after it were not entered again. Enter them as they really were."), { e: first, n: more }) : fmt(gettext("Changed. The entry “%(e)s” no longer fits the game as it is now and was not entered again. Enter it as it really was."), { e: first });
    return '<div class="notice left-out" role="status"><p>' + esc(text) + "</p>" +
      (leftOut.detail ? '<p class="meta">' + esc(leftOut.detail) + "</p>" : "") + "</div>";
  }

  // Correcting an entry: tap the card that was really played there.
  function fixHtml() {
    var f = ui.fixing;
    return '<div class="panel fixing"><h2>' + esc(fmt(gettext("Trick %(n)s: which card did %(p)s play?"), { n: f.trick, p: name(f.event.player) })) + "</h2>" +
      '<p class="meta">' + esc(fmt(gettext("Instead of %(c)s. The later entries are recorded again."), { c: cardName(f.event.card) })) + "</p>" +
      gridHtml({ act: "fix-pick", hidePlayed: false, enabled: function (c) { return c !== f.event.card; } }) +
      '<button type="button" class="btn-quiet" data-act="fix-cancel">' + esc(gettext("Cancel")) + "</button></div>";
  }
  function problemHtml() {
    if (!problem) return "";
    return '<div class="engine-error" role="alert" data-code="' + esc(problem.code || "") + '"><strong>' + esc(problem.title) + "</strong>" +
      (problem.event ? '<div class="ev">' + esc(gettext("Entry:")) + " " + esc(problem.event) + "</div>" : "") +
      (problem.hint ? '<div class="ev hint">' + esc(problem.hint) + "</div>" : "") +
      (problem.detail ? '<div class="detail">' + esc(problem.detail) + "</div>" : "") +
      (problem.fix ? '<div class="fix"><p class="ev">' + esc(fmt(gettext("Trick %(n)s: %(p)s played %(c)s — this entry is wrong."), { n: problem.fix.trick, p: name(problem.fix.event.player), c: cardName(problem.fix.event.card) })) +
        '</p><button type="button" data-act="fix-start">' + esc(gettext("Correct this entry")) + "</button></div>" : "") +
      (problem.retry ? '<button type="button" data-act="retry">' + esc(gettext("Send again")) + "</button>" : "") + "</div>";
  }

  function render() {
    var body = "";
    var mode = state.status === "in_progress" ? state.awaiting : "done";
    body += problemHtml();
    body += leftOutHtml();
    body += conflictHtml();
    body += seatsHtml();
    var showTrick = state.active && state.active.length && (mode === "play" || mode === "raise_or_end");
    var lastTrick = (state.tricks || []).slice(-1)[0];
    // One line that is always there (so the grid below never moves): who took the
    // last trick, and the Augen so far.
    var subs = [];
    if ((showTrick || mode === "partner") && lastTrick && !(state.trick || []).length) {
      subs.push(fmt(gettext("Trick %(n)s went to %(p)s"), { n: (state.tricks || []).length, p: name(lastTrick.winner) }));
    }
    if (cfg.kind === "fuchsen" && state.augen && (state.tricks || []).length) {
      subs.push(fmt(gettext("Augen: Macher's side %(d)s, opponents %(o)s"), { d: state.augen.declarers, o: state.augen.opponents }));
    }
    var pending = pendingText();
    var waiting = queued.filter(function (q) { return !q.failed; }).length;
    if (!pending && waiting) pending = fmt(gettext("Entries not yet sent: %(n)s"), { n: waiting });
    var lastLine = pending
      ? '<p class="sub pending unconfirmed" role="status">' + esc(pending) + "</p>"
      : '<p class="sub">' + esc(subs.join(" · ")) + "</p>";
    body += '<div class="felt"><p class="status" role="status">' + statusText() + "</p>" + levelBar() + lastLine + (showTrick ? trickHtml() : "") + "</div>";
    if (ui.editing) body += editHtml();
    else if (ui.fixing) body += fixHtml();
    else if (offlineMode() && state.status === "in_progress") body += offlineHtml();
    else if (mode === "call") body += callHtml();
    else if (mode === "bid") body += auctionHtml();
    else if (mode === "play" || mode === "raise_or_end") body += playHtml();
    else if (mode === "partner") body += partnerHtml();
    else if (mode === "deal") body += dealHtml();
    else body += resultHtml();
    body += toolsHtml();
    body += tricksHtml();
    root.innerHTML = body;
    markTapped();
    if (busy && sending && sending.some(function (e) { return e.type === "undo"; })) {
      var lastEvent = root.querySelector(".last-event");
      if (lastEvent) lastEvent.classList.add("undoing", "unconfirmed");
    }
    root.setAttribute("data-seq", String(seq));
    root.setAttribute("data-offline", offlineMode() ? "true" : "false");
    root.setAttribute("data-status", state.status || "");
    root.setAttribute("data-awaiting", state.awaiting || "");
    root.setAttribute("aria-busy", busy ? "true" : "false");
    if (cfg.readonly) {
      Array.prototype.forEach.call(root.querySelectorAll("[data-act]"), function (el) { el.disabled = true; });
      var tools = root.querySelector(".tools");
      if (tools) tools.outerHTML = '<p class="notice">' + esc(gettext("You are looking on: only scorers record, and only while the evening is open.")) + "</p>";
    }
    document.dispatchEvent(new CustomEvent("record:render", { detail: { root: root, busy: busy, sending: busy ? sending : null, stale: stale, seq: seq } }));
  }

  // ---------------------------------------------------------------- taps
  root.addEventListener("click", function (ev) {
    var el = ev.target.closest("[data-act]");
    if (!el || !root.contains(el) || el.disabled) return;
    var act = el.getAttribute("data-act");
    var card = el.getAttribute("data-card");
    var player = el.getAttribute("data-player");
    if (!busy) {
      tapped = { act: act, card: card, player: player, level: el.getAttribute("data-level"), contract: el.getAttribute("data-contract") };
    }
    switch (act) {
      case "off-who": ui.offWho = player; break;
      case "off-card": {
        if (ui.offBid) {
          // The called card of the bid tapped before.
          var ob = { type: "bid", player: ui.offWho, contract: ui.offBid, called: card };
          ui.offBid = null;
          send([ob]);
          return;
        }
        var o = { type: ui.offKind === "call" ? "call" : "play", player: ui.offWho, card: card };
        if (o.type === "play" && ui.offFuchs) o.fuchs = true;
        if (o.type === "play" && ui.offTurned) o.turned = true;
        ui.offFuchs = ui.offTurned = false;
        send([o]);
        return;
      }
      case "off-bid": {
        var ct = el.getAttribute("data-contract");
        if (cfg.with_called.indexOf(ct) >= 0) { ui.offBid = ui.offBid === ct ? null : ct; break; }
        ui.offBid = null;
        send([{ type: "bid", player: ui.offWho, contract: ct }]);
        return;
      }
      case "off-pass": ui.offBid = null; send([{ type: "pass", player: ui.offWho }]); return;
      case "off-join": ui.offBid = null; send([{ type: "join", player: ui.offWho }]); return;
      case "off-raise": send([{ type: "raise", player: ui.offWho, level: el.getAttribute("data-level") }]); return;
      case "off-end": send([{ type: "end_raising" }]); return;
      case "play": {
        var e = { type: "play", player: nextPlayer(), card: card };
        if (ui.fuchs) e.fuchs = true;
        if (ui.turned) e.turned = true;
        send([e]);
        return;
      }
      case "edit-entry": {
        var at = parseInt(el.getAttribute("data-index"), 10);
        ui.editing = { index: at, event: events[at], bid: null };
        ui.panel = null;
        render();
        var panel = document.getElementById("editing");
        if (panel && panel.scrollIntoView) panel.scrollIntoView({ block: "nearest" });
        return;
      }
      case "edit-cancel": ui.editing = null; break;
      case "edit-who": {
        // A call or raise entered for the wrong player: his name is the one thing to
        // change (the card or level stays), so the tap on the right player sends it.
        var ewho = ui.editing;
        if (player === ewho.event.player) break;
        sendChange(ewho.index, Object.assign({}, ewho.event, { player: player }));
        return;
      }
      case "edit-pick": {
        var ed = ui.editing;
        var changed = Object.assign({}, ed.event);
        if (ed.event.type === "call") { delete changed.alone; changed.card = card; }
        else if (ed.bid) { changed = { type: "bid", player: ed.event.player, contract: ed.bid, called: card }; }
        else changed.card = card;
        sendChange(ed.index, changed);
        return;
      }
      case "edit-level": {
        var er = ui.editing;
        sendChange(er.index, Object.assign({}, er.event, { level: el.getAttribute("data-level") }));
        return;
      }
      case "edit-alone": {
        var ea = ui.editing;
        var alone = { type: "call", player: ea.event.player, alone: true };
        if (ea.event.turned) alone.turned = ea.event.turned;
        sendChange(ea.index, alone);
        return;
      }
      case "edit-contract": {
        var ec = ui.editing;
        var ct2 = el.getAttribute("data-contract");
        if (cfg.with_called.indexOf(ct2) >= 0) { ec.bid = ct2; break; }
        sendChange(ec.index, { type: "bid", player: ec.event.player, contract: ct2 });
        return;
      }
      case "edit-word": {
        var ew = ui.editing;
        sendChange(ew.index, { type: el.getAttribute("data-word"), player: ew.event.player });
        return;
      }
      case "fix-start": ui.fixing = problem && problem.fix; problem = null; break;
      case "fix-cancel": ui.fixing = null; break;
      case "fix-pick": {
        var wrong = ui.fixing.event;
        var right = Object.assign({}, wrong, { card: card });
        sendCorrection(ui.fixing.index, right);
        return;
      }
      case "refused": ui.refused = ui.refused === card ? null : card; break;
      case "raise": send([{ type: "raise", player: player, level: el.getAttribute("data-level") }]); return;
      case "end_raising": send([{ type: "end_raising" }]); return;
      case "undo":
        // Taking back an entry of a decided game reopens it (its payout leaves the
        // balances): ask first, in the page.
        if (state.status === "finished") { ui.panel = "undo"; break; }
        send([{ type: "undo" }]);
        return;
      case "do-undo": send([{ type: "undo" }]); return;
      case "retry": if (pending) request(pending.body, pending.key); return;
      case "pick-macher": ui.macher = player; break;
      case "pick-dealer": ui.dealer = player; break;
      case "redeal": {
        var d = lastDeal();
        var again = { type: "deal", dealer: ui.dealer || d.dealer, players: d.players.slice() };
        if (d.removed) again.removed = d.removed;
        if (d.sitting_out) again.sitting_out = d.sitting_out;
        send([again]);
        return;
      }
      case "pick-call": ui.callCard = card; break;
      case "call": {
        var c = { type: "call", player: state.to_act || ui.macher };
        if (ui.callMode === "alone") c.alone = true; else c.card = ui.callCard;
        if (ui.turnChoice !== "none") c.turned = ui.turnChoice === "?" ? true : ui.turnChoice;
        send([c]);
        return;
      }
      case "bid": {
        var contract = el.getAttribute("data-contract");
        if (cfg.with_called.indexOf(contract) >= 0) { ui.bid = contract; ui.bidCard = null; break; }
        if (ui.withCard && FACE_DOWN.indexOf(contract) >= 0) { ui.bid = contract; ui.bidCard = null; break; }
        send([{ type: "bid", player: state.to_act, contract: contract }]);
        return;
      }
      case "pick-bidcard": ui.bidCard = card; break;
      case "bid-called": send([{ type: "bid", player: state.to_act, contract: ui.bid, called: ui.bidCard }]); return;
      case "pass": send([{ type: "pass", player: state.to_act }]); return;
      case "join":
        if (ui.withCard) { ui.bid = "join"; ui.bidCard = null; break; }
        send([{ type: "join", player: state.to_act }]);
        return;
      case "bid-facedown":
        if (ui.bid === "join") send([{ type: "join", player: state.to_act, card: ui.bidCard }]);
        else send([{ type: "bid", player: state.to_act, contract: ui.bid, card: ui.bidCard }]);
        return;
      case "name-partner": send([{ type: "show", player: player, cards: [calledCard()] }]); return;
      case "panel": ui.panel = el.getAttribute("data-panel") || null; ui.who = null; ui.cards = []; ui.reason = ""; break;
      case "pick-who": ui.who = player; break;
      case "pick-show": {
        var i = ui.cards.indexOf(card);
        if (i >= 0) ui.cards.splice(i, 1); else ui.cards.push(card);
        break;
      }
      case "do-show": send([{ type: "show", player: ui.who, cards: ui.cards.slice() }]); return;
      case "do-forfeit": {
        var f = { type: "forfeit", player: ui.who };
        if (ui.reason) f.reason = ui.reason;
        send([f]);
        return;
      }
      case "do-annul": {
        var a = { type: "annul" };
        if (ui.reason) a.reason = ui.reason;
        send([a]);
        return;
      }
      default: return;
    }
    render();
  });
  root.addEventListener("change", function (ev) {
    var el = ev.target;
    var act = el.getAttribute("data-act");
    if (act === "toggle-fuchs") ui.fuchs = el.checked;
    else if (act === "toggle-facedown") { ui.withCard = el.checked; ui.bid = null; ui.bidCard = null; }
    else if (act === "toggle-turned") { ui.turned = el.checked; ui.refused = null; }
    else if (act === "callmode") { ui.callMode = el.value; ui.callCard = null; }
    else if (act === "turn") ui.turnChoice = el.value;
    else if (act === "offkind") ui.offKind = el.value;
    else if (act === "toggle-offfuchs") ui.offFuchs = el.checked;
    else if (act === "toggle-offturned") ui.offTurned = el.checked;
    else return;
    render();
  });
  root.addEventListener("toggle", function (ev) {
    if (ev.target.classList && ev.target.classList.contains("log")) ui.logOpen = ev.target.open;
  }, true);
  root.addEventListener("input", function (ev) {
    if (ev.target.getAttribute("data-act") === "reason") ui.reason = ev.target.value;
  });

  // Keep the phone's screen on while a game is being recorded (where the browser allows it).
  var wakeLock = null;
  function keepAwake() {
    if (!("wakeLock" in navigator) || cfg.readonly || document.visibilityState !== "visible") return;
    if (state.status !== "in_progress" || wakeLock) return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      lock.addEventListener("release", function () { wakeLock = null; });
    }).catch(function () { /* refused (battery saver, no user gesture): never mind */ });
  }
  document.addEventListener("visibilitychange", keepAwake);
  root.addEventListener("click", keepAwake);

  // For the tests and the console: record any events, exactly as a tap would.
  // offline.js: queued(items) hands over the outbox's items for this game
  // ({events, failed}); describe(event) words an event as the page does.
  window.Stichbuch = {
    record: send, reload: function () { return reload().then(render); }, state: function () { return state; },
    describe: describe,
    queued: function (items) {
      var before = queued.length;
      queued = [];
      (items || []).forEach(function (item) {
        item.events.forEach(function (e) { queued.push({ event: e, failed: item.failed }); });
      });
      if (before || queued.length) render();
    }
  };
  window.addEventListener("online", render);
  window.addEventListener("offline", render);

  render();
})();
