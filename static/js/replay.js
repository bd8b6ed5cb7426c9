// Step through the tricks; without JavaScript every step simply shows.
(function () {
  var box = document.getElementById("replay");
  if (!box || !box.querySelector(".stepper")) return;
  var steps = box.querySelectorAll(".replay-step");
  var bar = box.querySelector(".stepper");
  var pos = bar.querySelector(".pos");
  var i = 0;
  function show() {
    for (var k = 0; k < steps.length; k++) steps[k].hidden = k !== i;
    pos.textContent = steps[i].getAttribute("data-title") + " (" + (i + 1) + "/" + steps.length + ")";
    bar.querySelector('[data-step="-1"]').disabled = i === 0;
    bar.querySelector('[data-step="1"]').disabled = i === steps.length - 1;
  }
  bar.hidden = false;
  bar.addEventListener("click", function (e) {
    var b = e.target.closest("[data-step]");
    if (!b) return;
    i = Math.max(0, Math.min(steps.length - 1, i + Number(b.getAttribute("data-step"))));
    show();
  });
  show();
})();
