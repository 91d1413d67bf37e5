import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LOCALE } from '@wb/proto';
import { isLocale, loadNamespace } from '../../i18n/i18n';

/**
 * The `boards` namespace for the current language: true once loaded (its files are fetched
 * lazily with the dashboard chunk, see i18n.ts).
 */
export function useBoardsStrings(): boolean {
  const { i18n } = useTranslation();
  const lng = isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
  const [loaded, setLoaded] = useState<string | undefined>(() =>
    i18n.hasResourceBundle(lng, 'boards') ? lng : undefined,
  );
  useEffect(() => {
    let live = true;
    const done = () => live && setLoaded(lng);
    // a failed chunk still renders: i18next falls back to the keys
    void loadNamespace('boards', lng).then(done, done);
    return () => {
      live = false;
    };
  }, [lng]);
  return loaded === lng || i18n.hasResourceBundle(lng, 'boards');
}
