// Keeps a page up to date without a reload: the server says "change" on /events whenever the store
// changes (a move stored, undone or amended); the page then fetches its own address again and puts
// the new <main> in place of the old. After any failure (a phone that slept, Wi-Fi lost, the
// server refusing with 503 while busy or switched off, a stream ended) the stream is made anew after
// a pause that doubles with each failure in a row (1 s up to 30 s, a little random so that the
// table's phones do not all come back at once): a browser gives up an EventSource for good after
// a 503, so it is never left to the browser. Once connected, the page fetches itself to catch up.
(function () {
  "use strict";
  var token = document.body.getAttribute("data-token") ||
    new URLSearchParams(window.location.search).get("t");
  if (!token || !window.EventSource) { return; }
  var fetching = false;
  var again = false;

  function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.text();
      })
      .then(function (text) {
        var fresh = new DOMParser().parseFromString(text, "text/html").querySelector("main");
        var shown = document.querySelector("main");
        if (fresh && shown) { shown.innerHTML = fresh.innerHTML; }
        document.documentElement.classList.remove("stale");
      })
      .catch(function () { document.documentElement.classList.add("stale"); })
      .then(function () {
        fetching = false;
        if (again) { again = false; refresh(); }
      });
  }

  var FIRST_PAUSE = 1000;
  var LONGEST_PAUSE = 30000;
  var pause = FIRST_PAUSE;
  var lost = false;
  var waiting = null;

  // (what the tests look at: how many streams were made)
  var live = window.companionLive = { made: 0 };

  function connect() {
    waiting = null;
    live.made += 1;
    var source = new EventSource("/events?t=" + encodeURIComponent(token));
    source.addEventListener("change", refresh);
    source.addEventListener("open", function () {
      pause = FIRST_PAUSE;
      if (lost) { lost = false; refresh(); }
    });
    source.addEventListener("error", function () {
      lost = true;
      document.documentElement.classList.add("stale");
      source.close();
      later();
    });
  }

  function later() {
    if (waiting !== null) { return; }
    var wait = pause * (0.75 + Math.random() / 2);
    pause = Math.min(pause * 2, LONGEST_PAUSE);
    waiting = window.setTimeout(connect, wait);
  }

  connect();
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") { return; }
    refresh();
    if (waiting !== null) {  // woken while waiting to reconnect: now, from the first pause again
      window.clearTimeout(waiting);
      pause = FIRST_PAUSE;
      connect();
    }
  });
}());
