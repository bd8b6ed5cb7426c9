/* A link to hand on (an invitation): the phone's share sheet where there is one (a chat
   app), else the clipboard; the field stays for copying by hand when neither works. */
(function () {
  "use strict";
  // Sentences from the JS catalogue (base.html links it before this file); English without it.
  var gettext = window.gettext || function (msgid) { return msgid; };
  Array.prototype.forEach.call(document.querySelectorAll("button[data-share-from]"), function (button) {
    var field = document.getElementById(button.getAttribute("data-share-from"));
    if (!field) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var url = field.value;
      if (navigator.share) {
        // The club's name is data; a function, so that a "$" in it stays as it is.
        var club = button.getAttribute("data-club") || "";
        navigator.share({ url: url, text: gettext("Join %(club)s on Stichbuch:").replace("%(club)s", function () { return club; }) })
          .catch(function () { /* dismissed: nothing to do */ });
        return;
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(url).then(function () {
          button.textContent = gettext("Copied");
        }, function () { field.focus(); field.select(); });
        return;
      }
      field.focus();
      field.select();
    });
  });
})();
