import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyTheme, loadTheme, nextTheme, saveTheme, type ThemePref } from '../app/theme';

const ICON: Record<ThemePref, string> = { system: '◐', light: '☀', dark: '☾' };

export function ThemeToggle() {
  const { t } = useTranslation();
  const [pref, setPref] = useState<ThemePref>(loadTheme);
  useEffect(() => {
    if (pref !== 'system' || typeof matchMedia !== 'function') return;
    const mq = matchMedia('(prefers-color-scheme: dark)');
    const follow = () => applyTheme('system');
    mq.addEventListener('change', follow);
    return () => mq.removeEventListener('change', follow);
  }, [pref]);
  const label = t('nav.theme', { theme: t(`theme.${pref}`) });
  return (
    <button
      type="button"
      className="icon theme-toggle"
      aria-label={label}
      title={label}
      onClick={() => {
        const next = nextTheme(pref);
        saveTheme(next);
        setPref(next);
      }}
    >
      <span aria-hidden="true">{ICON[pref]}</span>
    </button>
  );
}
