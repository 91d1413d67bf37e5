/**
 * React Aria's locale follows our i18next language (its date fields, calendars and its own few
 * strings, e.g. the hidden "Dismiss" buttons, in all ten languages). Every kit overlay wraps itself
 * in it, so a page needs no provider and the logged-out pages' JS never imports react-aria.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { I18nProvider } from 'react-aria-components';

export function KitProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return <I18nProvider locale={i18n.language}>{children}</I18nProvider>;
}
