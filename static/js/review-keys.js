// Keyboard for the conflict page: a/k/s/d decide, m opens the merge editor (Ctrl+Enter
// merges), n/p go to the next/previous conflict, Escape leaves a text field.
(function () {
  "use strict";
  function typing(target) {
    return target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable);
  }
  function click(selector) {
    var element = document.querySelector(selector);
    if (element) { element.click(); return true; }
    return false;
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.metaKey) { return; }
    if (event.key === "Escape" && typing(event.target)) { event.target.blur(); return; }
    if (event.ctrlKey && event.key === "Enter" && event.target.id === "rq-merge-text") {
      event.preventDefault();
      click('button[data-key="merge"]');
      return;
    }
    if (event.ctrlKey || typing(event.target)) { return; }
    var key = event.key.toLowerCase();
    if (key === "m") {
      var details = document.querySelector(".rq-merge");
      var text = document.getElementById("rq-merge-text");
      if (details && text) {
        event.preventDefault();
        details.open = true;
        text.focus();
        text.setSelectionRange(text.value.length, text.value.length);
      }
      return;
    }
    if (key === "n") { if (click("#rq-next")) { event.preventDefault(); } return; }
    if (key === "p") { if (click("#rq-prev")) { event.preventDefault(); } return; }
    if (click('button[data-key="' + key + '"]')) { event.preventDefault(); }
  });
})();
