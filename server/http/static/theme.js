// Light or dark, before the first paint: a classic script in <head>, so the page never flashes
// the wrong colours. "auto" follows the system (prefers-color-scheme); the toggle cycles
// auto → light → dark and every open tab follows (the storage event).
(function () {
  var KEY = "limpet.theme";
  var NEXT = { auto: "light", light: "dark", dark: "auto" };
  var media = window.matchMedia("(prefers-color-scheme: dark)");

  function choice() {
    var value = null;
    try { value = localStorage.getItem(KEY); } catch (e) { /* storage off: follow the system */ }
    return NEXT[value] ? value : "auto";
  }

  function apply() {
    var chosen = choice();
    var dark = chosen === "dark" || (chosen === "auto" && media.matches);
    var root = document.documentElement;
    root.dataset.theme = dark ? "dark" : "light";
    root.dataset.themeChoice = chosen;
    var toggle = document.getElementById("theme");
    if (toggle) {
      toggle.textContent = chosen === "auto" ? "◐ Auto" : chosen === "dark" ? "☾ Dark" : "☀ Light";
      toggle.setAttribute("aria-label", "Colour theme: " + chosen + " (" + root.dataset.theme + "); change");
    }
  }

  function cycle() {
    try { localStorage.setItem(KEY, NEXT[choice()]); } catch (e) { /* not kept */ }
    apply();
  }

  apply();
  media.addEventListener("change", apply);
  window.addEventListener("storage", function (event) { if (event.key === KEY) apply(); });
  document.addEventListener("DOMContentLoaded", function () {
    var toggle = document.getElementById("theme");
    if (toggle) toggle.addEventListener("click", cycle);
    apply();
  });
  window.limpetTheme = { cycle: cycle };
})();
