// Step through the tricks; without JavaScript every step simply shows. Each step says
// what it is (data-kind, the trick's number in data-trick); its name in the stepper is
// a sentence of the JS catalogue (base.html links it before this file; English without it).
(function () {
  var box = document.getElementById("replay");
  if (!box || !box.querySelector(".stepper")) return;
  var pgettext = window.pgettext || function (context, msgid) { return msgid; };
  var steps = box.querySelectorAll(".replay-step");
  var bar = box.querySelector(".stepper");
  var pos = bar.querySelector(".pos");
  var i = 0;
  function title(step) {
    switch (step.getAttribute("data-kind")) {
      case "deal": return pgettext("replay step", "Deal");
      case "trick":
        return pgettext("replay step", "Trick %(n)s").replace("%(n)s", step.getAttribute("data-trick"));
      case "end": return pgettext("replay step", "End");
      default: return pgettext("replay step", "Result");
    }
  }
  function show() {
    for (var k = 0; k < steps.length; k++) steps[k].hidden = k !== i;
    pos.textContent = title(steps[i]) + " (" + (i + 1) + "/" + steps.length + ")";
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
