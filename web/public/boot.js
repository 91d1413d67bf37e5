/* global document, localStorage, window, matchMedia, location */
// Runs before the app's styles apply (a file, since the CSP forbids inline scripts): sets the
// saved theme and the page language so the first paint is neither the wrong theme nor language.
(function () {
  const d = document.documentElement;
  let pref = 'system';
  try {
    pref = localStorage.getItem('wb.theme') || 'system';
  } catch {
    // storage blocked: follow the system
  }
  const dark =
    pref === 'dark' || (pref !== 'light' && window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches);
  d.dataset.theme = dark ? 'dark' : 'light';
  d.style.colorScheme = dark ? 'dark' : 'light';
  const m = /^\/(de|fr|it|tr|uk|es|pl|et|ru)(\/|$)/.exec(location.pathname);
  if (m) d.lang = m[1];
})();
