// Search over the whole guide: a classic script (no modules, no fetch, no WebAssembly), so it
// works over http(s), offline, from file:// and inside the single file. The index is
// search-index.js and its shards (search/N.js, a run of stations each), written by `ltrain build`,
// loaded in line order with <script> elements on first use (the single file has them inline);
// results show as the shards arrive, and the count once they are all in. Without JavaScript the
// field stays hidden.
// Matching folds case and accents ("gorlitzer" finds "Görlitzer"), takes each word as a prefix
// of a word of the text, and a run of Chinese, Japanese or Korean characters anywhere in it.
// Results: station titles, then summaries, then info text (under its heading, linking to it),
// then checklists; a title that is the query, or holds its words whole, comes first; otherwise
// the guide's own order. The field is an ARIA combobox: ↓ and ↑ choose, Enter opens, Escape
// clears; the number of results is announced. "/" opens search from any page.
(function () {
  "use strict";
  var LIMIT = 50;
  var CJK = /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]/;
  var NOT_ASCII = /[^\x00-\x7f]/;
  function fold(text) {
    text = String(text);
    // ASCII has no accent to take off, only case (and most of many guides' text is ASCII).
    if (!NOT_ASCII.test(text)) return text.toLowerCase();
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function isWordCharacter(character) {
    return /[\p{L}\p{N}]/u.test(character);
  }
  // Where `word` (folded) first stands in `text` (folded) at the start of a word, or anywhere
  // when it holds CJK characters; -1 when nowhere.
  function find(text, word) {
    var anywhere = CJK.test(word);
    var at = text.indexOf(word);
    while (at >= 0) {
      if (anywhere || at === 0 || !isWordCharacter(text.charAt(at - 1))) return at;
      at = text.indexOf(word, at + 1);
    }
    return -1;
  }
  function wholeWord(text, word, at) {
    var end = at + word.length;
    return end >= text.length || !isWordCharacter(text.charAt(end)) || CJK.test(word);
  }
  // How well `folded` (a text folded once, when the index arrived) holds every word: 0 it is the
  // query, 1 every word whole, 2 every word as a prefix; null when a word is missing.
  function grade(folded, words, query) {
    if (folded.trim() === query) return 0;
    var whole = true;
    for (var i = 0; i < words.length; i++) {
      var at = find(folded, words[i]);
      if (at < 0) return null;
      if (!wholeWord(folded, words[i], at)) whole = false;
    }
    return whole ? 1 : 2;
  }
  // The text around the first word's match, with the match marked, as DOM nodes.
  function excerpt(text, word) {
    var fragment = document.createDocumentFragment();
    var characters = Array.from(text);
    // The folded text, character by character, so a match in it maps back to the original.
    var starts = [];
    var folded = "";
    for (var i = 0; i < characters.length; i++) {
      starts.push(folded.length);
      folded += fold(characters[i]);
    }
    var at = word ? find(folded, word) : -1;
    var first = 0;
    var last = characters.length;
    if (at >= 0) {
      var startIndex = 0;
      while (startIndex + 1 < starts.length && starts[startIndex + 1] <= at) startIndex++;
      var endIndex = startIndex;
      while (endIndex < starts.length && starts[endIndex] < at + word.length) endIndex++;
      first = Math.max(0, startIndex - 40);
      last = Math.min(characters.length, endIndex + 80);
      fragment.appendChild(document.createTextNode((first > 0 ? "…" : "") + characters.slice(first, startIndex).join("")));
      var mark = document.createElement("mark");
      mark.textContent = characters.slice(startIndex, endIndex).join("");
      fragment.appendChild(mark);
      fragment.appendChild(document.createTextNode(characters.slice(endIndex, last).join("") + (last < characters.length ? "…" : "")));
    } else {
      last = Math.min(characters.length, 120);
      fragment.appendChild(document.createTextNode(characters.slice(0, last).join("") + (last < characters.length ? "…" : "")));
    }
    return fragment;
  }
  // Every result for `query` in what has arrived of the index, ranked. `memo` keeps each part's
  // results for the query, so a part that arrives later is the only one searched then.
  function search(index, query, memo) {
    var folded = fold(query).trim().replace(/\s+/g, " ");
    if (!folded) return [];
    var words = folded.split(" ");
    if (memo.query !== folded) {
      memo.query = folded;
      memo.byPart = {};
    }
    var results = [];
    for (var p = 0; p < index.parts.length; p++) {
      var part = index.parts[p];
      if (!memo.byPart[part.number]) memo.byPart[part.number] = searchPart(part, words, folded, index.join);
      // One at a time: the single file's one part can hold more results than a call takes arguments.
      var found = memo.byPart[part.number];
      for (var f = 0; f < found.length; f++) results.push(found[f]);
    }
    results.sort(function (a, b) {
      return a.tier - b.tier || a.quality - b.quality || a.order - b.order;
    });
    results.words = words;
    return results;
  }
  // The results in one part of the index; `order` is the guide's (parts are numbered in line order).
  function searchPart(part, words, folded, join) {
    var results = [];
    var pages = part.pages;
    function add(tier, quality, position, title, href, text, heading) {
      results.push({ tier: tier, quality: quality, order: part.number * 1048576 + position, title: title, href: href, text: text, heading: heading });
    }
    for (var i = 0; i < pages.length; i++) {
      var page = pages[i];
      if (page.kind === "s") {
        var byTitle = grade(page.foldedTitle, words, folded);
        if (byTitle !== null) add(0, byTitle, i, page.title, page.href, page.summary);
        else if (page.summary) {
          var bySummary = grade(page.foldedSummary, words, folded);
          if (bySummary !== null) add(1, bySummary, i, page.title, page.href, page.summary);
        }
      } else if (page.kind === "i") {
        for (var s = 0; s < page.sections.length; s++) {
          var section = page.sections[s];
          var quality = grade(section.folded, words, folded);
          if (quality === null) continue;
          add(2, quality, i, page.title, section.id ? page.href + join + section.id : page.href, section.text, section.heading);
          break;
        }
      } else if (page.kind === "c") {
        var checklistQuality = grade(page.foldedTitle, words, folded);
        var row = "";
        if (checklistQuality === null) {
          for (var r = 0; r < page.rows.length; r++) {
            checklistQuality = grade(page.rows[r].folded, words, folded);
            if (checklistQuality !== null) { row = page.rows[r].text; break; }
          }
        }
        if (checklistQuality !== null) add(3, checklistQuality, i, page.title, page.href, row);
      }
    }
    return results;
  }

  // An entry of the index as search() reads it, every text folded once, here, rather than on
  // every keystroke.
  function prepared(entry) {
    var page = { kind: entry[0], title: entry[1], href: entry[2] };
    if (page.kind !== "i") page.foldedTitle = fold(page.title);
    if (page.kind === "s") {
      page.summary = entry[3] || "";
      page.foldedSummary = fold(page.summary);
    } else if (page.kind === "i") {
      page.sections = entry[3].map(function (section) {
        return { heading: section[0], id: section[1], text: section[2], folded: fold(section[0] + " " + section[2]) };
      });
    } else if (page.kind === "c") {
      page.rows = entry[3].map(function (row) { return { text: row, folded: fold(row) }; });
    }
    return page;
  }

  function labelled(form, name, count) {
    return (form.getAttribute(name) || "").replace("{count}", String(count));
  }

  function setUp(form) {
    var field = form.querySelector("[role=combobox]");
    var list = form.querySelector("[role=listbox]");
    var status = form.querySelector("[role=status]");
    if (!field || !list || !status) return;
    form.hidden = false;
    var options = [];
    var active = -1;
    var requested = {};
    var inFlight = 0;
    // Scripts loaded or lost (the root among them).
    var finished = 0;
    var memo = {};
    // What has arrived so far, as search() reads it: the root's checklists and inline pages (the
    // single file has every entry there), then each shard that is in, in line order (a shard
    // still on its way, or lost, leaves a gap); `settled` once no shard is on its way.
    function index() {
      var root = window.ltrainSearchIndex;
      if (!root) return null;
      var parts = [{ number: 0, pages: preparedPart("", root.pages || []) }];
      var settled = inFlight === 0;
      for (var i = 0; i < root.shards.length; i++) {
        var shard = preparedShard(root.shards[i]);
        if (shard) parts.push({ number: i + 1, pages: shard });
        else if (!requested[root.shards[i]]) settled = false;
      }
      parts.push({ number: root.shards.length + 1, pages: preparedPart(" checklists", root.checklists) });
      return { join: root.join, parts: parts, settled: settled };
    }
    // Each part's entries, prepared (folded) once, as soon as it arrives.
    var preparedParts = {};
    function preparedPart(name, entries) {
      if (!preparedParts[name]) preparedParts[name] = entries.map(prepared);
      return preparedParts[name];
    }
    function preparedShard(source) {
      var entries = (window.ltrainSearchShards || {})[source];
      return entries ? preparedPart(source, entries) : null;
    }
    function request(source) {
      if (requested[source]) return;
      requested[source] = true;
      inFlight++;
      var script = document.createElement("script");
      script.src = new URL(source, new URL(form.getAttribute("data-search-index"), document.baseURI)).href;
      script.onload = function () {
        inFlight--;
        finished++;
        preparedShard(source);
        // Shown first, so that load() knows how many results the query has now.
        showSoon();
        load();
      };
      // A shard that does not load leaves its gap; the others are still searched.
      script.onerror = function () {
        inFlight--;
        finished++;
        showSoon();
        load();
      };
      document.head.appendChild(script);
    }
    // Loads search-index.js, then its shards in line order, each once, with <script> elements (no
    // fetch: it works from file:// too): two at a time until one is in, so that the first results
    // do not share the bandwidth with many shards, then six (as many as a browser opens to one
    // host over HTTP/1.1). Only as far as the reader needs, on a phone's metered, patchy line: the
    // first shard on focus; more for a query, but while its list holds a screenful and the reader
    // is still typing, none until a pause (the rest then comes in for the full list and count).
    var SCREENFUL = 10;
    var PAUSE = 500;
    var lastInput = 0;
    var found = 0;
    var resume = null;
    function load() {
      var root = window.ltrainSearchIndex;
      if (!root) {
        var source = form.getAttribute("data-search-index");
        if (source) request(source);
        return;
      }
      var wanted = root.shards.length;
      if (!field.value.trim()) {
        wanted = Math.min(wanted, 1);
      } else if (found >= SCREENFUL && Date.now() - lastInput < PAUSE) {
        wanted = 0;
        // Once every shard is in there is nothing to load after the pause, and the list shown is
        // whole: it is not drawn again under the reader's finger.
        var current = index();
        if (!resume && !(current && current.settled)) {
          resume = setTimeout(function () { resume = null; load(); showSoon(); }, lastInput + PAUSE - Date.now());
        }
      }
      var most = finished > 1 ? 6 : 2;
      for (var i = 0; i < wanted && inFlight < most; i++) request(root.shards[i]);
    }
    // Results are shown as the shards arrive: at once while none is shown (the first ones), then
    // at most every 200 ms, and when the last is in; the option chosen stays chosen.
    var lastShown = 0;
    var timer = null;
    function showSoon() {
      if (!field.value.trim()) return;
      var current = index();
      var wait = (current && current.settled) || !options.length ? 0 : Math.max(0, lastShown + 200 - Date.now());
      if (wait === 0) {
        if (timer) clearTimeout(timer);
        timer = null;
        show(true);
      } else if (!timer) {
        timer = setTimeout(function () { timer = null; show(true); }, wait);
      }
    }
    function choose(position) {
      if (active >= 0 && options[active]) options[active].setAttribute("aria-selected", "false");
      active = position;
      if (active >= 0 && options[active]) {
        options[active].setAttribute("aria-selected", "true");
        field.setAttribute("aria-activedescendant", options[active].id);
        options[active].scrollIntoView({ block: "nearest" });
      } else {
        field.removeAttribute("aria-activedescendant");
      }
    }
    // `keepsChoice`: the same query with more of the index in, so the chosen option stays chosen.
    function show(keepsChoice) {
      var query = field.value;
      var chosen = keepsChoice && active >= 0 && options[active] ? options[active].getAttribute("data-href") : null;
      list.textContent = "";
      options = [];
      choose(-1);
      if (!query.trim()) {
        list.hidden = true;
        field.setAttribute("aria-expanded", "false");
        status.textContent = "";
        return;
      }
      var current = index();
      if (!current) {
        load();
        return;
      }
      var results = search(current, query, memo);
      found = results.length;
      load();
      for (var i = 0; i < Math.min(results.length, LIMIT); i++) {
        var result = results[i];
        var item = document.createElement("li");
        item.id = field.id + "-result-" + i;
        item.setAttribute("role", "option");
        item.setAttribute("aria-selected", "false");
        // No link inside the option (an interactive element inside another): the option itself
        // opens its page, on a click or on Enter.
        item.className = "row link-row search-result";
        item.setAttribute("data-href", result.href);
        var text = document.createElement("span");
        text.className = "row-text";
        var label = document.createElement("span");
        label.className = "row-label";
        label.textContent = result.heading ? result.title + " · " + result.heading : result.title;
        text.appendChild(label);
        if (result.text) {
          var detail = document.createElement("span");
          detail.className = "row-detail";
          detail.appendChild(excerpt(result.text, results.words[0]));
          text.appendChild(detail);
        }
        item.appendChild(text);
        list.appendChild(item);
        options.push(item);
      }
      list.hidden = options.length === 0;
      field.setAttribute("aria-expanded", options.length ? "true" : "false");
      for (var o = 0; chosen && o < options.length; o++) {
        if (options[o].getAttribute("data-href") === chosen) choose(o);
      }
      // The count is said once, when every shard is in, not at each one.
      status.textContent = !current.settled ? ""
        : results.length === 0 ? labelled(form, "data-no-results", 0)
        : labelled(form, results.length === 1 ? "data-one-result" : "data-result-count", results.length);
      lastShown = Date.now();
    }
    function open(option) {
      window.location.href = option.getAttribute("data-href");
    }
    list.addEventListener("click", function (event) {
      var option = event.target.closest ? event.target.closest("[role=option]") : null;
      if (option) open(option);
    });
    field.addEventListener("focus", load);
    field.addEventListener("input", function () {
      lastInput = Date.now();
      show();
    });
    field.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" && options.length) {
        event.preventDefault();
        choose(Math.min(options.length - 1, active + 1));
      } else if (event.key === "ArrowUp" && options.length) {
        event.preventDefault();
        choose(Math.max(-1, active - 1));
      } else if (event.key === "Enter") {
        var chosen = options[active >= 0 ? active : 0];
        if (chosen) {
          event.preventDefault();
          open(chosen);
        }
      } else if (event.key === "Escape" && field.value) {
        event.preventDefault();
        field.value = "";
        show();
      }
    });
    if (field.value) show();
    return field;
  }

  function visible(element) {
    return !!element && element.getClientRects().length > 0;
  }
  var fields = [];
  function ready() {
    var forms = document.querySelectorAll("[data-search]");
    for (var i = 0; i < forms.length; i++) {
      var field = setUp(forms[i]);
      if (field) fields.push(field);
    }
    var links = document.querySelectorAll("[data-search-link]");
    for (var j = 0; j < links.length; j++) links[j].hidden = false;
    focusWished();
  }
  // The bar's search button leads to the index (a plain link, so the page is not one that links
  // into another's fragment); the caret is put in the field once there. The wish is kept in
  // sessionStorage across the page load (or the single file's change of page).
  var WISH = "ltrain-search-wanted";
  function wish(wanted) {
    try {
      if (wanted) window.sessionStorage.setItem(WISH, "1");
      else return window.sessionStorage.getItem(WISH) === "1" && (window.sessionStorage.removeItem(WISH), true);
    } catch (error) {
      return false;
    }
    return false;
  }
  document.addEventListener("click", function (event) {
    var link = event.target && event.target.closest ? event.target.closest("a[data-search-link]") : null;
    if (link) wish(true);
  });
  function focusWished() {
    for (var i = 0; i < fields.length; i++) {
      if (visible(fields[i])) {
        if (wish(false)) fields[i].focus();
        return;
      }
    }
  }
  window.addEventListener("hashchange", focusWished);
  // Again once loaded: the browser's own move to a #fragment would take the focus away.
  window.addEventListener("load", focusWished);
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    var tag = target && target.tagName ? target.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "textarea" || tag === "select" || (target && target.isContentEditable)) return;
    for (var i = 0; i < fields.length; i++) {
      if (visible(fields[i])) {
        event.preventDefault();
        fields[i].focus();
        return;
      }
    }
    var links = document.querySelectorAll("[data-search-link]");
    for (var j = 0; j < links.length; j++) {
      if (visible(links[j])) {
        event.preventDefault();
        links[j].click();
        return;
      }
    }
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
