import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../app/store';
import { dismiss, type Notification } from './toastsSlice';
import { Icon } from './icons';

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

function ToastItem({ toast }: { toast: Notification }) {
  const dispatch = useAppDispatch();
  const { t } = useTranslation();
  const text = useToastText();
  useEffect(() => {
    const timer = setTimeout(() => dispatch(dismiss(toast.id)), toast.duration);
    return () => clearTimeout(timer);
  }, [dispatch, toast.id, toast.duration]);
  return (
    <div className={`toast toast-${toast.type}`} role={toast.type === 'error' ? 'alert' : 'status'}>
      <span>{text(toast)}</span>
      <button
        type="button"
        className="icon"
        aria-label={t('toast.dismiss')}
        onClick={() => dispatch(dismiss(toast.id))}
      >
        <Icon name="close" />
      </button>
    </div>
  );
}

export function Toasts() {
  const toasts = useAppSelector((s) => s.toasts);
  const { t } = useTranslation();
  return (
    <section className="toasts" aria-label={t('toast.region')} aria-live="polite">
      {toasts.map((n) => (
        <ToastItem key={n.id} toast={n} />
      ))}
    </section>
  );
}
