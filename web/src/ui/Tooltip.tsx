import { useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from 'react';

export const TOOLTIP_SHOW_MS = 500;
export const TOOLTIP_HIDE_MS = 50;

/**
 * Shows `text` after 500 ms of hover or focus, hides 50 ms after leaving (spec §2). `hidden`: not
 * while the control's own menu or flyout is open (the tip would cover its first item).
 */
export function Tooltip({ text, hidden, children }: { text: ReactNode; hidden?: boolean; children: ReactElement }) {
  const [shown, setOpen] = useState(false);
  const open = shown && !hidden;
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const id = useId();
  useEffect(() => () => clearTimeout(timer.current), []);
  // Escape hides it wherever the focus is, also when only hovered (WCAG 1.4.13: dismissable)
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  const later = (value: boolean, ms: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(value), ms);
  };
  return (
    <span
      className="tooltip-anchor"
      onMouseEnter={() => later(true, TOOLTIP_SHOW_MS)}
      onMouseLeave={() => later(false, TOOLTIP_HIDE_MS)}
      onFocus={() => later(true, TOOLTIP_SHOW_MS)}
      onBlur={() => later(false, TOOLTIP_HIDE_MS)}
      aria-describedby={open ? id : undefined}
    >
      {children}
      {open ? (
        <span role="tooltip" id={id} className="tooltip">
          {text}
        </span>
      ) : null}
    </span>
  );
}
