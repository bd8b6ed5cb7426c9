// Small behaviours of every page, declared in the markup with data attributes, so the
// pages need no inline script (the Content-Security-Policy allows none):
//   data-confirm="question"   on a form (on submit) or a button (on click): ask first
//   data-submit-on-change     on a select: send its form when the choice changes
//   data-go-on-change         on a form: go to the URL its select's value names
//   input.copy                a read-only link: selected whole on click, to copy it
//   data-poll-when-visible    on an element polling with htmx: no request while the
//                             tab is hidden (an htmx trigger filter would need eval)
(function () {
  "use strict";
  document.addEventListener("submit", function (e) {
    var form = e.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) e.preventDefault();
  });
  document.addEventListener("click", function (e) {
    var el = e.target;
    if (!(el instanceof Element)) return;
    var button = el.closest("[data-confirm]:not(form)");
    if (button && !window.confirm(button.getAttribute("data-confirm"))) {
      e.preventDefault();
      return;
    }
    if (el.matches("input.copy")) el.select();
  });
  document.addEventListener("change", function (e) {
    var el = e.target;
    if (!(el instanceof Element)) return;
    if (el.matches("[data-submit-on-change]") && el.form) {
      el.form.submit();
      return;
    }
    var go = el.closest("form[data-go-on-change]");
    if (go) {
      var select = go.querySelector("select");
      if (select && select.value) window.location.href = select.value;
    }
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    var el = e.target;
    if (document.visibilityState !== "visible" && el.hasAttribute("data-poll-when-visible")) {
      e.preventDefault();
    }
  });
})();
