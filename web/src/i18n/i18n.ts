/**
 * react-i18next with English bundled and every other locale fetched on demand (one small chunk
 * each), so the first load of an English page carries one locale only.
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@wb/proto';
import en from './locales/en.json';

export const i18n: I18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  resources: { en: { translation: en } },
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
  initAsync: false,
});

const loaders: Record<Exclude<Locale, 'en'>, () => Promise<{ default: unknown }>> = {
  de: () => import('./locales/de.json'),
  fr: () => import('./locales/fr.json'),
  it: () => import('./locales/it.json'),
  tr: () => import('./locales/tr.json'),
  uk: () => import('./locales/uk.json'),
  es: () => import('./locales/es.json'),
  pl: () => import('./locales/pl.json'),
  et: () => import('./locales/et.json'),
  ru: () => import('./locales/ru.json'),
};

/**
 * Feature namespaces: their own files per locale (`locales/<ns>/<lng>.json`), English included,
 * loaded by the feature's chunk on first use, so the first load of other pages does not carry them.
 */
export const NAMESPACES = ['boards', 'board', 'billing'] as const;
export type Namespace = (typeof NAMESPACES)[number];
const namespaceLoaders: Record<Namespace, Record<Locale, () => Promise<{ default: unknown }>>> = {
  boards: {
    en: () => import('./locales/boards/en.json'),
    de: () => import('./locales/boards/de.json'),
    fr: () => import('./locales/boards/fr.json'),
    it: () => import('./locales/boards/it.json'),
    tr: () => import('./locales/boards/tr.json'),
    uk: () => import('./locales/boards/uk.json'),
    es: () => import('./locales/boards/es.json'),
    pl: () => import('./locales/boards/pl.json'),
    et: () => import('./locales/boards/et.json'),
    ru: () => import('./locales/boards/ru.json'),
  },
  billing: {
    en: () => import('./locales/billing/en.json'),
    de: () => import('./locales/billing/de.json'),
    fr: () => import('./locales/billing/fr.json'),
    it: () => import('./locales/billing/it.json'),
    tr: () => import('./locales/billing/tr.json'),
    uk: () => import('./locales/billing/uk.json'),
    es: () => import('./locales/billing/es.json'),
    pl: () => import('./locales/billing/pl.json'),
    et: () => import('./locales/billing/et.json'),
    ru: () => import('./locales/billing/ru.json'),
  },
  board: {
    en: () => import('./locales/board/en.json'),
    de: () => import('./locales/board/de.json'),
    fr: () => import('./locales/board/fr.json'),
    it: () => import('./locales/board/it.json'),
    tr: () => import('./locales/board/tr.json'),
    uk: () => import('./locales/board/uk.json'),
    es: () => import('./locales/board/es.json'),
    pl: () => import('./locales/board/pl.json'),
    et: () => import('./locales/board/et.json'),
    ru: () => import('./locales/board/ru.json'),
  },
};
/** namespaces some page asked for: a language switch loads them before switching */
const usedNamespaces = new Set<Namespace>();

/** Loads a feature namespace for `locale` (once). */
export async function loadNamespace(ns: Namespace, locale: Locale): Promise<void> {
  usedNamespaces.add(ns);
  if (i18n.hasResourceBundle(locale, ns)) return;
  const mod = await namespaceLoaders[ns][locale]();
  i18n.addResourceBundle(locale, ns, mod.default, true, true);
}

/** Loads the locale's strings (once) and switches to it. */
export async function setLocale(locale: Locale): Promise<void> {
  if (locale !== 'en' && !i18n.hasResourceBundle(locale, 'translation')) {
    const mod = await loaders[locale]();
    i18n.addResourceBundle(locale, 'translation', mod.default, true, true);
  }
  await Promise.all([...usedNamespaces].map((ns) => loadNamespace(ns, locale)));
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
  document.documentElement.lang = locale;
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The first supported language of the browser, else English. */
export function browserLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return DEFAULT_LOCALE;
}

/**
 * Spec §2/§9: the URL prefix wins, then the user's setting (a guest's choice is kept locally),
 * then the browser.
 */
export function pickLocale(prefix: Locale | undefined, setting: Locale | null | undefined, browser: Locale): Locale {
  return prefix ?? setting ?? browser;
}

/** The language a page starts in, before the session is known: the URL prefix, this device's choice, the browser. */
export function initialLocale(prefix: Locale | undefined): Locale {
  return pickLocale(prefix, storedLocale(), browserLocale(navigator.languages));
}

const LOCAL_KEY = 'wb.locale';
export function storedLocale(): Locale | undefined {
  try {
    const v = localStorage.getItem(LOCAL_KEY);
    return isLocale(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
export function storeLocale(locale: Locale): void {
  try {
    localStorage.setItem(LOCAL_KEY, locale);
  } catch {
    // private mode: the URL prefix still carries the choice
  }
}
