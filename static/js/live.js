/* The live view of an evening: drawn from the server's state, pushed by server-sent
   events (falls back to polling without a push connection). Read-only: no rule
   here, nothing is judged — the state is the server's (the engine's) word.
   Every change is also announced as a "live:state" event on the document, so a
   recording page can reload its game when another phone appended to it. */
(function () {
  "use strict";
  var configEl = document.getElementById("live-config");
  var stateEl = document.getElementById("live-state");
  if (!configEl || !stateEl) return;
  var config = JSON.parse(configEl.textContent);
  // Sentences from the JS catalogue (loaded before this file; English without it);
  // the names of the engine's codes are data from the server (config.words).
  var gettext = window.gettext || function (msgid) { return msgid; };
  var words = config.words;
  var POLL_MS = 5000;
  var pollTimer = null;
  var source = null;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_m, key) { return values[key]; });
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function row(dl, label, value) {
    if (value === undefined || value === null || value === "") return;
    dl.appendChild(el("dt", null, label));
    dl.appendChild(el("dd", null, value));
  }
  function eventText(event) {
    var parts = [words.events[event.type] || event.type];
    if (event.player) parts.push(event.player);
    if (event.level) parts.push(words.levels[event.level] || event.level);
    if (event.contract) parts.push(words.contracts[event.contract] || event.contract);
    if (event.card) parts.push(event.card_name || event.card);
    if (event.cards) parts.push((event.cards_names || event.cards).join(", "));
    return parts.join(" · ");
  }
  // A card's face as the recording page draws it (the server sends rank, suit, name).
  function cardFace(face, cls) {
    var span = el("span", "pc s-" + face.suit + (face.trump ? " trump" : "") + (cls ? " " + cls : ""));
    span.setAttribute("title", face.name);
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", face.name);
    span.appendChild(el("span", "r", face.rank));
    var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "s");
    svg.setAttribute("aria-hidden", "true");
    var use = document.createElementNS("http://www.w3.org/2000/svg", "use");
    use.setAttribute("href", "#" + face.sprite);
    svg.appendChild(use);
    span.appendChild(svg);
    return span;
  }

  function drawCurrent(current) {
    var heading = document.getElementById("h-live-current");
    var box = document.getElementById("live-current");
    clear(box);
    if (!current) {
      heading.textContent = gettext("No game in progress.");
      return;
    }
    // The seats round the table, whose turn it is marked (the engine's to_act).
    var seats = el("ul", "seats live-seats");
    seats.setAttribute("aria-label", gettext("Whose turn"));
    ((current.state || {}).active || []).forEach(function (name) {
      var li = el("li", "seat" + (name === current.to_act ? " to-act" : ""), name);
      if (name === current.to_act) li.setAttribute("aria-current", "true");
      seats.appendChild(li);
    });
    box.appendChild(seats);
    heading.textContent = fmt(gettext("Game %(n)s"), { n: current.number });
    var state = current.state || {};
    var dl = el("dl", "live-facts");
    row(dl, gettext("Whose turn"), state.to_act);
    row(dl, gettext("Contract"), state.contract ? (words.contracts[state.contract] || state.contract) : "");
    row(dl, gettext("Level"), state.level ? (words.levels[state.level] || state.level) : "");
    row(dl, gettext("Called card"), current.called);
    row(dl, gettext("Tricks done"), current.tricks_done);
    box.appendChild(dl);
    var trick = el("ol", "live-trick");
    trick.setAttribute("aria-label", gettext("On the table"));
    current.trick.forEach(function (play) {
      var li = el("li", "live-card" + (play.winning ? " winning" : ""));
      li.setAttribute("data-card", play.card);
      li.appendChild(play.face ? cardFace(play.face) : el("span", "live-card-code", play.card));
      li.appendChild(el("span", "live-card-player name", play.player));
      trick.appendChild(li);
    });
    box.appendChild(trick);
    var events = el("ul", "live-events");
    current.events.forEach(function (event) { events.appendChild(el("li", null, eventText(event))); });
    box.appendChild(events);
    box.setAttribute("data-seq", current.last_seq);
  }

  function drawGames(games) {
    var list = document.getElementById("live-games");
    clear(list);
    games.forEach(function (game) {
      var li = el("li", "live-game " + game.status);
      li.setAttribute("value", game.number);
      li.setAttribute("data-game", game.id);
      li.appendChild(el("strong", null, fmt(gettext("Game %(n)s"), { n: game.number })));
      li.appendChild(document.createTextNode(" · " + [game.outcome, game.what].filter(Boolean).join(" · ")));
      if (game.payouts.length) {
        li.appendChild(el("span", "meta live-payouts", " " + game.payouts.map(function (p) {
          return p.name + " " + p.text;
        }).join(", ")));
      }
      list.appendChild(li);
    });
  }

  function drawBalances(balances) {
    var body = document.querySelector("#live-balances tbody");
    clear(body);
    if (!balances.length) {
      var tr = el("tr");
      tr.appendChild(el("td", "meta", gettext("No finished game yet.")));
      body.appendChild(tr);
      return;
    }
    balances.forEach(function (b) {
      var tr = el("tr");
      tr.appendChild(el("td", null, b.name));
      tr.appendChild(el("td", "num " + (b.balance > 0 ? "pos" : b.balance < 0 ? "neg" : ""), b.text));
      body.appendChild(tr);
    });
  }

  function draw(state) {
    drawCurrent(state.current);
    drawGames(state.games);
    drawBalances(state.balances);
    document.dispatchEvent(new CustomEvent("live:state", { detail: state }));
  }

  function status(text, live) {
    var node = document.getElementById("live-status");
    node.textContent = text;
    node.classList.toggle("live-on", !!live);
  }

  function poll() {
    fetch(config.state, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) { if (state) draw(state); })
      .catch(function () { /* offline: try again at the next tick */ });
  }
  function startPolling() {
    status(gettext("no push connection: updated every few seconds"), false);
    if (pollTimer === null) pollTimer = window.setInterval(poll, POLL_MS);
  }
  function stopPolling() {
    if (pollTimer !== null) { window.clearInterval(pollTimer); pollTimer = null; }
  }

  function connect() {
    if (!window.EventSource) { startPolling(); return; }
    source = new EventSource(config.stream);
    source.addEventListener("state", function (e) {
      stopPolling();
      status(gettext("live"), true);
      draw(JSON.parse(e.data));
    });
    source.onerror = function () {
      // CONNECTING: the browser retries by itself; poll meanwhile. CLOSED: for good.
      startPolling();
      if (source.readyState === EventSource.CLOSED) {
        window.setTimeout(connect, POLL_MS);
      }
    };
  }

  draw(JSON.parse(stateEl.textContent));
  connect();
})();
