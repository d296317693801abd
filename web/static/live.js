// Keeps a page up to date without a reload: the server says "change" on /events whenever the store
// changes (a move stored, undone or amended); the page then fetches its own address again and puts
// the new <main> in place of the old. After the connection drops (a phone that slept, Wi-Fi lost)
// the browser reconnects by itself, and the page fetches itself once to catch up.
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

  var lost = false;
  var events = new EventSource("/events?t=" + encodeURIComponent(token));
  events.addEventListener("change", refresh);
  events.addEventListener("open", function () {
    if (lost) { lost = false; refresh(); }
  });
  events.addEventListener("error", function () {
    lost = true;
    document.documentElement.classList.add("stale");
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { refresh(); }
  });
}());
