import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../app/store';
import { dismiss, type Notification } from './toastsSlice';
import { Icon } from './icons';
import { followChrome, obstacleBoxes, PHONE_QUERY, PHONE_TOAST_DURATION_MS, toastBottom } from './toastPlacement';

const isPhone = () => typeof window.matchMedia === 'function' && window.matchMedia(PHONE_QUERY).matches;

/** on phones an info or warning toast goes sooner: it takes the screen's width */
export function shownFor(toast: Pick<Notification, 'type' | 'duration'>, phone: boolean): number {
  return phone && toast.type !== 'error' ? Math.min(toast.duration, PHONE_TOAST_DURATION_MS) : toast.duration;
}

/** A code is translated when the locale knows it (notices, errors), otherwise the text is shown. */
export function useToastText(): (n: Pick<Notification, 'code' | 'message'>) => string {
  const { t, i18n } = useTranslation();
  return ({ code, message }) => {
    if (code === 'SESSION_EXPIRED') return t('toast.sessionExpired');
    for (const ns of ['notices', 'errors']) {
      if (code && i18n.exists(`${ns}.${code}`)) return t(`${ns}.${code}`);
    }
    return message;
  };
}

/** One toast as it looks (the kit's catalogue shows these without the store). */
export function ToastView({
  type,
  text,
  onDismiss,
}: {
  type: Notification['type'];
  text: string;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className={`toast toast-${type}`} role={type === 'error' ? 'alert' : 'status'}>
      <span>{text}</span>
      <button type="button" className="icon" aria-label={t('toast.dismiss')} onClick={onDismiss}>
        <Icon name="close" />
      </button>
    </div>
  );
}

function ToastItem({ toast }: { toast: Notification }) {
  const dispatch = useAppDispatch();
  const text = useToastText();
  const { id, type, duration } = toast;
  // armed once per toast: the deps are its fields, not the object (a new one each store update)
  useEffect(() => {
    const timer = setTimeout(() => dispatch(dismiss(id)), shownFor({ type, duration }, isPhone()));
    return () => clearTimeout(timer);
  }, [dispatch, id, type, duration]);
  return <ToastView type={toast.type} text={text(toast)} onDismiss={() => dispatch(dismiss(toast.id))} />;
}

/**
 * The toasts' distance from the bottom while any is shown: above the toolbars below them (the
 * board's tool bar, zoom corner and selection bar, the dashboard's selection bar), followed as
 * they appear, change or go (a toast raised on one page often lands on the next).
 */
function useToastBottom(active: boolean): number | undefined {
  const [bottom, setBottom] = useState<number>();
  useEffect(() => {
    if (!active) return;
    return followChrome(() => {
      const viewport = { width: window.innerWidth, height: window.innerHeight };
      setBottom(toastBottom(viewport, isPhone(), obstacleBoxes()));
    });
  }, [active]);
  return bottom;
}

export function Toasts() {
  const toasts = useAppSelector((s) => s.toasts);
  const { t } = useTranslation();
  const bottom = useToastBottom(toasts.length > 0);
  return (
    <section
      className="toasts"
      aria-label={t('toast.region')}
      aria-live="polite"
      style={bottom === undefined ? undefined : { bottom }}
    >
      {toasts.map((n) => (
        <ToastItem key={n.id} toast={n} />
      ))}
    </section>
  );
}
