// The service worker of an ltrain site: once a reader has opened any page over http(s), every
// file of the site is kept for offline use (the whole list, on install, not page by page).
// offline-files.js, written by `ltrain build`, lists each file with its content hash: a redeploy
// changes that list, and so this worker. The new worker fetches only the files whose hash
// changed (the rest are copied from the old cache), then waits: the open pages offer the new
// version, and it takes over when a reader accepts or once every tab of the site is closed.
// Old versions' caches are deleted when the new one takes over.
/* global importScripts, ltrainOffline */
importScripts("offline-files.js");

var scope = self.registration.scope;
var prefix = "ltrain:" + scope + ":";
var current = prefix + ltrainOffline.version;
var listKey = new URL("offline-files.json", scope).href;

function absolute(path) {
  return new URL(path, scope).href;
}

async function precache() {
  var names = (await caches.keys()).filter(function (name) { return name.indexOf(prefix) === 0 && name !== current; });
  var previous = names.length ? await caches.open(names[names.length - 1]) : null;
  var previousHashes = {};
  if (previous) {
    var stored = await previous.match(listKey);
    if (stored) (await stored.json()).files.forEach(function (file) { previousHashes[file[0]] = file[1]; });
  }
  var cache = await caches.open(current);
  await Promise.all(ltrainOffline.files.map(async function (file) {
    var url = absolute(file[0]);
    if (previous && previousHashes[file[0]] === file[1]) {
      var kept = await previous.match(url);
      if (kept) return cache.put(url, kept);
    }
    // The list says this file changed: fetch it whole, never revalidated (a host's Last-Modified
    // has one-second steps, so a redeploy within the second would answer 304 with the old bytes).
    var response = await fetch(url, { cache: "reload" });
    if (!response.ok) throw new Error("ltrain: could not keep " + url + " offline (" + response.status + ")");
    return cache.put(url, response);
  }));
  await cache.put(listKey, new Response(JSON.stringify(ltrainOffline), { headers: { "Content-Type": "application/json" } }));
}

self.addEventListener("install", function (event) {
  event.waitUntil(precache());
});

self.addEventListener("activate", function (event) {
  event.waitUntil((async function () {
    var names = await caches.keys();
    await Promise.all(names.filter(function (name) { return name.indexOf(prefix) === 0 && name !== current; })
      .map(function (name) { return caches.delete(name); }));
    await self.clients.claim();
  })());
});

// Sent by a page when its reader accepts the new version.
self.addEventListener("message", function (event) {
  if (event.data === "ltrain:skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || request.url.indexOf(scope) !== 0) return;
  event.respondWith((async function () {
    var cache = await caches.open(current);
    var url = request.url.split("#")[0].split("?")[0];
    if (url.charAt(url.length - 1) === "/") url += "index.html";
    var kept = await cache.match(url);
    if (kept) return kept;
    try {
      return await fetch(request);
    } catch (error) {
      if (request.mode === "navigate") {
        var notFound = await cache.match(absolute("404.html"));
        if (notFound) return notFound;
      }
      throw error;
    }
  })());
});
