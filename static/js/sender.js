/* The phone's outbox, sent from any page: entries recorded with no network (a card
   on the recording page, offline.js; a result, offtally.js) wait in IndexedDB
   (outbox.js). Whatever page is open when the network comes back sends them, in
   order, each with its Idempotency-Key (a retry is answered, never stored twice), and
   every page says while anything waits. A refused entry stops its game's (or its
   evening's) queue; it is shown where it was recorded, with the server's reason.
   The recording page and the result form send their own entries (they draw them):
   this script leaves those to them, except on logging out. No rule here: the server
   judges each entry.
   Logging out deletes the outbox (the server's Clear-Site-Data: nothing queued is sent
   in the next user's name). So the header's "Log out" sends what waits first, and what
   still waits then (no network, refused) is named in a dialog: the player stays
   (the default) or logs out anyway. Without this script the form logs out as ever. */
(function () {
  "use strict";
  var banner = document.getElementById("outbox-banner");
  if (!banner || !window.StichbuchOutbox) return;
  // Sentences from the JS catalogue (base.html links it before this file); without it
  // (never cached, no network) they stay English.
  var gettext = window.gettext || function (msgid) { return msgid; };
  var ngettext = window.ngettext || function (singular, plural, n) { return n === 1 ? singular : plural; };
  var tx = window.StichbuchOutbox.tx;
  var running = null; // the flush under way

  // The entries another script on this page sends itself.
  function ownedHere(item) {
    var record = document.getElementById("record-config");
    if (record && document.getElementById("offline-entry") && item.kind !== "tally") {
      try { if (JSON.parse(record.textContent).game_id === item.game) return true; } catch (e) { /* none */ }
    }
    var tally = document.getElementById("tally-outbox");
    return !!(tally && item.kind === "tally" && Number(tally.dataset.evening) === item.evening);
  }
  function all() {
    return tx("readonly", function (s) { return s.getAll(); }).then(function (list) {
      return (list || []).sort(function (a, b) { return a.id - b.id; });
    });
  }
  function csrf() {
    var input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return input ? input.value : "";
  }
  function target(item) {
    if (item.kind === "tally") return { url: item.api, body: item.body };
    var url = item.api || "/api/games/" + item.game + "/events/";
    return { url: url, body: JSON.stringify({ expected_seq: item.expected_seq, events: item.events, answer: "new" }) };
  }
  function queueOf(item) { return item.kind === "tally" ? "e" + item.evening : "g" + item.game; }

  function count(template, n) { return template.replace("%(n)s", String(n)); }

  function draw(list) {
    var waiting = list.filter(function (i) { return !i.failed; }).length;
    var failed = list.length - waiting;
    var parts = [];
    if (waiting && navigator.onLine === false) {
      parts.push(count(ngettext(
        "No network: %(n)s entry waits on this phone and is sent as soon as it is back.",
        "No network: %(n)s entries wait on this phone and are sent as soon as it is back.", waiting), waiting));
    } else if (waiting) {
      parts.push(count(ngettext(
        "%(n)s entry recorded without network is being sent.",
        "%(n)s entries recorded without network are being sent.", waiting), waiting));
    }
    if (failed) {
      parts.push(count(ngettext(
        "%(n)s entry recorded without network was refused: open its game or evening to see why.",
        "%(n)s entries recorded without network were refused: open their game or evening to see why.", failed), failed));
    }
    banner.textContent = parts.join(" ");
    banner.hidden = !parts.length;
  }

  // everything: the entries another script on this page sends itself too (logging out
  // leaves it no time to); one sent twice at once is stored once (its Idempotency-Key).
  function flush(everything) {
    if (running) return everything ? running.then(function () { return flush(true); }) : running;
    var stopped = {};
    running = all().then(function (list) {
      var mine = everything ? list : list.filter(function (i) { return !ownedHere(i); });
      draw(list);
      if (navigator.onLine === false) return null;
      // One after the other, in the order they were recorded; a refused one stops its queue.
      return mine.reduce(function (chain, item) {
        return chain.then(function () {
          var q = queueOf(item);
          if (stopped[q] || item.failed) { stopped[q] = true; return null; }
          var to = target(item);
          return window.StichbuchOutbox.send(item, to.url, to.body, csrf(), gettext("Refused")).then(function (ok) {
            if (!ok) stopped[q] = true;
          });
        });
      }, Promise.resolve());
    }).catch(function () { /* the network went again: later */ }).then(function () {
      running = null;
      return all().then(draw);
    });
    return running;
  }

  window.addEventListener("online", function () { flush(false); });
  window.addEventListener("offline", function () { all().then(draw); });
  // Entries queued on this page meanwhile, and "online" coming before requests go
  // through again: look every few seconds, and send while anything of ours waits.
  window.setInterval(function () {
    if (running) return;
    all().then(function (list) {
      draw(list);
      var ours = list.some(function (i) { return !i.failed && !ownedHere(i); });
      if (ours && navigator.onLine !== false) flush(false);
    });
  }, 3000);
  flush(false);

  var logout = document.getElementById("logout-form");
  var leaving = false, trying = false, dialog = null;

  function leave() {
    leaving = true;
    logout.submit();
  }
  function button(value, text, className) {
    var b = document.createElement("button");
    b.type = "submit";
    b.value = value;
    b.className = className;
    b.textContent = text;
    return b;
  }
  // A modal <dialog>: the page behind it is inert, Escape closes it (staying), and the
  // focus goes back to "Log out".
  function makeDialog() {
    var d = document.createElement("dialog");
    d.id = "logout-warning";
    d.setAttribute("aria-labelledby", "logout-warning-title");
    d.setAttribute("aria-describedby", "logout-warning-text");
    var title = document.createElement("h2");
    title.id = "logout-warning-title";
    title.textContent = gettext("Not everything is sent yet");
    var text = document.createElement("div");
    text.id = "logout-warning-text";
    var choice = document.createElement("form");
    choice.method = "dialog";
    choice.className = "row";
    choice.appendChild(button("stay", gettext("Stay"), ""));
    choice.appendChild(button("logout", gettext("Log out anyway"), "btn-danger"));
    d.appendChild(title);
    d.appendChild(text);
    d.appendChild(choice);
    d.addEventListener("close", function () {
      if (d.returnValue === "logout") { leave(); return; }
      var again = logout.querySelector("button");
      if (again) again.focus();
    });
    document.body.appendChild(d);
    return d;
  }
  function sentence(box, text) {
    var p = document.createElement("p");
    p.textContent = text;
    box.appendChild(p);
  }
  function warn(list) {
    var waiting = list.filter(function (i) { return !i.failed; }).length;
    if (!dialog) dialog = makeDialog();
    var text = document.getElementById("logout-warning-text");
    while (text.firstChild) text.removeChild(text.firstChild);
    sentence(text, count(ngettext(
      "%(n)s entry is not yet sent. Logging out deletes it from this phone.",
      "%(n)s entries are not yet sent. Logging out deletes them from this phone.", list.length), list.length));
    if (waiting) sentence(text, gettext("Stay logged in, and what waits is sent as soon as the network is back."));
    if (waiting < list.length) sentence(text, gettext("What the server refused can be put right in its game or evening."));
    dialog.returnValue = "";
    dialog.showModal();
    dialog.querySelector('button[value="stay"]').focus(); // the default
  }

  if (logout) logout.addEventListener("submit", function (e) {
    if (leaving) return;
    e.preventDefault();
    if (trying) return;
    trying = true;
    logout.setAttribute("aria-busy", "true");
    // A network that takes the requests and never answers keeps no one waiting long.
    var patience = new Promise(function (resolve) { window.setTimeout(resolve, 10000); });
    Promise.race([flush(true), patience]).then(all).then(function (list) {
      trying = false;
      logout.removeAttribute("aria-busy");
      if (list.length) warn(list);
      else leave();
    }, leave); // the outbox cannot be read: as without this script
  });
})();
