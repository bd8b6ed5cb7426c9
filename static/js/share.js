// The settlement as text (templates/ledger/_settlement.html): the phone's share sheet
// where there is one (a chat app), else the clipboard; the text area stays for copying
// by hand when neither works.
(function () {
  "use strict";
  // Sentences from the JS catalogue (base.html links it before this file); English without it.
  var gettext = window.gettext || function (msgid) { return msgid; };
  var button = document.getElementById("share-button");
  var area = document.getElementById("share-text");
  if (!button || !area) return;
  button.hidden = false;
  function done() {
    button.textContent = gettext("Copied");
  }
  function byHand() {
    area.focus();
    area.select();
  }
  button.addEventListener("click", function () {
    var text = area.value;
    if (navigator.share) {
      navigator.share({ text: text }).catch(function () { /* dismissed: nothing to do */ });
      return;
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, byHand);
      return;
    }
    byHand();
  });
})();
