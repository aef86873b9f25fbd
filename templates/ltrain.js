// Progressive enhancement only: every page works without this file.
// Station pages: ← and → go west and east (mirrored right to left: ← goes on to the next
// station, which the mirrored bar shows on the left). Info pages: Escape acts as Done.
// Motion with meaning (cross-document View Transitions): going east pushes, going west pops,
// More Information presents the info sheet, Done dismisses it; the type is chosen from how the
// new page relates to the one left, so the browser's own Back animates the right way too.
// Back and Done go back in history when the page they lead to is the previous entry, so the
// phone's Back button never walks the wrong way.
// Offline: over http(s) the site's service worker keeps every page; after a redeploy, a notice
// offers the new version, which never replaces the one being read without the reader's say.
// A back button whose title does not fit says "Back" (the site's label), as iOS does.
// Checklists remember their ticked rows in localStorage, per site and checklist.
(function () {
  "use strict";
  function withoutHash(url) {
    var at = String(url).indexOf("#");
    return at < 0 ? String(url) : String(url).slice(0, at);
  }
  function sameURL(a, b) {
    return !!a && !!b && withoutHash(a) === withoutHash(b);
  }
  function linkTo(selector, url) {
    var links = document.querySelectorAll(selector);
    for (var i = 0; i < links.length; i++) if (sameURL(links[i].href, url)) return true;
    return false;
  }
  // What the move from the page at `from` to this page means.
  function transitionType(from) {
    var page = document.body ? document.body.getAttribute("data-page") : "";
    if (page === "station") {
      if (linkTo("a.more-info", from)) return "dismiss";
      if (linkTo("a[rel=prev]", from)) return "push";
      if (linkTo("a[rel=next]", from)) return "pop";
      if (linkTo("a.bar-home", from)) return "push";
      return "push";
    }
    if (page === "info") return linkTo("a.done", from) ? "present" : "";
    if (page === "checklist") return linkTo("a.back", from) ? "push" : "";
    if (page === "index") return linkTo("main a", from) ? "pop" : "";
    return "";
  }
  // Instant pages: the neighbours and the info page this page names with <link rel=prefetch>
  // become speculation rules where the browser has them (the links alone elsewhere). Prefetch,
  // not prerender: a prerendered page is revealed without its View Transition.
  function declareSpeculationRules() {
    if (!window.HTMLScriptElement || !HTMLScriptElement.supports || !HTMLScriptElement.supports("speculationrules")) return;
    var links = document.querySelectorAll("link[rel=prefetch]");
    if (!links.length) return;
    var urls = [];
    for (var i = 0; i < links.length; i++) urls.push(links[i].getAttribute("href"));
    var rules = document.createElement("script");
    rules.type = "speculationrules";
    rules.textContent = JSON.stringify({ prefetch: [{ source: "list", eagerness: "moderate", urls: urls }] });
    document.head.appendChild(rules);
  }
  window.addEventListener("pagereveal", function (event) {
    var root = document.documentElement;
    if (!event.viewTransition) {
      root.setAttribute("data-transition", "none");
      return;
    }
    var activation = window.navigation && window.navigation.activation;
    var from = activation && activation.from ? activation.from.url : document.referrer;
    var type = from ? transitionType(from) : "";
    if (type && event.viewTransition.types) event.viewTransition.types.add(type);
    root.setAttribute("data-transition", type || "fade");
  });
  // The previous history entry, when the browser can tell (the Navigation API), else a guess
  // from the referrer.
  function previousURL() {
    var navigation = window.navigation;
    if (navigation && navigation.currentEntry && typeof navigation.entries === "function") {
      var index = navigation.currentEntry.index;
      var entries = navigation.entries();
      return index > 0 && entries[index - 1] ? entries[index - 1].url : "";
    }
    return window.history.length > 1 ? document.referrer : "";
  }
  // Follows a back-like link (Back, Done): back in history when it leads to the previous entry.
  function follow(link) {
    if (link.hasAttribute("data-back") && sameURL(previousURL(), link.href)) {
      window.history.back();
    } else {
      window.location.href = link.href;
    }
  }
  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var link = event.target && event.target.closest ? event.target.closest("a[data-back]") : null;
    if (!link || !sameURL(previousURL(), link.href)) return;
    event.preventDefault();
    window.history.back();
  });
  function rememberChecklists() {
    var lists = document.querySelectorAll("fieldset[data-checklist]");
    for (var i = 0; i < lists.length; i++) remember(lists[i]);
  }
  function remember(list) {
    var home = new URL(list.getAttribute("data-site-home") || "", document.baseURI).href;
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
      // It fits when it stands on one line, leaves the page's title room for its longest word,
      // and nothing leaves the bar.
      var bar = label.closest(".bar");
      var fits = textLines(label) <= 1 && (!bar || whileMeasuring(bar, function () {
        var title = bar.querySelector("h1");
        return (!title || title.scrollWidth <= title.clientWidth + 1) && bar.scrollWidth <= bar.clientWidth + 1;
      }));
      if (!fits) label.textContent = label.getAttribute("data-short-label");
    }
  }
  // Labels of any length (see .bar in style.css). The bar's CSS keeps the title centred, each
  // side at most about a third; where that breaks a word of the title or wraps a label onto a
  // third line, each side gets the least width that shows its button in two lines (three if two
  // leave the title too little) and the title the rest, off centre, as UIKit moves a title aside.
  function textLines(element) {
    return Math.round(element.getBoundingClientRect().height / parseFloat(window.getComputedStyle(element).lineHeight));
  }
  function labelOf(button) {
    return button.querySelector(".back-label") || button;
  }
  // `measure()` with the bar's title set to overflow rather than break a word (.measuring), so a
  // word too wide for it shows as overflow.
  function whileMeasuring(bar, measure) {
    bar.classList.add("measuring");
    try {
      return measure();
    } finally {
      bar.classList.remove("measuring");
    }
  }
  function barIsCrowded(bar, title) {
    if (whileMeasuring(bar, function () { return title.scrollWidth > title.clientWidth + 1; })) return true;
    var buttons = bar.querySelectorAll(".bar-side .bar-button");
    for (var i = 0; i < buttons.length; i++) if (textLines(labelOf(buttons[i])) > 2) return true;
    return false;
  }
  // The least width (px) at which `side`'s button shows in at most `lines` lines, measured on a copy.
  function narrowestSide(bar, side, lines) {
    var button = side.querySelector(".bar-button");
    if (!button) return 0;
    var probe = button.cloneNode(true);
    probe.removeAttribute("id");
    probe.setAttribute("aria-hidden", "true");
    probe.style.cssText = "position: absolute; visibility: hidden; max-width: none; left: 0; top: 0";
    side.appendChild(probe);
    probe.style.width = "max-content";
    var high = Math.ceil(probe.getBoundingClientRect().width);
    probe.style.width = "min-content";
    var low = Math.ceil(probe.getBoundingClientRect().width);
    while (low < high) {
      var middle = Math.floor((low + high) / 2);
      probe.style.width = middle + "px";
      if (textLines(labelOf(probe)) <= lines) high = middle; else low = middle + 1;
    }
    probe.remove();
    return high;
  }
  // The width of the widest word of a title (its min-content width), measured on a copy.
  function longestWord(title) {
    var probe = title.cloneNode(true);
    probe.setAttribute("aria-hidden", "true");
    probe.style.cssText = "position: absolute; visibility: hidden; width: min-content; overflow-wrap: normal";
    title.parentNode.appendChild(probe);
    var width = Math.ceil(probe.getBoundingClientRect().width);
    probe.remove();
    return width;
  }
  function fitBars() {
    var bars = document.querySelectorAll(".bar");
    for (var i = 0; i < bars.length; i++) {
      var bar = bars[i];
      var title = bar.querySelector(".bar-title h1");
      var leading = bar.querySelector(".bar-leading");
      var trailing = bar.querySelector(".bar-trailing");
      if (!title || !leading || !trailing) continue;
      bar.style.gridTemplateColumns = "";
      bar.classList.remove("fitted");
      if (!barIsCrowded(bar, title)) continue;
      var style = window.getComputedStyle(bar);
      var room = bar.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 2 * parseFloat(style.columnGap);
      var needed = Math.max(room / 3, longestWord(title));
      var left = narrowestSide(bar, leading, 2);
      var right = narrowestSide(bar, trailing, 2);
      if (room - left - right < needed) {
        left = narrowestSide(bar, leading, 3);
        right = narrowestSide(bar, trailing, 3);
      }
      if (room - left - right >= room / 3) {
        bar.classList.add("fitted");
        bar.style.gridTemplateColumns = left + "px minmax(0, 1fr) " + right + "px";
      }
    }
  }
  // Registers the worker named on <html> (relative to the page's base, so any sub-path works, and
  // the 404 page at any depth), never in `ltrain serve`'s preview nor from file://, and offers a
  // new version once one is installed.
  function keepOffline() {
    var root = document.documentElement;
    var script = root.getAttribute("data-service-worker");
    if (!script || window.ltrainPreview || !("serviceWorker" in navigator) || !/^https?:$/.test(window.location.protocol)) return;
    var url = new URL(script, document.baseURI);
    var accepted = false;
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (accepted) window.location.reload();
    });
    // The notice names no worker of its own: a redeploy after it is shown replaces the waiting
    // worker, and Reload starts the one waiting then, not the one the notice was made for.
    var registered = null;
    function offer() {
      if (document.querySelector(".update-notice")) return;
      var notice = document.createElement("div");
      notice.className = "update-notice";
      notice.setAttribute("role", "status");
      var text = document.createElement("span");
      text.textContent = root.getAttribute("data-update-text") || "A new version of this guide is available.";
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = root.getAttribute("data-reload-text") || "Reload";
      button.addEventListener("click", function () {
        accepted = true;
        button.disabled = true;
        if (registered && registered.waiting) registered.waiting.postMessage("ltrain:skip-waiting");
      });
      notice.appendChild(text);
      notice.appendChild(button);
      document.body.appendChild(notice);
    }
    // A new worker is offered once it is installed. It may already be installing when the
    // registration resolves (the browser checked for an update as the page loaded, before any
    // listener was attached): it is watched then too, or its notice would never show.
    function offerWhenInstalled(worker) {
      if (!worker) return;
      if (worker.state === "installed" && navigator.serviceWorker.controller) return offer();
      worker.addEventListener("statechange", function () {
        if (worker.state === "installed" && navigator.serviceWorker.controller) offer();
      });
    }
    navigator.serviceWorker.register(url.href, { scope: new URL("./", url).href, updateViaCache: "none" }).then(function (registration) {
      registered = registration;
      offerWhenInstalled(registration.waiting);
      offerWhenInstalled(registration.installing);
      registration.addEventListener("updatefound", function () {
        offerWhenInstalled(registration.installing);
      });
      // A page left open learns of a redeploy too: when it is shown again, and every half hour.
      function check() {
        registration.update().catch(function () {});
      }
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "visible") check();
      });
      window.setInterval(check, 30 * 60 * 1000);
    }).catch(function () {
      // No worker (storage off, a private window): the site works online as before.
    });
  }
  function ready() {
    keepOffline();
    declareSpeculationRules();
    fitBackLabels();
    fitBars();
    rememberChecklists();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
  window.addEventListener("resize", function () {
    fitBackLabels();
    fitBars();
  });
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
    // Each arrow goes to the neighbour on its side: right to left, the next station is on the left.
    var rightToLeft = document.documentElement.getAttribute("dir") === "rtl";
    var back = rightToLeft ? "ArrowRight" : "ArrowLeft";
    var onward = rightToLeft ? "ArrowLeft" : "ArrowRight";
    if (page === "station" && event.key === back) link = document.querySelector("a[rel=prev]");
    if (page === "station" && event.key === onward) link = document.querySelector("a[rel=next]");
    if (page === "info" && event.key === "Escape") link = document.querySelector("a.done");
    if (link) {
      event.preventDefault();
      follow(link);
    }
  });
})();
