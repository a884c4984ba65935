// Text for people comes from the shared message catalogues (canasta/i18n/<lang>.json, served
// at /i18n/<lang>.json): the same files the terminal uses. This page formats them and never
// builds or reads English text. The language comes from the switch (kept in localStorage),
// else from the browser's languages; a missing key falls back to English, then to the key.
"use strict";

const CATALOGUES = {};
let LANGS = ["en"];
let LANG = "en";

function pickLang() {
  const saved = localStorage.getItem("canasta.lang");
  if (saved && LANGS.includes(saved)) return saved;
  const langs = navigator.languages || [navigator.language || "en"];
  for (const l of langs) {
    const tag = String(l).toLowerCase();
    if (LANGS.includes(tag)) return tag;
    const short = tag.slice(0, 2);
    if (LANGS.includes(short)) return short;
  }
  return "en";
}

async function loadCatalogue(lang) {
  if (CATALOGUES[lang]) return;
  const res = await fetch(`/i18n/${encodeURIComponent(lang)}.json`);
  CATALOGUES[lang] = res.ok ? await res.json() : {};
}

// Loads the language list, English and the chosen language; call before rendering.
async function initI18n() {
  try {
    const res = await fetch("/i18n");
    if (res.ok) LANGS = (await res.json()).languages;
  } catch (e) { /* keep English */ }
  LANG = pickLang();
  await loadCatalogue("en");
  await loadCatalogue(LANG);
}

function hasText(key) {
  return (CATALOGUES[LANG] && key in CATALOGUES[LANG]) || (CATALOGUES.en && key in CATALOGUES.en);
}

function fill(s, params) {
  if (!params) return s;
  return s.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

function t(key, params) {
  const s = (CATALOGUES[LANG] && CATALOGUES[LANG][key]) ?? (CATALOGUES.en && CATALOGUES.en[key]) ?? key;
  return fill(s, params);
}

// t(key) for a count n: the key's ".one" form for one where the catalogue has it ("1 card").
function tCount(key, n, params) {
  const k = n === 1 && hasText(key + ".one") ? key + ".one" : key;
  return t(k, Object.assign({ n }, params));
}

// t(key) where the catalogue has it, else the fallback text (a name from the server).
function tOr(key, fallback, params) {
  return hasText(key) ? t(key, params) : fill(String(fallback), params);
}

function variantName(name) { return tOr("variant." + name, String(name).replace(/_/g, " ")); }
function choiceLabel(value) { return tOr("choice." + value, value); }

// A refusal from the server ({rule, key, values, seed, quote}): "Not allowed: …" in this
// language, with the sentence of the variant's own seed text (in the seed's language).
function refusalText(r) {
  let text = t("refusal.not_allowed", { reason: t(r.key, r.values) });
  if (r.quote) text += " \u2014 " + t("refusal.quote", { seed: r.seed, quote: r.quote });
  // the seed's sentence word for word, for an English reader (the other pages speak only
  // their own language: the rule's translation stands beside the seed's sentence)
  if (r.quote && r.literal && LANG === "en" && r.seed_language !== LANG) text += " " + t("seed.literal", { literal: r.literal });
  return text;
}

async function setLang(lang) {
  if (!LANGS.includes(lang)) return;
  await loadCatalogue(lang);
  LANG = lang;
  localStorage.setItem("canasta.lang", lang);
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  // labels for screen readers too (aria-label="..." names a key in data-i18n-label)
  document.querySelectorAll("[data-i18n-label]").forEach((el) => { el.setAttribute("aria-label", t(el.dataset.i18nLabel)); });
  document.querySelectorAll(".lang-switch button").forEach((b) => {
    b.classList.toggle("active", b.dataset.lang === lang);
  });
  window.dispatchEvent(new Event("langchange"));
}

// One button per catalogue: adding a language is adding a catalogue file.
function initLangSwitch() {
  document.querySelectorAll(".lang-switch").forEach((box) => {
    box.replaceChildren();
    LANGS.forEach((lang) => {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.lang = lang;
      b.textContent = lang.toUpperCase();
      b.addEventListener("click", () => setLang(lang));
      box.appendChild(b);
    });
  });
  return setLang(LANG);
}
