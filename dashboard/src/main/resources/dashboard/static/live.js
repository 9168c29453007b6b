// Windlass dashboard: live updates. The pages work without this script; with it, the page's content is fetched again
// after each pass (the engine bumps /api/version when it publishes), keeping focus, filters and scroll position.
(function () {
  'use strict';
  var known = document.body.getAttribute('data-version');
  var busy = false;
  var live = document.getElementById('live');
  function refresh() {
    busy = true;
    fetch(window.location.href, { credentials: 'same-origin', headers: { 'Accept': 'text/html' } })
      .then(function (r) { return r.ok || r.status === 503 ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, 'text/html');
        var focused = document.activeElement;
        var focusKey = focused && focused.closest ? keyOf(focused) : null;
        ['content', 'pass'].forEach(function (id) {
          var now = document.getElementById(id), next = doc.getElementById(id);
          if (now && next) now.replaceWith(next);
        });
        document.body.setAttribute('data-version', doc.body.getAttribute('data-version'));
        live = document.getElementById('live');
        if (live) live.textContent = 'updated ' + new Date().toLocaleTimeString();
        if (focusKey) {
          var again = document.querySelector(focusKey);
          if (again) again.focus({ preventScroll: true });
        }
      })
      .catch(function () { if (live) live.textContent = 'not updating: the engine does not answer'; })
      .finally(function () { busy = false; });
  }
  function keyOf(el) {
    var cell = el.closest('td[data-cluster]'), row = el.closest('tr[data-app]');
    if (cell && row) return 'tr[data-app="' + row.getAttribute('data-app') + '"] td[data-cluster="' + cell.getAttribute('data-cluster') + '"]';
    return el.id ? '#' + el.id : null;
  }
  function poll() {
    if (busy || document.hidden) return;
    fetch('/api/version', { credentials: 'same-origin' })
      .then(function (r) { return r.json(); })
      .then(function (v) { if (String(v.version) !== known) { known = String(v.version); refresh(); } })
      .catch(function () { if (live) live.textContent = 'not updating: the engine does not answer'; });
  }
  setInterval(poll, 2000);
})();
