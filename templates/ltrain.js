// Progressive enhancement only: every page works without this file.
// Station pages: ← and → go west and east. Info pages: Escape acts as Done.
// A back button whose title does not fit says "Back" (the site's label), as iOS does.
// Checklists remember their ticked rows in localStorage, per site and checklist.
(function () {
  "use strict";
  function rememberChecklists() {
    var lists = document.querySelectorAll("fieldset[data-checklist]");
    for (var i = 0; i < lists.length; i++) remember(lists[i]);
  }
  function remember(list) {
    var home = new URL(list.getAttribute("data-site-home") || "", window.location.href).href;
    var key = "ltrain:" + home + ":" + list.getAttribute("data-checklist");
    var inputs = list.querySelectorAll("input");
    var stored = null;
    try {
      stored = JSON.parse(window.localStorage.getItem(key) || "null");
    } catch (error) {
      stored = null; // storage off or unreadable: the list simply starts empty
    }
    if (Array.isArray(stored)) {
      for (var i = 0; i < inputs.length; i++) inputs[i].checked = stored.indexOf(inputs[i].value) >= 0;
    }
    list.addEventListener("change", function () {
      var chosen = [];
      for (var i = 0; i < inputs.length; i++) if (inputs[i].checked) chosen.push(inputs[i].value);
      try {
        window.localStorage.setItem(key, JSON.stringify(chosen));
      } catch (error) {
        // storage full or off: the choice still shows on this page
      }
    });
  }
  function fitBackLabels() {
    var labels = document.querySelectorAll(".back-label[data-short-label]");
    for (var i = 0; i < labels.length; i++) {
      var label = labels[i];
      if (!label.hasAttribute("data-full-label")) label.setAttribute("data-full-label", label.textContent);
      label.textContent = label.getAttribute("data-full-label");
      if (label.scrollWidth > label.clientWidth + 1) label.textContent = label.getAttribute("data-short-label");
    }
  }
  function ready() {
    fitBackLabels();
    rememberChecklists();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
  window.addEventListener("resize", fitBackLabels);
  function typing(target) {
    if (!target || !target.tagName) return false;
    var tag = target.tagName.toLowerCase();
    return tag === "input" || tag === "textarea" || tag === "select" || target.isContentEditable;
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (typing(event.target)) return;
    var page = document.body.getAttribute("data-page");
    var link = null;
    if (page === "station" && event.key === "ArrowLeft") link = document.querySelector("a[rel=prev]");
    if (page === "station" && event.key === "ArrowRight") link = document.querySelector("a[rel=next]");
    if (page === "info" && event.key === "Escape") link = document.querySelector("a.done");
    if (link) {
      event.preventDefault();
      window.location.href = link.href;
    }
  });
})();
