/* The phone's outbox: one IndexedDB store ("stichbuch-offline" / "queue") that the
   recording page (offline.js) and "Ergebnis eintragen" (offtally.js) both queue into.
   tx(mode, work) runs work(store) in one transaction and resolves, once it is
   committed, with the result of the request work returned (if any). uuid() makes an
   Idempotency-Key. send(item, url, body, csrf, refused) posts one queued item with its
   key: on 200/201 it leaves the outbox and resolves true; on any other answer it stays,
   marked item.failed ("status: message"), and resolves false; a network failure
   rejects (the item stays for the next try). */
(function () {
  "use strict";
  if (!window.indexedDB || window.StichbuchOutbox) return; // loaded once per page
  var dbPromise = null;

  function db() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var open = indexedDB.open("stichbuch-offline", 1);
        open.onupgradeneeded = function () {
          open.result.createObjectStore("queue", { keyPath: "id", autoIncrement: true });
        };
        open.onsuccess = function () { resolve(open.result); };
        open.onerror = function () { reject(open.error); };
      });
    }
    return dbPromise;
  }
  function tx(mode, work) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var store = d.transaction("queue", mode).objectStore("queue");
        var result = work(store);
        store.transaction.oncomplete = function () { resolve(result && result.result !== undefined ? result.result : result); };
        store.transaction.onerror = function () { reject(store.transaction.error); };
      });
    });
  }
  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "k" + Date.now().toString(36) + Math.random().toString(36).slice(2);
  }
  function send(item, url, body, csrf, refused) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json",
        "X-CSRFToken": csrf, "Idempotency-Key": item.key },
      body: body
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (r.status === 201 || r.status === 200) {
          return tx("readwrite", function (s) { s.delete(item.id); }).then(function () { return true; });
        }
        item.failed = r.status + ": " + (data.detail || refused);
        return tx("readwrite", function (s) { s.put(item); }).then(function () { return false; });
      });
    });
  }
  window.StichbuchOutbox = { tx: tx, uuid: uuid, send: send };
})();
