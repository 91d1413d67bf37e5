/**
 * Which language a page starts in and where each locale's strings come from, without i18next:
 * the page's entry (app/boot.ts) starts fetching the strings a page needs from here, before the
 * app (and i18n.ts) has loaded; i18n.ts adds them to i18next. English's main strings are bundled
 * with the app (i18n.ts); every other file here is a chunk of its own.
 */
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@wb/proto';

export const localeLoaders: Record<Exclude<Locale, 'en'>, () => Promise<{ default: unknown }>> = {
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
export const NAMESPACES = ['boards', 'board', 'billing', 'catalogue'] as const;
export type Namespace = (typeof NAMESPACES)[number];
export const namespaceLoaders: Record<Namespace, Record<Locale, () => Promise<{ default: unknown }>>> = {
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
  catalogue: {
    en: () => import('./locales/catalogue/en.json'),
    de: () => import('./locales/catalogue/de.json'),
    fr: () => import('./locales/catalogue/fr.json'),
    it: () => import('./locales/catalogue/it.json'),
    tr: () => import('./locales/catalogue/tr.json'),
    uk: () => import('./locales/catalogue/uk.json'),
    es: () => import('./locales/catalogue/es.json'),
    pl: () => import('./locales/catalogue/pl.json'),
    et: () => import('./locales/catalogue/et.json'),
    ru: () => import('./locales/catalogue/ru.json'),
  },
};

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

/** Start fetching what a page in `locale` will load (the module map keeps it for i18n.ts). */
export function preloadStrings(locale: Locale, namespaces: readonly Namespace[]): void {
  if (locale !== 'en') localeLoaders[locale]().catch(() => undefined);
  for (const ns of namespaces) namespaceLoaders[ns][locale]().catch(() => undefined);
}
