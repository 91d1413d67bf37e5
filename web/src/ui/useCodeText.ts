import { useTranslation } from 'react-i18next';

/** `(code) => translated message or undefined` for the error and notice catalogues. */
export function useCodeText(): (code: string) => string | undefined {
  const { t, i18n } = useTranslation();
  return (code) => (i18n.exists(`errors.${code}`) ? t(`errors.${code}`) : undefined);
}
