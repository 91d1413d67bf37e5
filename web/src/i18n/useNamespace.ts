import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LOCALE } from '@wb/proto';
import { isLocale, loadNamespace, type Namespace } from './i18n';

/**
 * A feature namespace for the current language: true once loaded (its files are fetched lazily
 * with the feature's chunk, see i18n.ts). A failed load still renders: i18next shows the keys.
 */
export function useNamespace(ns: Namespace): boolean {
  const { i18n } = useTranslation();
  const lng = isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
  const [loaded, setLoaded] = useState<string | undefined>(() => (i18n.hasResourceBundle(lng, ns) ? lng : undefined));
  useEffect(() => {
    let live = true;
    const done = () => live && setLoaded(lng);
    void loadNamespace(ns, lng).then(done, done);
    return () => {
      live = false;
    };
  }, [lng, ns]);
  return loaded === lng || i18n.hasResourceBundle(lng, ns);
}
