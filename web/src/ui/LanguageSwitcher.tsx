import { useId } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@wb/proto';
import { splitLocale, withPrefix } from '../app/routes';
import { storeLocale } from '../i18n/i18n';
import { useSession } from '../features/session/useSession';
import { useUpdateSettingsMutation } from '../features/session/sessionApi';

/** Same page, other language: swaps the URL prefix and remembers the choice. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const location = useLocation();
  const navigate = useNavigate();
  const { user } = useSession();
  const [updateSettings] = useUpdateSettingsMutation();
  const onChange = (locale: Locale) => {
    storeLocale(locale);
    if (user) void updateSettings({ locale });
    const { rest } = splitLocale(location.pathname);
    void navigate(withPrefix(locale, rest ? `/${rest}` : '/') + location.search);
  };
  return (
    <div className="lang-switch">
      <label htmlFor={id} className="sr-only">
        {t('nav.language')}
      </label>
      <select id={id} value={i18n.language} onChange={(e) => onChange(e.target.value as Locale)}>
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {t(`lang.${l}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
