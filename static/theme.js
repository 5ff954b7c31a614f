// Light/dark: follows the system setting until the visitor picks one with the header's button
// (auto -> light -> dark -> auto), kept in localStorage. The page's CSS keys off
// <html data-theme>; the app (built in the worker, which sees no media queries) is told the
// effective theme when it starts, and a change is switched in place (loader.js switchTheme).

const KEY = "gradpad.theme";
const CHOICES = ["auto", "light", "dark"];
const LABELS = { auto: "◐ Auto", light: "☀ Light", dark: "☾ Dark" };
const media = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

export function themeChoice() {
  try { const c = localStorage.getItem(KEY); return CHOICES.includes(c) ? c : "auto"; } catch (e) { return "auto"; }
}

export function effectiveTheme(choice = themeChoice()) {
  return choice === "auto" ? (media && media.matches ? "dark" : "light") : choice;
}

function apply() {
  document.documentElement.dataset.theme = effectiveTheme();
  const b = document.getElementById("gp-theme");
  if (b) {
    b.textContent = LABELS[themeChoice()];
    b.title = `Theme: ${themeChoice()} (now ${effectiveTheme()}). Click for ${CHOICES[(CHOICES.indexOf(themeChoice()) + 1) % 3]}.`;
  }
}

// onChange(theme): the effective theme changed (the app follows it)
export function installTheme(onChange) {
  apply();
  let shown = effectiveTheme();
  const changed = () => {
    apply();
    if (effectiveTheme() !== shown) { shown = effectiveTheme(); onChange(shown); }
  };
  const b = document.getElementById("gp-theme");
  if (b) b.addEventListener("click", () => {
    const next = CHOICES[(CHOICES.indexOf(themeChoice()) + 1) % CHOICES.length];
    try { localStorage.setItem(KEY, next); } catch (e) { /* storage disabled: this page only */ }
    changed();
  });
  if (media && media.addEventListener) media.addEventListener("change", changed);  // the system switched
}
