/**
 * react-i18next with English bundled and every other locale fetched on demand (one small chunk
 * each), so the first load of an English page carries one locale only.
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@wb/proto';
import { localeLoaders, namespaceLoaders, type Namespace } from './locale';
import en from './locales/en.json';

export {
  browserLocale,
  initialLocale,
  isLocale,
  NAMESPACES,
  pickLocale,
  storedLocale,
  storeLocale,
  type Namespace,
} from './locale';

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
    const mod = await localeLoaders[locale]();
    i18n.addResourceBundle(locale, 'translation', mod.default, true, true);
  }
  await Promise.all([...usedNamespaces].map((ns) => loadNamespace(ns, locale)));
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
  document.documentElement.lang = locale;
}
