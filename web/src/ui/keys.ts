/**
 * Shortcut chips in the person's language: "Mod+Shift+Z" is "Strg+Umschalt+Z" in German,
 * "Ctrl+Maj+Z" in French and "⌘⇧Z" on a Mac (Apple's symbols, whatever the language). The names
 * are the main strings' `keys.*` (the conventional key-cap names of each locale).
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export interface KeyNames {
  ctrl: string;
  shift: string;
  alt: string;
  delete: string;
  escape: string;
}
export const ENGLISH_KEY_NAMES: KeyNames = { ctrl: 'Ctrl', shift: 'Shift', alt: 'Alt', delete: 'Del', escape: 'Esc' };

export function isMacPlatform(): boolean {
  if (typeof navigator === 'undefined') return false;
  return /Mac|iPhone|iPad|iPod/i.test(navigator.platform || navigator.userAgent);
}

const ARROWS: Record<string, string> = { ArrowLeft: '←', ArrowRight: '→', ArrowUp: '↑', ArrowDown: '↓' };

/** "Mod+Shift+Z" → "⌘⇧Z" on a Mac, "Ctrl+Shift+Z" (in the locale's names) elsewhere. */
export function formatKeys(keys: string, mac: boolean, names: KeyNames = ENGLISH_KEY_NAMES): string {
  if (keys === '+') return '+';
  const parts = keys.split('+').map((p, i, all) => {
    // "+" as the key itself splits into two empty parts
    if (p === '' && i === all.length - 1) return '+';
    if (p === 'Mod') return mac ? '⌘' : names.ctrl;
    if (p === 'Shift') return mac ? '⇧' : names.shift;
    if (p === 'Alt') return mac ? '⌥' : names.alt;
    if (p === 'Delete') return mac ? '⌦' : names.delete;
    if (p === 'Backspace') return '⌫';
    if (p === 'Escape') return names.escape;
    return ARROWS[p] ?? p;
  });
  const cleaned = parts.filter((p, i) => p !== '' || i === parts.length - 1);
  return mac ? cleaned.join('') : cleaned.join('+');
}

/** the locale's key names (main strings) */
export function useKeyNames(): KeyNames {
  const { t } = useTranslation();
  return {
    ctrl: t('keys.ctrl'),
    shift: t('keys.shift'),
    alt: t('keys.alt'),
    delete: t('keys.delete'),
    escape: t('keys.escape'),
  };
}

/** formatKeys for this platform and language */
export function useFormatKeys(): (keys: string) => string {
  const names = useKeyNames();
  const mac = isMacPlatform();
  const { ctrl, shift, alt, delete: del, escape } = names;
  return useCallback(
    (keys: string) => formatKeys(keys, mac, { ctrl, shift, alt, delete: del, escape }),
    [mac, ctrl, shift, alt, del, escape],
  );
}
