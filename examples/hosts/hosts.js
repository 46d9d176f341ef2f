// Shared by the three host pages: the local stack's project (from the /env.js that `npm start`
// serves), and ?theme= / ?lang= to show every block in one theme or language (npm run screens).
// Runs in <head>, before the CDN loader, which imports no element before the page is parsed.
(function () {
  var env = window.__REACTION_ENV__ || {};
  window.ReactionBlocks = {
    projectUrl: env.supabaseUrl,
    anonKey: env.anonKey,
    dashboardUrl: location.origin,
  };
  var q = new URLSearchParams(location.search);
  document.addEventListener('DOMContentLoaded', function () {
    var tags =
      'reaction-comment,reaction-qna,reaction-like,reaction-button,reaction-ab,reaction-form';
    document.querySelectorAll(tags).forEach(function (el) {
      if (q.get('theme')) el.setAttribute('theme', q.get('theme'));
      if (q.get('lang')) el.setAttribute('lang', q.get('lang'));
    });
    if (q.get('lang')) document.documentElement.lang = q.get('lang');
  });
})();
