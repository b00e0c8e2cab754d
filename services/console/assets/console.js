// The console works without this script. With it: the result entry keeps the keyboard on the
// board number, and a screen of a tournament refreshes when its events change (another
// arbiter's entry shows without reloading), unless a field is being typed in; the
// new-tournament form shows the knockout's regulations only for the knockout system.
(function () {
  "use strict";
  var system = document.getElementById("system");
  var knockout = document.getElementById("knockout-rules");
  if (!system || !knockout) return;
  var show = function () { knockout.hidden = system.value !== "knockout"; };
  system.addEventListener("change", show);
  show();
})();
(function () {
  "use strict";
  var m = location.pathname.match(/^\/console\/t\/([^/]+)(\/[^/]*)?/);
  if (!m || !window.EventSource) return;
  var id = m[1];
  var busy = function () {
    var a = document.activeElement;
    return a && (a.tagName === "TEXTAREA" || (a.tagName === "INPUT" && a.value !== "" && a.type !== "hidden"));
  };
  var pending = false;
  var refresh = function () {
    if (busy()) { pending = true; return; }
    pending = false;
    fetch(location.pathname + location.search, { credentials: "same-origin" }).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (text) {
      if (!text) return;
      var doc = new DOMParser().parseFromString(text, "text/html");
      var fresh = doc.getElementById("live");
      var main = document.getElementById("live");
      if (!fresh || !main) return;
      var focused = document.activeElement && document.activeElement.id;
      main.replaceWith(fresh);
      var again = focused && document.getElementById(focused);
      if (again) again.focus();
    });
  };
  // The rating-list search answers as the arbiter types (the form's own answer, its results
  // part swapped in).
  var find = document.getElementById("find");
  if (find) {
    var timer = null;
    find.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var q = find.value.trim();
        if (q.length < 2) return;
        fetch(location.pathname + "?find=" + encodeURIComponent(q), { credentials: "same-origin" })
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (text) {
            if (!text || find.value.trim() !== q) return;
            var fresh = new DOMParser().parseFromString(text, "text/html").getElementById("found");
            var here = document.getElementById("found");
            if (fresh && here) here.replaceWith(fresh);
          });
      }, 250);
    });
  }
  // A TRF file chosen from disk is read into the text field the form sends: as UTF-8, or as
  // Windows-1252 when it is not UTF-8 (as the server reads TRF bytes).
  var pick = document.getElementById("trf-pick");
  if (pick && window.TextDecoder) {
    pick.addEventListener("change", function () {
      var f = pick.files && pick.files[0];
      if (!f) return;
      f.arrayBuffer().then(function (buf) {
        var text;
        try { text = new TextDecoder("utf-8", { fatal: true }).decode(buf); }
        catch (e) { text = new TextDecoder("windows-1252").decode(buf); }
        document.getElementById("trf").value = text;
      });
    });
  }
  var es = new EventSource("/t/" + encodeURIComponent(id) + "/events");
  es.onmessage = refresh;
  es.addEventListener("change", refresh);
  document.addEventListener("focusout", function () { if (pending) setTimeout(refresh, 0); });
})();
