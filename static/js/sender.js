/* The phone's outbox, sent from any page: entries recorded with no network (a card
   on the recording page, offline.js; a result, offtally.js) wait in IndexedDB
   (outbox.js). Whatever page is open when the network comes back sends them, in
   order, each with its Idempotency-Key (a retry is answered, never stored twice), and
   every page says while anything waits. A refused entry stops its game's (or its
   evening's) queue; it is shown where it was recorded, with the server's reason.
   The recording page and the result form send their own entries (they draw them):
   this script leaves those to them. No rule here: the server judges each entry. */
(function () {
  "use strict";
  var banner = document.getElementById("outbox-banner");
  if (!banner || !window.StichbuchOutbox) return;
  // Sentences from the JS catalogue (base.html links it before this file); without it
  // (never cached, no network) they stay English.
  var gettext = window.gettext || function (msgid) { return msgid; };
  var ngettext = window.ngettext || function (singular, plural, n) { return n === 1 ? singular : plural; };
  var tx = window.StichbuchOutbox.tx;
  var flushing = false;

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

  function flush() {
    if (flushing) return Promise.resolve();
    flushing = true;
    var stopped = {};
    return all().then(function (list) {
      var mine = list.filter(function (i) { return !ownedHere(i); });
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
      flushing = false;
      return all().then(draw);
    });
  }

  window.addEventListener("online", flush);
  window.addEventListener("offline", function () { all().then(draw); });
  // Entries queued on this page meanwhile, and "online" coming before requests go
  // through again: look every few seconds, and send while anything of ours waits.
  window.setInterval(function () {
    if (flushing) return;
    all().then(function (list) {
      draw(list);
      var ours = list.some(function (i) { return !i.failed && !ownedHere(i); });
      if (ours && navigator.onLine !== false) flush();
    });
  }, 3000);
  flush();
})();
