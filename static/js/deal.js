/* Stichbuch: typing in the hands of a deal by tapping cards.
 * Each player's hand is a text field of card codes (it works without this
 * file); here every field gets a grid of the deck: a tap adds or removes a
 * card, cards another player already holds are disabled, six make a hand. */
(function () {
  "use strict";
  var form = document.getElementById("deal-form");
  if (!form) return;
  var entries = Array.prototype.slice.call(form.querySelectorAll(".hand-entry"));

  function codes(input) {
    return input.value.toUpperCase().split(/[\s,]+/).filter(Boolean);
  }
  function sync() {
    var owner = {};
    entries.forEach(function (entry) {
      codes(entry.querySelector("input")).forEach(function (c) { owner[c] = entry; });
    });
    entries.forEach(function (entry) {
      var mine = codes(entry.querySelector("input"));
      entry.querySelector(".count").textContent = mine.length ? "(" + mine.length + "/6)" : "";
      Array.prototype.forEach.call(entry.querySelectorAll(".picker button[data-card]"), function (b) {
        var c = b.getAttribute("data-card");
        var held = mine.indexOf(c) >= 0;
        b.classList.toggle("picked", held);
        b.setAttribute("aria-pressed", held ? "true" : "false");
        b.disabled = !held && (Boolean(owner[c]) || mine.length >= 6);
      });
    });
  }
  entries.forEach(function (entry) {
    var input = entry.querySelector("input");
    var toggle = entry.querySelector(".pick-toggle");
    var picker = entry.querySelector(".picker");
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      picker.hidden = !picker.hidden;
      toggle.setAttribute("aria-expanded", picker.hidden ? "false" : "true");
    });
    picker.addEventListener("click", function (ev) {
      var b = ev.target.closest("button[data-card]");
      if (!b || b.disabled) return;
      var c = b.getAttribute("data-card");
      var mine = codes(input);
      var i = mine.indexOf(c);
      if (i >= 0) mine.splice(i, 1); else mine.push(c);
      input.value = mine.join(" ");
      sync();
    });
    input.addEventListener("input", sync);
  });
  sync();
})();
