/* A link to hand on (an invitation): the phone's share sheet where there is one (a chat
   app), else the clipboard; the field stays for copying by hand when neither works. */
(function () {
  "use strict";
  Array.prototype.forEach.call(document.querySelectorAll("button[data-share-from]"), function (button) {
    var field = document.getElementById(button.getAttribute("data-share-from"));
    if (!field) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var url = field.value;
      if (navigator.share) {
        navigator.share({ url: url, text: button.getAttribute("data-share-text") || "" })
          .catch(function () { /* dismissed: nothing to do */ });
        return;
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(url).then(function () {
          button.textContent = button.getAttribute("data-done");
        }, function () { field.focus(); field.select(); });
        return;
      }
      field.focus();
      field.select();
    });
  });
})();
