import { useTranslation } from 'react-i18next';

/** `(code) => translated message or undefined` for the error and notice catalogues. */
export function useCodeText(): (code: string) => string | undefined {
  const { t, i18n } = useTranslation();
  return (code) => (i18n.exists(`errors.${code}`) ? t(`errors.${code}`) : undefined);
}

/**
 * `(code, serverMessage?) => text` for results that carry a code of spec §8's catalogue (one per
 * invited address, say): the code's message in the reader's language, else the server's own
 * message, else the generic one — never the bare code.
 */
export function useCodeMessage(): (code: string, serverMessage?: string | null) => string {
  const { t } = useTranslation();
  const codeText = useCodeText();
  return (code, serverMessage) => codeText(code) ?? (serverMessage || t('errors.ERR_UNKNOWN'));
}
