/* "New evening": tap the players in the order they sit (clockwise), one tap each,
   instead of choosing each seat from a list. The taps fill the seat lists below
   (still there without this script, and for changing one seat); a second tap on a
   seated player takes him out and the ones after him move up. Who may sit, and how
   many, is the server's word when the form is sent. */
(function () {
  "use strict";
  var box = document.getElementById("seat-order");
  var form = document.getElementById("evening-form");
  if (!box || !form) return;
  var selects = Array.prototype.slice.call(form.querySelectorAll('select[id^="seat"]'))
    .filter(function (s) { return /^seat\d+$/.test(s.id); });

  function order() {
    return selects.map(function (s) { return s.value; }).filter(Boolean);
  }
  function write(ids) {
    selects.forEach(function (s, i) { s.value = ids[i] || ""; });
    draw();
  }
  function draw() {
    var ids = order();
    Array.prototype.forEach.call(box.querySelectorAll("button[data-player]"), function (b) {
      var at = ids.indexOf(b.getAttribute("data-player"));
      b.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      var n = b.querySelector(".seat-no");
      n.textContent = at >= 0 ? String(at + 1) + "." : "";
    });
  }
  box.hidden = false;
  // The lists stay for changing one seat, folded (open without this script).
  var lists = form.querySelector("details.seat-lists");
  if (lists) lists.open = false;
  box.addEventListener("click", function (ev) {
    var b = ev.target.closest("button[data-player]");
    if (!b) return;
    var id = b.getAttribute("data-player");
    var ids = order();
    var at = ids.indexOf(id);
    if (at >= 0) ids.splice(at, 1);
    else if (ids.length < selects.length) ids.push(id);
    write(ids);
  });
  form.addEventListener("change", draw);
  draw();
})();
