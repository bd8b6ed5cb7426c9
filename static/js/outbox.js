/* The phone's outbox: one IndexedDB store ("stichbuch-offline" / "queue") that the
   recording page (offline.js) and "Ergebnis eintragen" (offtally.js) both queue into.
   tx(mode, work) runs work(store) in one transaction and resolves, once it is
   committed, with the result of the request work returned (if any). uuid() makes an
   Idempotency-Key. */
(function () {
  "use strict";
  if (!window.indexedDB) return;
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
  window.StichbuchOutbox = { tx: tx, uuid: uuid };
})();
