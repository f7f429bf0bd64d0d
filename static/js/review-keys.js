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
  // While a decision is on its way, or the next conflict is still being wired up by htmx
  // (it binds new content once it settles), keys wait: no decision twice, no plain submit.
  // (The live merge preview's requests do not count.)
  function busy() {
    return document.querySelector(
      "#review-panel.htmx-swapping, #review-panel.htmx-settling, #rq-form.htmx-request, " +
      "#rq-prev.htmx-request, #rq-next.htmx-request"
    ) !== null;
  }
  window.reviewKeysBusy = busy;
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.metaKey) { return; }
    if (busy() && !typing(event.target)) { event.preventDefault(); return; }
    if (event.key === "Escape" && typing(event.target)) { event.target.blur(); return; }
    if (event.ctrlKey && event.key === "Enter" && event.target.id === "rq-merge-text") {
      event.preventDefault();
      if (!busy()) { click('button[data-key="merge"]'); }
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
